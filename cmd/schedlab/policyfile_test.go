package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --policy-file adds a script policy, labelled with the file's name; the
// SJF script's row equals SJF's, and a broken script is refused with its
// line before anything runs.
func TestRunWithPolicyFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sjf := write("my-sjf.star", "def priority(job, now):\n    return job.solo_s\n")
	typo := write("typo.star", "def priority(job, now):\n    return job.sollo_s\n")
	oracle := write("left.star", "def priority(job, now):\n    return job.remaining_s\n")
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := dispatch(args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, out, errs := run("run", "fifo-vs-sjf", "--policy-file", sjf)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	row := func(label string) string {
		for line := range strings.SplitSeq(out, "\n") {
			if strings.HasPrefix(line, label+" ") {
				return strings.TrimSpace(strings.TrimPrefix(line, label))
			}
		}
		t.Fatalf("no row %s in:\n%s", label, out)
		return ""
	}
	if a, b := row("SJF"), row("my-sjf.star"); a != b {
		t.Errorf("SJF's row %q, the script's %q", a, b)
	}
	if a, b := row("FIFO"), row("my-sjf.star"); a == b {
		t.Errorf("FIFO's row equals the script's: the comparison shows nothing")
	}
	code, _, errs = run("run", "fifo-vs-sjf", "--policies", "fifo", "--policy-file", typo)
	if code != exitInvalid || !strings.Contains(errs, "policies[1].params.source: script line 2") || !strings.Contains(errs, "(did you mean .solo_s?)") {
		t.Errorf("a typo: exit %d, %s", code, errs)
	}
	code, _, errs = run("run", "fifo-vs-sjf", "--policy-file", oracle)
	if code != exitInvalid || !strings.Contains(errs, "job.remaining_s is hidden") {
		t.Errorf("remaining_s without --oracle: exit %d, %s", code, errs)
	}
	if code, _, errs = run("run", "fifo-vs-sjf", "--policy-file", oracle, "--oracle"); code != exitOK {
		t.Errorf("remaining_s with --oracle: exit %d, %s", code, errs)
	}
	if code, _, errs = run("run", "fifo-vs-sjf", "--policy-file", filepath.Join(dir, "none.star")); code != exitInvalid || !strings.Contains(errs, "--policy-file: ") {
		t.Errorf("a missing file: exit %d, %s", code, errs)
	}
	// in a sweep too: one curve more, SJF's
	code, out, errs = run("run", "load-sweep", "--quick", "--policy-file", sjf)
	if code != exitOK {
		t.Fatalf("a sweep: exit %d: %s", code, errs)
	}
	curve := func(label string) string {
		for line := range strings.SplitSeq(out, "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == label {
				return strings.Join(f[1:], " ")
			}
		}
		t.Fatalf("no curve %s in:\n%s", label, out)
		return ""
	}
	if a, b := curve("SJF"), curve("my-sjf.star"); a != b || a == curve("FIFO") {
		t.Errorf("sweep: SJF %q, the script %q, FIFO %q", a, b, curve("FIFO"))
	}
}

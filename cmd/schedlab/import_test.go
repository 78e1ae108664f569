package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// import writes a scenario that validates, with the summary on stderr;
// a broken file exits 2 with its line.
func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.json")
	var stdout, stderr bytes.Buffer
	code := dispatch([]string{"import", "gavel", "../../sim/trace/testdata/gavel-sample.trace", "--sample", "10", "--seed", "2", "--out", out}, &stdout, &stderr)
	if code != exitOK || !strings.Contains(stderr.String(), "gavel: 42 rows read, 10 jobs kept") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	stdout.Reset()
	if code := dispatch([]string{"validate", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("the imported scenario does not validate: %s", stderr.String())
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("job_id,num_gpu,submit_time,duration\n1,1,0,100\n2,x,5,100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	code = dispatch([]string{"import", "tiresias", bad}, &stdout, &stderr)
	if code != exitInvalid || !strings.Contains(stderr.String(), `bad.csv: line 3: column num_gpu: "x" is not a number`) {
		t.Errorf("broken file: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := dispatch([]string{"import", "nope", bad}, &stdout, &stderr); code != exitInvalid || !strings.Contains(stderr.String(), "known formats: philly") {
		t.Errorf("unknown format: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := dispatch([]string{"import", "tiresias", bad, "--window", "3"}, &stdout, &stderr); code != exitInvalid || !strings.Contains(stderr.String(), "--window") {
		t.Errorf("bad window: exit %d, stderr %q", code, stderr.String())
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An escape sequence in a label reaches the terminal escaped; the same
// bytes written one at a time give the same text (a C1 control split
// across writes is still caught).
func TestSafeWriterEscapes(t *testing.T) {
	in := "FIFO\x1b[2J \xc2\x9b31m ok\tdone\r\n é\x7f \xc2A"
	want := `FIFO\u001b[2J \u009b31m ok` + "\tdone" + `\u000d` + "\n é" + `\u007f` + " \xc2A"
	var whole, bytewise bytes.Buffer
	w := &safeWriter{w: &whole}
	w.Write([]byte(in))
	w.Flush()
	b := &safeWriter{w: &bytewise}
	for i := range len(in) {
		b.Write([]byte{in[i]})
	}
	b.Flush()
	if whole.String() != want || bytewise.String() != want {
		t.Fatalf("got %q and %q, want %q", whole.String(), bytewise.String(), want)
	}
	// In writes of a few bytes (clean ones pass without a copy).
	var split bytes.Buffer
	w = &safeWriter{w: &split}
	for i := 0; i < len(in); i += 3 {
		w.Write([]byte(in[i:min(i+3, len(in))]))
	}
	w.Flush()
	if split.String() != want {
		t.Fatalf("got %q in writes of 3 bytes, want %q", split.String(), want)
	}
}

// When no job can ever run, run says so in a sentence.
func TestEveryJobUnschedulable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "u.json")
	// More memory than any GPU has (a job with more GPUs than the cluster
	// is refused by the validator before any run).
	doc := `{"name": "u", "cluster": {"servers": [{"count": 1, "gpus": 2, "gpu_type": "V100", "gpu_memory_gb": 16}]},
	  "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "m", "duration_s": 5, "memory_gb": 32}]}, "policies": [{"name": "fifo"}]}`
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	dispatch([]string{"run", p}, &out, &errOut)
	if !strings.Contains(errOut.String(), "every one of the 1 jobs is unschedulable on this cluster") {
		t.Fatalf("stderr: %s", errOut.String())
	}
}

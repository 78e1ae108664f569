package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateAndRunWarn: validate and run accept a scenario with notices
// (a generator making jobs bigger than the cluster, a short model name
// near a known one), print each as a warning with its path on stderr and
// exit 0; run still runs.
func TestValidateAndRunWarn(t *testing.T) {
	file := filepath.Join(t.TempDir(), "warn.json")
	doc := `{"name": "w", "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": 6, "gpu_mix": [{"gpus": 1, "weight": 1}, {"gpus": 8, "weight": 1}],
	    "duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "bet", "weight": 1}]}},
	  "policies": [{"name": "fifo"}]}`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", file}, {"run", file}} {
		var out, errOut bytes.Buffer
		if code := dispatch(args, &out, &errOut); code != exitOK {
			t.Errorf("%s: exit %d\n%s", args[0], code, errOut.String())
		}
		for _, want := range []string{
			"warning: workload.generator: makes ",
			`warning: workload.generator.models[0].model: "bet" is not a known model; did you mean "bert"?`,
		} {
			if !strings.Contains(errOut.String(), want) {
				t.Errorf("%s: missing %q in\n%s", args[0], want, errOut.String())
			}
		}
	}
}

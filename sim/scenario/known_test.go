package scenario

import (
	"strings"
	"testing"
)

// TestNamesAndSizes: a GPU type nobody knows, a model name one typo away
// from a known one and a job bigger than the cluster are refused at their
// fields, all at once; a model name of the user's own is accepted.
func TestNamesAndSizes(t *testing.T) {
	doc := `{"name": "n", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "B200"}, {"count": 1, "gpus": 8, "gpu_type": "V100"}]},
	  "workload": {"jobs": [
	    {"id": "a", "gpus": 17, "duration_s": 60, "model": "bert"},
	    {"id": "b", "gpus": 1, "duration_s": 60, "model": "resnet5O"},
	    {"id": "c", "gpus": 9, "duration_s": 60, "model": "mine", "gpu_type": "V100"},
	    {"id": "d", "gpus": 16, "duration_s": 60, "model": "BERT"}]},
	  "policies": [{"name": "fifo"}]}`
	_, err := Parse([]byte(doc))
	if err == nil {
		t.Fatal("accepted")
	}
	want := map[string]string{
		"cluster.servers[0].gpu_type": `unknown GPU type "B200"`,
		"workload.jobs[0].gpus":       "has 16 GPUs in all",
		"workload.jobs[1].model":      `did you mean "resnet50"`,
		"workload.jobs[2].gpus":       "has 8 V100 GPUs in all",
		"workload.jobs[3].model":      `did you mean "bert"`,
	}
	got := err.Error()
	for path, msg := range want {
		if !strings.Contains(got, path+": ") || !strings.Contains(got, msg) {
			t.Errorf("want %s: …%s…, got\n%s", path, msg, got)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != len(want) {
		t.Errorf("%d problems, want %d:\n%s", n, len(want), got)
	}

	ok := `{"name": "n", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "B200"}]},
	  "perf": {"params": {"type_speed": [{"gpu_type": "B200", "speed": 3}]}},
	  "workload": {"generator": {"kind": "poisson", "jobs": 3, "gpu_mix": [{"gpus": 8, "weight": 1}],
	    "duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "mine", "weight": 1}]}},
	  "policies": [{"name": "fifo"}]}`
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("a type given a speed and a model of one's own: %v", err)
	}
}

// TestOverflowBesideOtherProblems: a number too large for a float64 is
// reported at its field without hiding the document's other problems.
func TestOverflowBesideOtherProblems(t *testing.T) {
	doc := `{"name": "n", "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "B200"}]},
	  "workload": {"jobs": [{"id": "a", "gpus": 1, "duration_s": 1e400, "model": "bert"}, {"id": "b", "gpus": 5, "duration_s": 60, "model": "bert"}]},
	  "policies": [{"name": "fifo"}]}`
	_, err := Parse([]byte(doc))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"workload.jobs[0].duration_s: the number 1e400 is too large", "cluster.servers[0].gpu_type: unknown GPU type", "workload.jobs[1].gpus: asks for 5 GPUs"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%s", want, err)
		}
	}
}

// TestOverflowInGeneratorBesideNames: a generator parameter too large does
// not hide a model typo beside it.
func TestOverflowInGeneratorBesideNames(t *testing.T) {
	doc := `{"name": "n", "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": 3, "gpu_mix": [{"gpus": 8, "weight": 1}],
	    "duration": {"dist": "exponential", "mean_s": 1e400}, "models": [{"model": "resnet5O", "weight": 1}]}},
	  "policies": [{"name": "fifo"}]}`
	_, err := Parse([]byte(doc))
	for _, want := range []string{"workload.generator.duration.mean_s: the number 1e400 is too large", "workload.generator.models[0].model: unknown model"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

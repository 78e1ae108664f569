package scenario

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/schema"
)

// TestNotices: a generator that makes jobs bigger than the cluster and
// short model names close to known ones are accepted, with a notice at
// their paths naming the numbers or the nearest known name.
func TestNotices(t *testing.T) {
	doc := `{"name": "n", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": 40, "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 16, "weight": 1}],
	    "duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "vgg", "weight": 1}, {"model": "NCF", "weight": 1}, {"model": "bet", "weight": 1}]}},
	  "policies": [{"name": "fifo"}]}`
	sc, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"workload.generator":                 "bigger than the cluster, up to 16 GPUs where it has 8",
		"workload.generator.models[0].model": `did you mean "vgg11"?`, // the first known vgg (Tiresias's vgg11 is known)
		"workload.generator.models[1].model": `did you mean "ncf"?`,
		"workload.generator.models[2].model": `did you mean "bert"?`,
	}
	got := schemaText(sc.Notices())
	for path, msg := range want {
		if !strings.Contains(got, path+": ") || !strings.Contains(got, msg) {
			t.Errorf("want %s: …%s…, got\n%s", path, msg, got)
		}
	}
	if n := len(sc.Notices()); n != len(want) {
		t.Errorf("%d notices, want %d:\n%s", n, len(want), got)
	}
}

// TestNoNotices: labels of one's own (one or two letters, or far from
// any known name), known names and jobs that fit the cluster (all of its
// GPUs at most, or of the job's GPU type) give no notice.
func TestNoNotices(t *testing.T) {
	doc := `{"name": "n", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}, {"count": 1, "gpus": 2, "gpu_type": "K80"}]},
	  "workload": {"jobs": [
	    {"id": "a", "gpus": 10, "duration_s": 60, "model": "a"},
	    {"id": "b", "gpus": 8, "duration_s": 60, "model": "m1", "gpu_type": "V100"},
	    {"id": "c", "gpus": 1, "duration_s": 60, "model": "xyz"},
	    {"id": "d", "gpus": 1, "duration_s": 60, "model": "ncf"},
	    {"id": "e", "gpus": 1, "duration_s": 60, "model": "LM"},
	    {"id": "f", "gpus": 1, "duration_s": 60, "model": "mine"}]},
	  "policies": [{"name": "fifo"}]}`
	sc, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if ns := sc.Notices(); len(ns) > 0 {
		t.Errorf("notices:\n%s", schemaText(ns))
	}
	gen := `{"name": "n", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": 40, "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 8, "weight": 1}],
	    "duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "lm", "weight": 1}]}},
	  "policies": [{"name": "fifo"}]}`
	if sc, err = Parse([]byte(gen)); err != nil {
		t.Fatal(err)
	}
	if got := schemaText(sc.Notices()); got != `workload.generator.models[0].model: "lm" is not a known model; did you mean "LM"? As it is, it runs as a model of its own` {
		t.Errorf("a generator whose jobs fit, with a known name in other case:\n%s", got)
	}
}

// TestNoticesCached: a second parse of the same workload (the page at
// every keystroke) takes the dry build from the cache, notices included.
func TestNoticesCached(t *testing.T) {
	doc := `{"name": "n", "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": 20, "gpu_mix": [{"gpus": 8, "weight": 1}],
	    "duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "mine", "weight": 1}]}},
	  "policies": [{"name": "fifo"}]}`
	for i := range 2 {
		sc, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := schemaText(sc.Notices()); !strings.Contains(got, "makes 20 of 20 jobs (seed 1) bigger than the cluster, up to 8 GPUs where it has 4") {
			t.Errorf("parse %d: %q", i+1, got)
		}
	}
}

// TestBuiltinScenariosWithoutNotices: what the built-in scenarios ask is
// meant, so none of them draws a notice.
func TestBuiltinScenariosWithoutNotices(t *testing.T) {
	for _, name := range scenarios.Names() {
		data, _ := scenarios.Read(name)
		sc, err := Parse(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if ns := sc.Notices(); len(ns) > 0 {
			t.Errorf("%s:\n%s", name, schemaText(ns))
		}
	}
}

func schemaText(ps []schema.Problem) string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

package form

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
	"github.com/schedlab/schedlab/web/doc"
)

func find(ws []Widget, name string) *Widget {
	for i := range ws {
		w := &ws[i]
		switch {
		case w.Field != nil && w.Field.Name == name:
			return w
		case w.Table != nil && strings.HasSuffix(w.Table.Path, name):
			return w
		case w.Group != nil && strings.HasSuffix(w.Group.Path, name):
			return w
		}
	}
	return nil
}

func TestDescribePoisson(t *testing.T) {
	tree, _ := doc.Parse([]byte(`{"workload": {"generator": {"kind": "poisson", "jobs": 30,
	  "gpu_mix": [{"gpus": 1, "weight": 0.5}, {"gpus": 8, "weight": 0.5}], "duration": {"dist": "lognormal"}}}}`))
	ws := Describe(reflect.TypeOf(workload.PoissonParams{}), workload.DefaultPoissonParams(), "workload.generator", tree)
	jobs := find(ws, "jobs")
	if jobs == nil || jobs.Field.Kind != Integer || jobs.Field.Path != "workload.generator.jobs" || jobs.Field.Default != "100" ||
		jobs.Field.Min == nil || *jobs.Field.Min != 1 || jobs.Field.Label != "Number of jobs" {
		t.Fatalf("jobs field: %+v", jobs)
	}
	mix := find(ws, "gpu_mix")
	if mix == nil || mix.Table == nil || len(mix.Table.Rows) != 2 || len(mix.Table.Columns) != 2 {
		t.Fatalf("gpu_mix: %+v", mix)
	}
	if p := mix.Table.Rows[1][0].Path; p != "workload.generator.gpu_mix[1].gpus" {
		t.Errorf("cell path %s", p)
	}
	if got := string(doc.Compact(mix.Table.Template)); got != `{"gpus":1,"weight":1}` {
		t.Errorf("row template %s", got)
	}
	dur := find(ws, "duration")
	if dur == nil || dur.Group == nil {
		t.Fatalf("duration: %+v", dur)
	}
	dist := find(dur.Group.Widgets, "dist")
	if dist == nil || dist.Field.Kind != Enum || len(dist.Field.Enum) != 5 || dist.Field.Default != "exponential" {
		t.Errorf("dist: %+v", dist.Field)
	}
	if mean := find(dur.Group.Widgets, "mean_s"); mean == nil || mean.Field.Unit != "s" || mean.Field.Path != "workload.generator.duration.mean_s" {
		t.Errorf("mean_s: %+v", mean)
	}
}

func TestDescribeFlattensAndFallsBack(t *testing.T) {
	ws := Describe(reflect.TypeOf(scenario.Engine{}), nil, "engine", nil)
	if find(ws, "restart_s") == nil || find(ws, "max_events") == nil || find(ws, "sharing_limit") == nil {
		t.Errorf("embedded structs are not flattened: %d widgets", len(ws))
	}
	ws = Describe(reflect.TypeOf(perf.InterferenceSpec{}), nil, "perf.interference", nil)
	if m := find(ws, "matrix"); m == nil || m.Field.Kind != JSON {
		t.Errorf("matrix should be JSON: %+v", m)
	}
	if m := find(ws, "models"); m == nil || m.Field.Kind != StringList {
		t.Errorf("models should be a string list: %+v", m)
	}
	ws = Describe(reflect.TypeOf(cluster.ServerGroup{}), nil, "cluster.servers[0]", nil)
	if g := find(ws, "gpus"); g == nil || g.Field.Label != "GPUs per server" || g.Field.ID != "f-cluster-servers-0-gpus" || g.Field.Optional {
		t.Errorf("gpus: %+v", g.Field)
	}
	if m := find(ws, "gpu_memory_gb"); m == nil || !m.Field.Optional || m.Field.Unit != "GB" {
		t.Errorf("gpu_memory_gb: %+v", m.Field)
	}
}

func TestValue(t *testing.T) {
	num := &Field{Kind: Number}
	opt := &Field{Kind: Number, Optional: true}
	list := &Field{Kind: NumberList}
	cases := []struct {
		f      *Field
		in     string
		want   any
		remove bool
	}{
		{num, "16", json.Number("16"), false},
		{num, "0.50", json.Number("0.50"), false},
		{num, ".5", json.Number("0.5"), false},
		{num, "1e3", json.Number("1e3"), false},
		{num, "abc", "abc", false},
		{num, "", "", false},
		{num, "NaN", "NaN", false},
		{opt, " ", nil, true},
		{list, "1, 2 3", []any{json.Number("1"), json.Number("2"), json.Number("3")}, false},
		{list, "1, x", "1, x", false},
		{&Field{Kind: StringList}, "a,b", []any{"a", "b"}, false},
		{&Field{Kind: String}, " V100", " V100", false},
		{&Field{Kind: JSON}, `[[1, 2]]`, []any{[]any{json.Number("1"), json.Number("2")}}, false},
		{&Field{Kind: JSON}, `[[1, 2`, `[[1, 2`, false},
	}
	for _, c := range cases {
		v, rm := Value(c.f, c.in)
		if !reflect.DeepEqual(v, c.want) || rm != c.remove {
			t.Errorf("Value(%s, %q) = %#v, %v; want %#v, %v", c.f.Kind, c.in, v, rm, c.want, c.remove)
		}
	}
	if got := Text([]any{json.Number("1"), json.Number("2.5")}, NumberList); got != "1, 2.5" {
		t.Errorf("list text %q", got)
	}
}

func TestMessage(t *testing.T) {
	f := &Field{Kind: Integer}
	if m := Message(f, "abc", "must be a whole number, got \"abc\""); m != "“abc” is not a number" {
		t.Errorf("got %q", m)
	}
	if m := Message(f, "2.5", "x"); m != "“2.5” is not a whole number" {
		t.Errorf("got %q", m)
	}
	if m := Message(f, "", "x"); !strings.Contains(m, "empty") {
		t.Errorf("got %q", m)
	}
	if m := Message(f, json.Number("0"), "must be at least 1, got 0"); m != "must be at least 1, got 0" {
		t.Errorf("a real value keeps the validator's message: %q", m)
	}
}

func TestLabel(t *testing.T) {
	for in, want := range map[string]string{"inter_rack_gbps": "Inter rack", "large_job_gpus": "Large job GPUs", "backfill": "Backfill", "gpu_memory_gb": "GPU memory"} {
		if got := Label("X", in); got != want {
			t.Errorf("Label(%s) = %q, want %q", in, got, want)
		}
	}
}

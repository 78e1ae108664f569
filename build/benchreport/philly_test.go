package main

import (
	"slices"
	"strings"
	"testing"
)

// Each refusal schedlab validate gives a policy on the imported Philly
// log (the words of sim/scenario's checks) calls for its adaptation, each
// adaptation once, and an unknown refusal for none.
func TestAdaptFor(t *testing.T) {
	sjfbco := `policies[0].name: SJF-BCO works only with perf model ring_allreduce, but perf.model is "analytic"; choose that model or another policy
policies[0].name: SJF-BCO plans an offline batch and needs every job at time 0, but workload.jobs[1] ("philly-1986") arrives at 21533 s; submit every job at time 0 or use another policy (to import a trace that way, tick "Every job at time 0" in the page's import panel, or give schedlab import --at-zero)`
	cases := []struct {
		refusal string
		args    []string
		note    string
	}{
		{`policies[0].name: OJPP works only with perf model memshare, but perf.model is "analytic"; choose that model or another policy`,
			[]string{"--cluster", "ojpp-64"}, "OJPP paper's Mixed queue"},
		{sjfbco, []string{"--cluster", "sjf-bco-64", "--at-zero"}, "every job submitted at time 0"},
		{`policies[0].name: FF plans an offline batch and needs every job at time 0, but workload.jobs[1] ("philly-1986") arrives at 21533 s; submit every job at time 0 or use another policy (to import a trace that way, tick "Every job at time 0" in the page's import panel, or give schedlab import --at-zero)`,
			[]string{"--cluster", "sjf-bco-64", "--at-zero"}, "ring_allreduce"},
		{`policies[0].name: AlloX schedules jobs of at most 1 GPU(s), but job "philly-32773" asks for 4; use another policy or smaller jobs`,
			[]string{"--max-gpus", "1"}, "the log's %s jobs of at most 1 GPU(s), `--max-gpus 1`"},
		{`policies[0].name: X schedules jobs of at most 16 GPU(s), but job "a" asks for 32`, []string{"--max-gpus", "16"}, "at most 16 GPU(s)"},
	}
	for _, c := range cases {
		k, sub := adaptFor(c.refusal, map[int]bool{})
		if k < 0 {
			t.Fatalf("no adaptation for %q", c.refusal)
		}
		if got := adaptations[k].args(sub); !slices.Equal(got, c.args) {
			t.Errorf("%q: import options %v, want %v", c.refusal, got, c.args)
		}
		if got := adaptations[k].note(sub); !strings.Contains(got, c.note) {
			t.Errorf("%q: note %q lacks %q", c.refusal, got, c.note)
		}
		if again, _ := adaptFor(c.refusal, map[int]bool{k: true}); again >= 0 {
			t.Errorf("%q: adaptation %d answers again after adaptation %d", c.refusal, again, k)
		}
	}
	for _, other := range []string{"", `policies[0].params.prices: no price for GPU type "2080Ti"`, "workload: needs jobs"} {
		if k, _ := adaptFor(other, map[int]bool{}); k >= 0 {
			t.Errorf("%q: adaptation %d, want none", other, k)
		}
	}
}

package sjfbco

import "testing"

// One SJF-BCO plan for the paper's setting: 160 jobs on 20 servers, the
// full κ sweep (6 size classes) at every θ of the bisection (issue 13's
// target: under 0.5 s natively).
func BenchmarkPlan160Jobs20Servers(b *testing.B) {
	c := mustCluster(b, paperCaps...)
	jobs := batch(b, 1)
	m := model("contended")
	if err := m.Prepare(c, jobs); err != nil {
		b.Fatal(err)
	}
	var pl plan
	for b.Loop() {
		pl = planFor(c, len(c.Servers), jobs, sjfOrder(jobs), m, "sjf-bco", *DefaultParams())
	}
	b.ReportMetric(float64(pl.trials), "trials")
}

package sharing

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// runLogged runs jobs on servers × 4 GPUs of 11 GB with every invariant
// checked and the whole decision log kept.
func runLogged(t *testing.T, servers int, xi float64, jobs []workload.Job, p engine.Policy) *engine.Result {
	t.Helper()
	c := mustCluster(t, servers, 4, 11)
	params := perf.DefaultAnalyticParams()
	if xi > 0 {
		params.Xi = perf.XiParams{Model: "uniform", Uniform: xi}
	}
	m := mustAnalytic(t, params, c)
	return policytest.Run(t, c, m, p, jobs, policytest.FullLog()).Result
}

func logText(res *engine.Result) []string {
	var out []string
	for i := range res.Log {
		d := &res.Log[i]
		out = append(out, fmt.Sprintf("%v %d %s", d.TimeS, d.Job, d.Msg()))
	}
	return out
}

// Skipping the pending jobs that idle says cannot start changes nothing:
// the same starts, intervals and decision log as trying every job at every
// pass, for both policies on overloaded queues, with and without batch
// scaling, sharing limits 2 and 3, and interference that makes SJF-BSBF
// share often or rarely.
func TestSkippingIdleJobsChangesNothing(t *testing.T) {
	type variant struct {
		name string
		new  func(tryAll bool) engine.Policy
	}
	bsbfWith := func(f func(*BSBFParams)) func(bool) engine.Policy {
		return func(tryAll bool) engine.Policy {
			p := DefaultBSBFParams()
			f(&p)
			sc := NewBSBF(p).(*scheduler)
			sc.tryAll = tryAll
			return sc
		}
	}
	ffsWith := func(f func(*FFSParams)) func(bool) engine.Policy {
		return func(tryAll bool) engine.Policy {
			p := DefaultFFSParams()
			f(&p)
			sc := NewFFS(p).(*scheduler)
			sc.tryAll = tryAll
			return sc
		}
	}
	variants := []variant{
		{"bsbf", bsbfWith(func(*BSBFParams) {})},
		{"bsbf-c3-benefit", bsbfWith(func(p *BSBFParams) { p.MaxJobsPerGPU = 3; p.Rank = "benefit" })},
		{"bsbf-restore-noscaling", bsbfWith(func(p *BSBFParams) { p.RestoreFullBatch = true; p.BatchScaling = false })},
		{"ffs", ffsWith(func(*FFSParams) {})},
		{"ffs-scaling-sharedfirst", ffsWith(func(p *FFSParams) { p.BatchScaling = true; p.SharedFirst = true })},
		{"ffs-c3", ffsWith(func(p *FFSParams) { p.MaxJobsPerGPU = 3 })},
	}
	for _, v := range variants {
		for i, xi := range []float64{0, 1.2, 2.5} {
			jobs := overloaded(400, uint64(i+7))
			fast := runLogged(t, 2+i, xi, jobs, v.new(false))
			all := runLogged(t, 2+i, xi, jobs, v.new(true))
			if !reflect.DeepEqual(fast.Jobs, all.Jobs) || !reflect.DeepEqual(fast.Intervals, all.Intervals) ||
				!reflect.DeepEqual(logText(fast), logText(all)) {
				t.Errorf("%s, ξ %v: skipping idle jobs changed the run", v.name, xi)
			}
			shared := 0
			for _, l := range logText(fast) {
				if strings.Contains(l, " with ") || strings.Contains(l, "→ share") {
					shared++
				}
			}
			t.Logf("%s ξ %v: %d log entries, %d about sharing", v.name, xi, len(fast.Log), shared)
		}
	}
}

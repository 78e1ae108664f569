package tiresias

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// digest is what a run decided, in comparable form: every job's record,
// every allocation interval and every log line.
func digest(res *engine.Result) ([]engine.JobRecord, []engine.Interval, []string) {
	var log []string
	for i := range res.Log {
		d := &res.Log[i]
		log = append(log, fmt.Sprintf("%v %d %s", d.TimeS, d.Job, d.Msg()))
	}
	return res.Jobs, res.Intervals, log
}

func runPolicy(t *testing.T, servers, gpus int, jobs []workload.Job, pol engine.Policy) *engine.Result {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: servers, GPUs: gpus, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err = workload.Finalize(jobs)
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: pol, Paranoid: true, MaxLogEntries: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The waiting jobs kept in order across rounds (KeepPendingKeys) decide
// exactly as sorting every active job at every round: same starts,
// preemptions, intervals and log, on overloaded queues with several
// thresholds, rounds or events, and both placements.
func TestPendingQueuesMatchFullSort(t *testing.T) {
	cases := []Params{
		defaults(),
		{ThresholdsGPUH: []float64{0.5, 4}, RoundS: 60, RestartS: 30, QueueOrder: "arrival"},
		{ThresholdsGPUH: []float64{1}, RoundS: 0, RestartS: 10},
		{ThresholdsGPUH: []float64{0.2, 1, 3}, RoundS: 300, RestartS: 0},
	}
	for i, p := range cases {
		for _, placement := range []string{"consolidated", "strict"} {
			p := p
			p.Placement = placement
			jobs := overloaded(600, uint64(i+1))
			fast := runPolicy(t, 4, 4, jobs, newScheduler(p, true))
			full := runPolicy(t, 4, 4, jobs, newScheduler(p, false))
			fj, fi, fl := digest(fast)
			sj, si, sl := digest(full)
			if !reflect.DeepEqual(fj, sj) || !reflect.DeepEqual(fi, si) || !reflect.DeepEqual(fl, sl) {
				t.Errorf("case %d, %s: the pending queues decide differently from the full sort", i, placement)
			}
			pre := 0
			for _, j := range fj {
				pre += j.Preemptions
			}
			if pre == 0 {
				t.Errorf("case %d, %s: no preemption, so the comparison shows little", i, placement)
			}
		}
	}
}

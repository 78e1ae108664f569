package tiresias

import (
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// With more than 127 thresholds a job's queue number no longer fits the
// int8 the pending queues once kept it in: a job preempted in queue 138
// was filed nowhere and never started again, and the run ended in a
// livelock error. By hand, on two GPUs with thresholds every 0.001
// GPU-hour (3.6 GPU-seconds), 60 s rounds: A (2 GPUs) runs from 60 and
// passes its 138th threshold (496.8 GPU-s) at 60 + 248.4 s; B arrives at
// 400 (queue 0) and preempts A at the round of 420, when A has run 360 s
// (720 GPU-s, queue 200); B ends at 520, A resumes at the round of 540
// and, after its 30 s restart, runs its last 640 s: it ends at 1210.
func TestManyThresholds(t *testing.T) {
	th := make([]float64, 200)
	for i := range th {
		th[i] = 0.001 * float64(i+1)
	}
	res := runJobs(t, Params{ThresholdsGPUH: th, RoundS: 60, RestartS: 30}, []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 1000, Model: "m"},
		{Name: "B", GPUs: 2, DurationS: 100, Model: "m", ArrivalS: 400},
	})
	a, b := res.Jobs[0], res.Jobs[1]
	if a.Status != engine.Finished || a.Preemptions != 1 || a.FinishS != 540+30+640 {
		t.Errorf("A: %s, preempted %d, finish %v", a.Status, a.Preemptions, a.FinishS)
	}
	if b.FirstStartS != 420 || b.FinishS != 520 {
		t.Errorf("B ran %v–%v", b.FirstStartS, b.FinishS)
	}
}

// A job that arrives exactly on a round boundary on an idle cluster is
// decided at that round, as it would be on a busy cluster: rounds tick at
// round_s, 2·round_s, ... (Pollux's simulator allocates after each step,
// so a job submitted at t = 0 gets GPUs at the first round, 60 s). By
// hand: A (arrives at 10) starts at the round of 60 and ends at 80; the
// round of 120 finds nothing to do and asks for no other; the cluster is
// idle when B arrives at 180, a round boundary, and B starts then, not at
// 240; C arrives at 210 and starts at the round of 240.
func TestArrivalOnRoundBoundary(t *testing.T) {
	res := runJobs(t, Params{ThresholdsGPUH: []float64{1}, RoundS: 60, RestartS: 30}, []workload.Job{
		{Name: "A", GPUs: 1, DurationS: 20, Model: "m", ArrivalS: 10},
		{Name: "B", GPUs: 1, DurationS: 500, Model: "m", ArrivalS: 180},
		{Name: "C", GPUs: 1, DurationS: 10, Model: "m", ArrivalS: 210},
	})
	for i, want := range []float64{60, 180, 240} {
		if j := res.Jobs[i]; j.FirstStartS != want {
			t.Errorf("%s arrived at %v and started at %v, want %v", j.Name, j.ArrivalS, j.FirstStartS, want)
		}
	}
}

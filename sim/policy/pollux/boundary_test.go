package pollux

import (
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// A job that arrives exactly on a round boundary on an idle cluster is
// allocated at that round, as Pollux's simulator allocates the jobs
// submitted by the end of each step. Without the restart penalty (which
// gives a job that arrived a moment ago nothing) a job gets GPUs at its
// first round. By hand, 60 s rounds: A (arrives at 10) starts at 60 and
// ends at 80 (20 s alone on one GPU, its first start free); the round of
// 120 finds nothing to do and asks for no other; B arrives at 180, a
// round boundary, and starts then, not at 240.
func TestArrivalOnRoundBoundary(t *testing.T) {
	p := defaults()
	p.RestartPenalty = false
	res, _, _ := runJobs(t, 1, p, []workload.Job{
		{Name: "A", Model: "cifar10", GPUs: 1, DurationS: 20, ArrivalS: 10},
		{Name: "B", Model: "cifar10", GPUs: 1, DurationS: 20, ArrivalS: 180},
	})
	for i, want := range []float64{60, 180} {
		if j := res.Jobs[i]; j.FirstStartS != want {
			t.Errorf("%s arrived at %v and started at %v, want %v", j.Name, j.ArrivalS, j.FirstStartS, want)
		}
	}
}

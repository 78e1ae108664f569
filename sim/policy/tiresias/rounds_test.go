package tiresias

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// tesseraeLike is n jobs of 1, 2, 4 or 8 GPUs (mostly small), arriving
// every 90 s on average and running 10 minutes to 2 hours: more work than
// 32 GPUs serve, so that LAS preempts at most rounds.
func tesseraeLike(n int, seed uint64) []workload.Job {
	r := rand.New(rand.NewPCG(seed, 32))
	jobs := make([]workload.Job, n)
	at := 0.0
	for i := range jobs {
		at += 180 * r.Float64()
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%d", i), Model: "m", ArrivalS: at,
			GPUs: []int{1, 1, 1, 2, 2, 4, 8}[r.IntN(7)], DurationS: 600 + 6600*r.Float64()}
	}
	return jobs
}

// Blox never moves a running job, and neither does tiresias-rounds: a job
// picked again keeps its GPUs. The Tesserae placer it used to be, with
// Gavel's sticky rule, moved jobs that kept running under the las order
// (3,127 moves on a 400-job trace). On 8 servers of 4 GPUs, 400 jobs:
// many preemptions, no migration, every job finished.
func TestRoundsNeverMoveARunningJob(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 8, GPUs: 4, GPUType: "A100"}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := workload.Finalize(tesseraeLike(400, 1))
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New("tiresias-rounds")
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: pol, Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	moves, preempted := 0, 0
	for _, j := range res.Jobs {
		moves += j.Migrations
		preempted += j.Preemptions
		if j.Status != engine.Finished {
			t.Errorf("%s is %s", j.Name, j.Status)
		}
	}
	if moves != 0 || preempted < 100 {
		t.Errorf("%d migrations (want 0), %d preemptions (want many)", moves, preempted)
	}
}

// By hand, one 4-GPU server, 360 s rounds, 30 s restarts, las: A and B
// (2 GPUs each, 2,000 s) start at the first round on GPUs 0-1 and 2-3. At
// 720 both have 720 GPU-seconds and C (2 GPUs, 500 s, arrived at 400,
// none) goes first, then A (the earlier of the tie): B is preempted and C
// starts on B's GPUs while A keeps its own; C ends at 1220. At 1080 B and
// C (720 GPU-s each) go before A (1,440): A is preempted and B restarts on
// A's old GPUs after 30 s. At 1440 A and B tie at 1,440 GPU-s and both
// run: A restarts on GPUs 2-3. B has 2,000 − 360 = 1,640 s left from 1110
// and A 2,000 − 720 = 1,280 s from 1470: both end at 2750.
func TestRoundsLAS(t *testing.T) {
	pol, err := NewRounds(DefaultRoundsParams())
	if err != nil {
		t.Fatal(err)
	}
	res := runPolicy(t, 1, 4, []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 2000, Model: "m"},
		{Name: "B", GPUs: 2, DurationS: 2000, Model: "m"},
		{Name: "C", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 400},
	}, pol)
	a, b, c := res.Jobs[0], res.Jobs[1], res.Jobs[2]
	if a.FinishS != 2750 || b.FinishS != 2750 || a.Preemptions != 1 || b.Preemptions != 1 || a.Migrations+b.Migrations+c.Migrations != 0 {
		t.Errorf("A ends %v (preempted %d), B ends %v (preempted %d), moves %d", a.FinishS, a.Preemptions, b.FinishS, b.Preemptions, a.Migrations+b.Migrations+c.Migrations)
	}
	if c.FirstStartS != 720 || c.FinishS != 1220 {
		t.Errorf("C ran %v–%v, want 720–1220", c.FirstStartS, c.FinishS)
	}
	want := map[[2]float64]workload.JobID{{720, 2}: 2, {1080, 0}: 1, {1440, 2}: 0} // (start, GPU) -> job
	found := 0
	for _, iv := range res.Intervals {
		if id, ok := want[[2]float64{iv.StartS, float64(iv.GPU)}]; ok {
			found++
			if iv.Job != id {
				t.Errorf("GPU %d from %v holds job %d, want %d", iv.GPU, iv.StartS, iv.Job, id)
			}
		}
	}
	if found != len(want) {
		t.Errorf("%d of the %d starts looked for were found: %v", found, len(want), res.Intervals)
	}
}

package tesserae

import (
	"context"
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of the Tesserae policy's order keys, fairness
// metric and profile estimators (spec 003 §4.2, §4.3, §5.7).

// The finish-time-fairness order ranks by ρ = (time in the system +
// remaining solo time) / solo time, largest first. One GPU, 360 s rounds,
// no overheads: A (500 s alone) and B (1000 s) arrive at 0, tie at ρ = 1
// and A (lower id) runs. At 360 s A has 140 s left: ρ_A = (360 + 140)/500
// = 1, while B, waiting, has ρ_B = (360 + 1000)/1000 = 1.36: B takes the
// GPU at 360 s. (Without the remaining time A's 360/500 = 0.72 would beat
// B's 0.36 and A would run to the end at 500 s.)
func TestFTFOrderByHand(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := workload.Finalize([]workload.Job{{Name: "A", GPUs: 1, DurationS: 500}, {Name: "B", GPUs: 1, DurationS: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	p.Order, p.Packing, p.MigrationS, p.RestartS = "ftf", "none", 0, 0
	pol, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: pol, Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := res.Jobs[0], res.Jobs[1]; a.FirstStartS != 0 || b.FirstStartS != 360 || a.Preemptions == 0 {
		t.Errorf("A starts at %v (%d preemptions), B at %v; want A at 0, preempted, B at 360", a.FirstStartS, a.Preemptions, b.FirstStartS)
	}
}

// ρ of a 2-GPU job on 2 GPUs: A (2 GPUs) and B (1 GPU), 100 s alone each,
// arrive at 0 and finish at 200 s and 100 s. A saw 1.5 jobs on average
// (300 job-seconds over 200 s): a 1/1.5 share of the cluster is 1.33
// GPUs, so its fair JCT is 100·2·1.5/2 = 150 s and ρ_A = 200/150 = 4/3.
// B saw 2 jobs: its fair share is 1 GPU, fair JCT 100·max(1, 1·2/2) =
// 100 s, ρ_B = 1.
func TestFairRhoCountsGPUs(t *testing.T) {
	recs := []engine.JobRecord{
		{Job: 0, Status: engine.Finished, ArrivalS: 0, FinishS: 200, SoloS: 100},
		{Job: 1, Status: engine.Finished, ArrivalS: 0, FinishS: 100, SoloS: 100},
	}
	jobs := []workload.Job{{ID: 0, GPUs: 2}, {ID: 1, GPUs: 1}}
	got := FairRhos(metrics.Context{Selected: recs, Result: &engine.Result{Jobs: recs}, Jobs: jobs, NumGPUs: 2})
	if len(got) != 2 || math.Abs(got[0]-4.0/3) > 1e-12 || math.Abs(got[1]-1) > 1e-12 {
		t.Errorf("ρ = %v, want [4/3 1]", got)
	}
}

// The linear estimator (Sia's linear model) believes a k-GPU pair keeps
// its 1-GPU values, each model's own side: with p beside q at 0.6 and q
// beside p at 0.9 on 1 GPU, and 0.5 and 0.7 measured on 2, it believes
// 0.6 and 0.9 on 2 GPUs.
func TestLinearEstimatorByHand(t *testing.T) {
	one := [][]float64{{0, 0.6}, {0.9, 0}}
	two := [][]float64{{0, 0.5}, {0.7, 0}}
	tab := &pack.Table{GPUs: []int{1, 2}, Models: []string{"p", "q"}, T: [][][]float64{one, two}}
	got := linear(tab)
	if a, b, ok := got.Pair("p", "q", 2); !ok || a != 0.6 || b != 0.9 {
		t.Errorf("believed p, q on 2 GPUs: %v, %v; want 0.6, 0.9", a, b)
	}
	if a, b, _ := tab.Pair("p", "q", 2); a != 0.5 || b != 0.7 {
		t.Errorf("the measured table changed: %v, %v", a, b)
	}
}

// Profiling noise U(1 − ε, 1 + ε) moves entries both ways, about half of
// them down: over the Blox table's measured entries (80) at ε = 0.5,
// between 35% and 65% end below the truth, and the mean factor is 1
// within 0.1 (a standard error of 0.03).
func TestNoiseIsTwoSided(t *testing.T) {
	truth, err := pack.Blox()
	if err != nil {
		t.Fatal(err)
	}
	got := noisy(truth, 0.5, 7)
	down, n, sum := 0, 0, 0.0
	for c := range truth.T {
		for i := range truth.T[c] {
			for j, v := range truth.T[c][i] {
				if v <= 0 {
					continue
				}
				n++
				sum += got.T[c][i][j] / v
				if got.T[c][i][j] < v {
					down++
				}
			}
		}
	}
	if n < 50 || down*100 < 35*n || down*100 > 65*n || math.Abs(sum/float64(n)-1) > 0.1 {
		t.Errorf("%d of %d entries moved down, mean factor %.3f; want about half and 1", down, n, sum/float64(n))
	}
}

// pair_rates perf normalises each job's rate while sharing by its own
// rate alone. A CNN job runs 2 iterations a second alone (3,600 in
// 1,800 s), a LeNet job 1. Under memshare a CNN beside a LeNet is slowed
// by 0.13 + κ·p_CNN·p_LeNet = 0.13 + 0.05·0.3 = 0.145 and the LeNet by
// 0.06 + 0.3·0.05 = 0.075, so their normalised throughputs are 1/1.145
// and 1/1.075, whatever their solo rates.
func TestPerfPairRatesUseOwnSoloRate(t *testing.T) {
	var jobs []workload.Job
	for i := range 6 {
		jobs = append(jobs, workload.Job{Name: "c" + string(rune('a'+i)), Model: "CNN", GPUs: 1, DurationS: 1800, Iterations: 3600},
			workload.Job{Name: "l" + string(rune('a'+i)), Model: "LeNet", GPUs: 1, DurationS: 1200, Iterations: 1200})
	}
	p := DefaultParams()
	p.PairRates = "perf"
	pl, _ := runMemShare(t, p, jobs)
	cnn, lenet := &workload.Job{Model: "CNN", GPUs: 1}, &workload.Job{Model: "LeNet", GPUs: 1}
	ta, tb, ok := pl.perf.Pair(packKey(cnn), packKey(lenet), 1)
	if !ok || math.Abs(ta-1/1.145) > 1e-12 || math.Abs(tb-1/1.075) > 1e-12 {
		t.Errorf("CNN beside LeNet: %v, %v (%v); want 1/1.145, 1/1.075", ta, tb, ok)
	}
}

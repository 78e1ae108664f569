package perf

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of the papers' formulas in the perf models, with
// asymmetric inputs: every expected number is worked out in the comments,
// never by the function under test.

// Eq. 6's contention count on an asymmetric placement, three servers of
// four GPUs:
//
//	server 0: A A C D      A split over servers 0 and 1; C, D whole
//	server 1: A B F F      B split over servers 1 and 2; F whole (2 GPUs)
//	server 2: B E E –      E whole (2 GPUs)
//
// p_A: server 0 holds one split job (A; C and D sit on one server and do
// not count), server 1 two (A, B): p = max(1, 2) = 2. p_B: server 1 two,
// server 2 one (B): 2. Counting whole jobs too would give A 3 on both of
// its servers; summing over servers 1 + 2 = 3; counting a job once across
// servers (A on server 0, then only B on server 1) would give 1.
func TestContentionCountAsymmetric(t *testing.T) {
	c := rarCluster(t, 4, 4, 4)
	st := &placed{c: c,
		jobs: []workload.Job{{ID: 0, GPUs: 3}, {ID: 1, GPUs: 2}, {ID: 2, GPUs: 1}, {ID: 3, GPUs: 1}, {ID: 4, GPUs: 2}, {ID: 5, GPUs: 2}},
		at: [][]cluster.GPUID{
			gpusOn(c, 0, 0, 0, 1, 1, 0), // A
			gpusOn(c, 1, 1, 2, 0),       // B
			gpusOn(c, 0, 2),             // C
			gpusOn(c, 0, 3),             // D
			gpusOn(c, 2, 1, 2, 2),       // E
			gpusOn(c, 1, 2, 1, 3),       // F
		}}
	for id, want := range []struct{ n, p int }{{2, 2}, {2, 2}, {1, 0}, {1, 0}, {1, 0}, {1, 0}} {
		if n, p := Contention(st, workload.JobID(id)); n != want.n || p != want.p {
			t.Errorf("job %c: n = %d, p = %d; want n = %d, p = %d", "ABCDEF"[id], n, p, want.n, want.p)
		}
	}
	// Four split jobs on one server: k = ξ1·p = 0.5·4 = 2 for each, f =
	// 2 + 0.5·(2 − 1) = 2.5 (contended: β 0.15, α 0.5, ξ 0.5, R 10). A job
	// of τ0 = 100/4000 = 0.025 on 2 servers runs at τ0 + 0.15·τ0·(2.5 −
	// 0.1 + 0.5·1) = 0.025·1.435 = 0.035875 s per iteration.
	c = rarCluster(t, 4, 4)
	st = &placed{c: c, jobs: make([]workload.Job, 4), at: make([][]cluster.GPUID, 4)}
	for i := range 4 {
		st.jobs[i] = workload.Job{ID: workload.JobID(i), GPUs: 2, DurationS: 100, Iterations: 4000}
		st.at[i] = gpusOn(c, 0, i, 1, i)
	}
	m := NewRAR(RARParams{Preset: "contended", Shape: "linear", Progress: "exact"})
	for i := range 4 {
		if n, p := Contention(st, workload.JobID(i)); n != 2 || p != 4 {
			t.Fatalf("job %d: n %d p %d, want 2 and 4", i, n, p)
		}
		if got := 1 / m.Rate(st, workload.JobID(i)); math.Abs(got-0.035875) > 1e-15 {
			t.Errorf("job %d: τ = %v, want 0.035875", i, got)
		}
	}
	// Floor progress: ⌊1/0.035875⌋ = ⌊27.87⌋ = 27 iterations per slot.
	fl := NewRAR(RARParams{Preset: "contended", Shape: "linear", Progress: "floor"})
	if got := fl.Rate(st, 0); got != 27 {
		t.Errorf("floor progress: %v iterations per slot, want 27", got)
	}
}

// Capacity-mode collisions count a peak only when the GPU overflows, with
// every worker's base memory: a LeNet (γ 0.08, δ 0.16, p 0.3) beside a
// ResNet, a VGG19 and an AlexNet holds bases 0.08 + 0.25 + 0.25 + 0.15 =
// 0.73 and its own extra 0.16 (0.89), so any other peak overflows:
// penalty 0.3·(1 − 0.8·0.9·0.95) = 0.0948, plus interference 0.15 + 0.20 +
// 0.12. A CNN (γ 0.08, δ 0.12, p 0.05) beside a LeNet at 0.16 + 0.12 +
// 0.16 = 0.44 never overflows: 0.13 only, where paper mode adds
// 0.05·0.3.
func TestCapacityCollisionsByHand(t *testing.T) {
	p := *DefaultMemShareParams()
	p.Collision = "capacity"
	m, err := NewMemShare(p)
	if err != nil {
		t.Fatal(err)
	}
	paper := defaultMemShare(t)
	lenet, cnn := typ(t, m, "LeNet"), typ(t, m, "CNN")
	co := []int{typ(t, m, "ResNet"), typ(t, m, "VGG19"), typ(t, m, "AlexNet")}
	if got, want := m.WorkerSlowdown(lenet, co), 0.47+0.3*(1-0.8*0.9*0.95); math.Abs(got-want) > 1e-12 {
		t.Errorf("LeNet beside ResNet, VGG19, AlexNet: %v, want %v", got, want)
	}
	if got := m.WorkerSlowdown(cnn, []int{lenet}); math.Abs(got-0.13) > 1e-12 {
		t.Errorf("capacity: CNN beside LeNet %v, want 0.13", got)
	}
	if got := paper.WorkerSlowdown(cnn, []int{lenet}); math.Abs(got-(0.13+0.05*0.3)) > 1e-12 {
		t.Errorf("paper: CNN beside LeNet %v, want 0.145", got)
	}
}

// τ with three different p (0.1, 0.2, 0.5): no peak 0.9·0.8·0.5 = 0.36,
// exactly one 0.1·0.8·0.5 + 0.9·0.2·0.5 + 0.9·0.8·0.5 = 0.49, τ = 0.15.
// Eq. 3 with the largest extra first: bases 0.6 + 0.3.
func TestCollisionAndMemoryAsymmetric(t *testing.T) {
	if got := CollisionProb([]float64{0.1, 0.2, 0.5}); math.Abs(got-0.15) > 1e-12 {
		t.Errorf("τ(0.1, 0.2, 0.5) = %v, want 0.15", got)
	}
	if got := OpportunisticMemory([]float64{0.1, 0.2, 0.3}, []float64{0.3, 0.05, 0.2}); math.Abs(got-0.9) > 1e-12 {
		t.Errorf("Σγ + max δ = %v, want 0.6 + 0.3", got)
	}
	if got := Compose("product", []float64{0.1, 0.2, 0.05}); math.Abs(got-(1.1*1.2*1.05-1)) > 1e-12 {
		t.Errorf("product = %v, want 1.1·1.2·1.05 − 1 = 0.386", got)
	}
}

// The engine's memory is the base γ of a worker, in GB of the 11 GB GPU:
// a ResNet worker holds 0.25·11 = 2.75 GB.
func TestMemShareMemoryGB(t *testing.T) {
	m := defaultMemShare(t)
	if got := m.MemoryGB(&workload.Job{Model: "ResNet"}, 0); math.Abs(got-2.75) > 1e-12 {
		t.Errorf("ResNet holds %v GB, want 2.75", got)
	}
}

// A heavy phase multiplies the interference a job causes by 1 + Δ: with
// phases started at 1,000 per hour every 60 s phase is heavy (the chance
// of a calm one is e^(−1000/60) ≈ 6·10⁻⁸), so Δ = 0.5 makes a VGG19 cost a
// LeNet 0.20·1.5 = 0.30.
func TestDriftFactorByHand(t *testing.T) {
	p := *DefaultMemShareParams()
	p.Drift = Drift{Delta: 0.5, PhaseS: 60, RatePerHour: 1000, Seed: 3}
	m, err := NewMemShare(p)
	if err != nil {
		t.Fatal(err)
	}
	for j := range 5 {
		for _, at := range []float64{0, 59, 60, 3600} {
			if got := m.DriftOf(workload.JobID(j), at); got != 1.5 {
				t.Fatalf("job %d at %v s: drift %v, want 1.5", j, at, got)
			}
		}
	}
	st := &msState{jobs: []workload.Job{{ID: 0, Model: "LeNet"}, {ID: 1, Model: "VGG19"}}}
	if got := m.ObservedInterference(st, 0, []workload.JobID{1}); math.Abs(got-0.30) > 1e-12 {
		t.Errorf("LeNet beside a heavy VGG19: %v, want 0.30", got)
	}
}

// The noisy oracle adds U(−2ε, 2ε) to each cell, so on cells far from the
// floor its mean absolute error is ε: 1,600 cells of 1.0 with ε = 0.07
// give 0.07 within a few standard errors (0.14/√12/40 ≈ 0.001), and no
// cell moves by more than 0.14.
func TestNoisyMatrixErrorIsEpsilon(t *testing.T) {
	truth := make([][]float64, 40)
	for i := range truth {
		truth[i] = make([]float64, 40)
		for k := range truth[i] {
			truth[i][k] = 1
		}
	}
	got := NoisyMatrix(truth, 0.07, false, 11)
	sum, most := 0.0, 0.0
	for i := range got {
		for k := range got[i] {
			e := math.Abs(got[i][k] - 1)
			sum += e
			most = math.Max(most, e)
		}
	}
	if mae := sum / 1600; math.Abs(mae-0.07) > 0.005 || most > 0.14+1e-12 || most < 0.13 {
		t.Errorf("mean absolute error %v (want 0.07 ± 0.005), largest %v (want just under 0.14)", mae, most)
	}
}

// The predictor's pair features by hand (spec 002 §4.2: [f_a, f_b,
// f_a ⊙ f_b], each column standardised to mean 0 and deviation 1 over the
// cells). Two types: f_0 = [α 0.1, γ 0.2, δ 0.3, p 0.4, one-hot 1, 0],
// f_1 = [0.3, 0.2, 0.1, 0.4, 0, 1]; cells (victim, aggressor) in the
// order (0,0), (0,1), (1,0), (1,1). γ and p are the same for both, so
// their columns (and their products) are constant and become 0. The
// victim's α over the cells is 0.1, 0.1, 0.3, 0.3: mean 0.2, deviation
// 0.1, so −1, −1, 1, 1; the aggressor's is 0.1, 0.3, 0.1, 0.3. The
// product of the α's is 0.01, 0.03, 0.03, 0.09: mean 0.04, deviations
// −0.03, −0.01, −0.01, 0.05, standard deviation √(0.0036/4) = 0.03, so
// −1, −1/3, −1/3, 5/3; of the δ's 0.09, 0.03, 0.03, 0.01: 5/3, −1/3, −1/3,
// −1. The one-hot products are 1 in one cell of four: mean 1/4, deviation
// √3/4, so √3 there and −1/√3 elsewhere.
func TestPairFeaturesByHand(t *testing.T) {
	types := []workload.MemShareType{{Alpha: 0.1, Gamma: 0.2, Delta: 0.3, P: 0.4}, {Alpha: 0.3, Gamma: 0.2, Delta: 0.1, P: 0.4}}
	r3, s3 := math.Sqrt(3), 1/math.Sqrt(3)
	//       victim f_a: α  γ  δ  p  oh0 oh1 | aggressor f_b | products
	want := [][]float64{
		{-1, 0, 1, 0, 1, -1 /**/, -1, 0, 1, 0, 1, -1 /**/, -1, 0, 5.0 / 3, 0, r3, -s3},
		{-1, 0, 1, 0, 1, -1 /**/, 1, 0, -1, 0, -1, 1 /**/, -1.0 / 3, 0, -1.0 / 3, 0, -s3, -s3},
		{1, 0, -1, 0, -1, 1 /**/, -1, 0, 1, 0, 1, -1 /**/, -1.0 / 3, 0, -1.0 / 3, 0, -s3, -s3},
		{1, 0, -1, 0, -1, 1 /**/, 1, 0, -1, 0, -1, 1 /**/, 5.0 / 3, 0, -1, 0, -s3, r3},
	}
	got := pairFeatures(types)
	for c := range want {
		if len(got[c]) != len(want[c]) {
			t.Fatalf("cell %d: %d features, want %d", c, len(got[c]), len(want[c]))
		}
		for x := range want[c] {
			if math.Abs(got[c][x]-want[c][x]) > 1e-9 {
				t.Errorf("cell %d feature %d: %v, want %v", c, x, got[c][x], want[c][x])
			}
		}
	}
}

// Leave-one-out by hand with 1-nearest-neighbour on x = 0, 1, 3 with
// y = 0, 2, 3: leaving 0 out, its nearest is 1 (predicts 2, error 2);
// leaving 1 out, 0 (error 2); leaving 3 out, 1 (predicts 2, error 1):
// mean absolute error 5/3 (signed errors would nearly cancel: −1/3).
// k = 2 at x = 2 averages the two nearest, 1 and 3: (2 + 3)/2.
func TestLeaveOneOutByHand(t *testing.T) {
	xs, ys := [][]float64{{0}, {1}, {3}}, []float64{0, 2, 3}
	nn := func(k int) func([][]float64, []float64) predictor {
		return func(tx [][]float64, ty []float64) predictor { return knnPredictor{tx, ty, k} }
	}
	if got := looMAE(xs, ys, nn(1)); math.Abs(got-5.0/3) > 1e-12 {
		t.Errorf("LOO of 1-NN = %v, want 5/3", got)
	}
	if got := (knnPredictor{xs, ys, 2}).predict([]float64{2}); got != 2.5 {
		t.Errorf("2-NN at 2 = %v, want 2.5", got)
	}
}

// Ridge with a tiny penalty on a line whose inputs are not centred: y =
// 1 + 2x over x = 1, 2, 3 has intercept 1 (the fit centres x at 2, so the
// intercept is ȳ − w·x̄ = 5 − 2·2).
func TestRidgeInterceptByHand(t *testing.T) {
	m := fitRidge([][]float64{{1}, {2}, {3}}, []float64{3, 5, 7}, 1e-12)
	if got := m.predict([]float64{0}); math.Abs(got-1) > 1e-6 {
		t.Errorf("predict(0) = %v, want 1", got)
	}
}

// AIP keeps the regressor of lowest leave-one-out error (ties: the
// earlier of linear, knn, svr, tree), and the report's MAE is the mean
// absolute error over all n² cells of the matrix it returns.
func TestPredictPicksTheLowestErrorAndReportsTheMAE(t *testing.T) {
	truth, types := workload.OJPPMatrix, workload.OJPPTypes[:6]
	for seed := uint64(1); seed <= 4; seed++ {
		pred, rep, err := PredictMatrix(truth, types, PredictOptions{Model: "best", Measured: 0.5, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		loo := map[string]float64{"linear": rep.LinearLOO, "knn": rep.KNNLOO, "svr": rep.SVRLOO, "tree": rep.TreeLOO}
		best := "linear"
		for _, name := range []string{"knn", "svr", "tree"} {
			if loo[name] < loo[best] {
				best = name
			}
		}
		if rep.Chosen != best {
			t.Errorf("seed %d: chose %s, but %s has the lowest leave-one-out error (%v)", seed, rep.Chosen, best, loo)
		}
		sum := 0.0
		for i := range truth {
			for k := range truth[i] {
				sum += math.Abs(pred[i][k] - truth[i][k])
			}
		}
		if want := sum / 36; math.Abs(rep.MAE-want) > 1e-12 {
			t.Errorf("seed %d: MAE %v, want the mean over 36 cells %v", seed, rep.MAE, want)
		}
	}
}

// Eq. 7 with a batch the sub-batch does not divide: B = 24 at b = 5 takes
// s = ⌈24/5⌉ = 5 micro-batches of 24/5 = 4.8 samples. With α = 0.05 s,
// β = 0.01 s/sample, t_comm = 0.1 s and δ = 2: compute 0.05 + 0.048 =
// 0.098 s each, four alone and the last overlapped with the all-reduce,
// 4·0.098 + √(0.098² + 0.1²) = 0.392 + 0.140014 = 0.532014 s.
func TestAccumulationRoundsUp(t *testing.T) {
	for _, c := range []struct{ b, sub, want int }{{24, 5, 5}, {24, 12, 2}, {24, 7, 4}, {32, 16, 2}, {32, 32, 1}, {32, 40, 1}, {32, 0, 1}} {
		if got := Accumulation(c.b, c.sub); got != c.want {
			t.Errorf("Accumulation(%d, %d) = %d, want %d", c.b, c.sub, got, c.want)
		}
	}
	m := &ModelProfile{AlphaCompS: 0.05, BetaCompS: 0.01}
	want := 4*0.098 + math.Sqrt(0.098*0.098+0.01)
	if got := IterTime(m, 24, Accumulation(24, 5), 0.1, 2); math.Abs(got-want) > 1e-12 {
		t.Errorf("t_iter(24, s = 5) = %v, want %v", got, want)
	}
}

// The time-share interference model (spec 000 §5.5, generalised to n
// co-runners): share σ = min(u, max(1/(n+1), 1 − others)), slowdown
// (1 + ε·n)·max(1, u/σ). With ε = 0.1:
//
//	u 0.7 beside 0.2:        σ = min(0.7, max(0.5, 0.8)) = 0.7, ξ = 1.1
//	u 0.9 beside 0.6:        σ = min(0.9, max(0.5, 0.4)) = 0.5, ξ = 1.1·1.8 = 1.98
//	u 0.6 beside 0.6 + 0.6:  σ = min(0.6, max(1/3, −0.2)) = 1/3, ξ = 1.2·1.8 = 2.16
func TestTimeShareXiByHand(t *testing.T) {
	for _, c := range []struct {
		u, others float64
		n         int
		want      float64
	}{{0.7, 0.2, 1, 1.1}, {0.9, 0.6, 1, 1.98}, {0.6, 1.2, 2, 2.16}, {0.6, 0, 0, 1}} {
		if got := TimeShareXi(c.u, c.others, c.n, 0.1); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ξ(u %v, others %v, n %d) = %v, want %v", c.u, c.others, c.n, got, c.want)
		}
	}
}

// A synchronous job runs at the pace of its most slowed GPU (spec 000
// §1.5): a 2-GPU cifar10 job shares GPU 0 with a bert job (ξ 1.5) and
// GPU 1 with an ncf job (ξ 1.2), so it runs 1.5 times slower than alone,
// whichever GPU comes first; the bert job, beside cifar10 (ξ 2), 2 times.
func TestSlowdownIsTheWorstGPU(t *testing.T) {
	a := newAnalytic(t, func(p *AnalyticParams) {
		p.Xi = XiParams{Model: "matrix", Models: []string{"cifar10", "bert", "ncf"},
			Matrix: [][]float64{{1, 1.5, 1.2}, {2, 1, 1}, {1.1, 1, 1}}}
	})
	for _, gpus := range [][]cluster.GPUID{{0, 1}, {1, 0}} {
		s := &shared{c: a.c, jobs: []workload.Job{{Model: "cifar10", GPUs: 2}, {Model: "bert", GPUs: 1}, {Model: "ncf", GPUs: 1}},
			at: [][]cluster.GPUID{gpus, {0}, {1}}, sub: []int{0, 0, 0}}
		alone := &shared{c: a.c, jobs: s.jobs, at: [][]cluster.GPUID{gpus, {4}, {5}}, sub: s.sub}
		if got := a.Rate(alone, 0) / a.Rate(s, 0); math.Abs(got-1.5) > 1e-12 {
			t.Errorf("GPUs %v: cifar10 %v times slower, want 1.5", gpus, got)
		}
		if got := a.Rate(alone, 1) / a.Rate(s, 1); math.Abs(got-2) > 1e-12 {
			t.Errorf("GPUs %v: bert %v times slower, want 2", gpus, got)
		}
	}
}

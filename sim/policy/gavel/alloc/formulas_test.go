package alloc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// Gavel's policies on instances small enough to solve by hand (spec 001
// §2): every expected allocation and objective is worked out in the
// comments.

// handOracle is a throughput table: solo throughputs by model and type
// index, pair throughputs by ordered model pair (the first model's, the
// second's, per type).
type handOracle struct {
	types []string
	solo  map[string][]float64
	pairs map[[2]string][2][]float64
}

func (h *handOracle) Rate(perf.State, workload.JobID) float64 { return 0 }
func (h *handOracle) Coupling() perf.Coupling                 { return perf.Independent }
func (h *handOracle) idx(t string) int {
	for i, x := range h.types {
		if x == t {
			return i
		}
	}
	return -1
}
func (h *handOracle) SoloThroughput(j *workload.Job, t string) float64 {
	return h.solo[j.Model][h.idx(t)]
}
func (h *handOracle) PairThroughput(a, b *workload.Job, t string) (float64, float64) {
	i := h.idx(t)
	if v, ok := h.pairs[[2]string{a.Model, b.Model}]; ok {
		return v[0][i], v[1][i]
	}
	if v, ok := h.pairs[[2]string{b.Model, a.Model}]; ok {
		return v[1][i], v[0][i]
	}
	return 0, 0
}

// handJob is one job of a hand instance.
type handJob struct {
	model            string
	sf               int
	rem              float64
	elapsed, isoTime float64
}

func handInputOf(h *handOracle, count []float64, jobs ...handJob) *plan.Input {
	in := &plan.Input{Types: h.types, Count: count, Rand: rand.New(rand.NewPCG(1, 2)), Oracle: plan.Oracle{Model: h}}
	for i, hj := range jobs {
		j := &workload.Job{ID: workload.JobID(i), Name: hj.model + string(rune('0'+i)), Model: hj.model, GPUs: max(1, hj.sf), Iterations: hj.rem}
		thr := make([]float64, len(h.types))
		for k, t := range h.types {
			thr[k] = h.SoloThroughput(j, t)
		}
		in.Jobs = append(in.Jobs, plan.Job{ID: j.ID, Job: j, SF: j.GPUs, Weight: 1, Thr: thr, Rem: hj.rem, Elapsed: hj.elapsed, IsoTime: hj.isoTime})
	}
	return in
}

func rowsOf(t *testing.T, a plan.Allocator, in *plan.Input) (*plan.Allocation, [][]float64) {
	t.Helper()
	al, err := a.Allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	return al, al.PerJob(len(in.Jobs), len(in.Types))
}

func closeTo(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Minimum makespan on one GPU: A has 100 iterations left, B 300, both at
// 1 it/s. The longest remaining time max(100/x_A, 300/x_B) with
// x_A + x_B ≤ 1 is least when both are equal: x_B = 3·x_A, so x_A = 0.25,
// x_B = 0.75 and both finish in 400 s. (Asking the same throughput of
// both would split the GPU in halves: 600 s.)
func TestMakespanByHand(t *testing.T) {
	h := &handOracle{types: []string{"V100"}, solo: map[string][]float64{"a": {1}, "b": {1}}}
	in := handInputOf(h, []float64{1}, handJob{model: "a", rem: 100}, handJob{model: "b", rem: 300})
	al, x := rowsOf(t, &PerJob{Objective: "makespan", Aware: true, LPs: &LPs{}}, in)
	if !closeTo(al.Objective, 400, 1e-6) || !closeTo(x[0][0], 0.25, 1e-9) || !closeTo(x[1][0], 0.75, 1e-9) {
		t.Errorf("makespan %v with X = %v; want 400 s with (0.25, 0.75)", al.Objective, x)
	}
}

// Finish-time fairness (spec 001 §2.3) on one GPU, both jobs at 1 it/s,
// 100 iterations left each. With 2 active jobs X^isolated is half the GPU
// (0.5 it/s). A just arrived (t = 0, t^iso = 0): D_A = 0 + 100/0.5 = 200,
// ρ_A = (100/x_A)/200. B has waited 100 s and would have run 50 s alone:
// D_B = 50 + 200 = 250, ρ_B = (100 + 100/x_B)/250. The worst ρ is least
// when they are equal with x_A + x_B = 1: 0.5/a = 0.4 + 0.4/(1 − a), i.e.
// 0.4a² − 1.3a + 0.5 = 0, a = (1.3 − √0.89)/0.8 ≈ 0.44575 and
// ρ = 0.5/a ≈ 1.12170.
func TestFTFByHand(t *testing.T) {
	h := &handOracle{types: []string{"V100"}, solo: map[string][]float64{"a": {1}, "b": {1}}}
	in := handInputOf(h, []float64{1}, handJob{model: "a", rem: 100}, handJob{model: "b", rem: 100, elapsed: 100, isoTime: 50})
	a := (1.3 - math.Sqrt(0.89)) / 0.8
	rho := 0.5 / a
	al, x := rowsOf(t, &PerJob{Objective: "ftf", Aware: true, LPs: &LPs{}}, in)
	if al.Objective < rho-1e-9 || al.Objective > rho*(1+2e-4) || !closeTo(x[0][0], a, 2e-3) || !closeTo(x[1][0], 1-a, 2e-3) {
		t.Errorf("ρ = %v with X = %v; want %.5f with (%.4f, %.4f)", al.Objective, x, rho, a, 1-a)
	}
}

// Maximum total throughput on one V100 and one K80: A runs at (10, 1), B
// at (4, 3). A on the V100 and B on the K80 give 10 + 3 = 13 (the other
// way 4 + 1 = 5). Normalised by each job's best type: 10/10 + 3/4 = 1.75.
func TestThroughputByHand(t *testing.T) {
	h := &handOracle{types: []string{"V100", "K80"}, solo: map[string][]float64{"a": {10, 1}, "b": {4, 3}}}
	for _, c := range []struct {
		normalized bool
		want       float64
	}{{false, 13}, {true, 1.75}} {
		in := handInputOf(h, []float64{1, 1}, handJob{model: "a", rem: 1e6}, handJob{model: "b", rem: 1e6})
		al, x := rowsOf(t, &PerJob{Objective: "throughput", Normalized: c.normalized, Aware: true, LPs: &LPs{}}, in)
		if !closeTo(al.Objective, c.want, 1e-9) || !closeTo(x[0][0], 1, 1e-9) || !closeTo(x[1][1], 1, 1e-9) {
			t.Errorf("normalised %v: objective %v, X = %v; want %v with A on the V100, B on the K80", c.normalized, al.Objective, x, c.want)
		}
	}
}

// Minimum cost in the reference's form, Σ (T_mj / c_j)·X_mj, with a V100
// at $3 and a K80 at $1 an hour: A runs at (6, 3), B at (3, 1.5), so per
// dollar A earns (2, 3) and B (1, 1.5). A on the K80 and B on the V100
// give 3 + 1 = 4; the other way 2 + 1.5 = 3.5.
func TestCostByHand(t *testing.T) {
	h := &handOracle{types: []string{"V100", "K80"}, solo: map[string][]float64{"a": {6, 3}, "b": {3, 1.5}}}
	in := handInputOf(h, []float64{1, 1}, handJob{model: "a", rem: 1e6}, handJob{model: "b", rem: 1e6})
	al, x := rowsOf(t, &PerJob{Objective: "cost", Aware: true, Prices: []float64{3, 1}, LPs: &LPs{}}, in)
	if !closeTo(al.Objective, 4, 1e-9) || !closeTo(x[0][1], 1, 1e-9) || !closeTo(x[1][0], 1, 1e-9) {
		t.Errorf("objective %v, X = %v; want 4 with A on the K80 and B on the V100", al.Objective, x)
	}
}

// The paper's cost ratio Σ thr / Σ c·sf·X on two V100s at $1: A uses 2
// GPUs for 7 it/s (3.5 per dollar), B one for 4 it/s (4 per dollar). The
// ratio is best running B alone: 4.
func TestCostRatioByHand(t *testing.T) {
	h := &handOracle{types: []string{"V100"}, solo: map[string][]float64{"a": {7}, "b": {4}}}
	in := handInputOf(h, []float64{2}, handJob{model: "a", sf: 2, rem: 1e6}, handJob{model: "b", sf: 1, rem: 1e6})
	al, x := rowsOf(t, &PerJob{Objective: "cost", Ratio: true, Aware: true, Prices: []float64{1}, LPs: &LPs{}}, in)
	if !closeTo(al.Objective, 4, 1e-9) || x[0][0] > 1e-9 || x[1][0] <= 0 {
		t.Errorf("ratio %v, X = %v; want 4 with B alone", al.Objective, x)
	}
}

// Aware FIFO (spec 001 §2.4, the reference's greedy): jobs in order take
// their fastest type with room and the first job that fits nowhere blocks
// the rest.
func TestFIFOByHand(t *testing.T) {
	h := &handOracle{types: []string{"V100", "K80"}, solo: map[string][]float64{"a": {1, 2}, "b": {3, 1}, "c": {1, 1}}}
	in := handInputOf(h, []float64{1, 1}, handJob{model: "a", rem: 1}, handJob{model: "b", rem: 1}, handJob{model: "c", rem: 1})
	_, x := rowsOf(t, &FIFO{Aware: true}, in)
	if x[0][1] != 1 || x[1][0] != 1 || x[2][0]+x[2][1] != 0 {
		t.Errorf("X = %v; want A on the K80 (its fastest), B on the V100, C waiting", x)
	}
	// Two V100s: A (1 GPU) runs, B (2 GPUs) cannot, and C (1 GPU), which
	// would fit, waits behind it.
	h = &handOracle{types: []string{"V100"}, solo: map[string][]float64{"a": {1}, "b": {1}, "c": {1}}}
	in = handInputOf(h, []float64{2}, handJob{model: "a", sf: 1, rem: 1}, handJob{model: "b", sf: 2, rem: 1}, handJob{model: "c", sf: 1, rem: 1})
	_, x = rowsOf(t, &FIFO{Aware: true}, in)
	if x[0][0] != 1 || x[1][0] != 0 || x[2][0] != 0 {
		t.Errorf("X = %v; want A running, B and C waiting (head-of-line)", x)
	}
	// Shortest job first orders by remaining time on the fastest type: A
	// needs 100 s (100 iterations at 1/s), B, which arrived first, 500 s
	// (50 at 0.1/s); on one GPU A runs.
	h = &handOracle{types: []string{"V100"}, solo: map[string][]float64{"a": {1}, "b": {0.1}}}
	in = handInputOf(h, []float64{1}, handJob{model: "b", rem: 50}, handJob{model: "a", rem: 100})
	_, x = rowsOf(t, &FIFO{Aware: true, SJF: true}, in)
	if x[0][0] != 0 || x[1][0] != 1 {
		t.Errorf("SJF: X = %v; want the 100 s job (second) running", x)
	}
}

// FIFO with space sharing packs a queued job beside a placed one when
// α + β = T_pair(a)/T_a + T_pair(q)/T_q exceeds the threshold (1.5): A
// runs alone at 10 it/s, the queued Q at 2; sharing at (9, 1.5) gives
// 0.9 + 0.75 = 1.65 (packed), at (6, 1.5) 0.6 + 0.75 = 1.35 (not; with
// the two solo throughputs swapped it would be 3 + 0.15).
func TestFIFOPackingByHand(t *testing.T) {
	for _, c := range []struct {
		ta   float64
		pack bool
	}{{9, true}, {6, false}} {
		h := &handOracle{types: []string{"V100"}, solo: map[string][]float64{"a": {10}, "q": {2}},
			pairs: map[[2]string][2][]float64{{"a", "q"}: {{c.ta}, {1.5}}}}
		in := handInputOf(h, []float64{1}, handJob{model: "a", rem: 1}, handJob{model: "q", rem: 1})
		al, err := (&FIFO{Aware: true, SpaceSharing: true, PackThreshold: 1.5}).Allocate(in)
		if err != nil {
			t.Fatal(err)
		}
		packed := false
		for _, cb := range al.Combos {
			packed = packed || (cb.A == 0 && cb.B == 1)
		}
		if packed != c.pack {
			t.Errorf("pair at (%v, 1.5): packed %v, want %v", c.ta, packed, c.pack)
		}
	}
}

// A pair becomes a candidate of the LP only when α + β passes the
// threshold, each job's pair throughput over its own solo throughput.
// Maximising the normalised throughput on one V100, a pair that is a
// candidate beats either job alone (1):
//
//	solo A, B   pair A, B   α + β                  swapped: A's over B's solo
//	10, 2       9, 1.5      0.9 + 0.75 = 1.65       4.5 + 0.15 = 4.65
//	10, 2       6, 1.5      0.6 + 0.75 = 1.35 (no)  3 + 0.15 = 3.15
//	3, 5        3.6, 2      1.2 + 0.4 = 1.6         0.72 + 0.667 = 1.387 (no)
func TestPairCandidatesByHand(t *testing.T) {
	for _, c := range []struct {
		sa, sb, ta, tb float64
		want           float64
	}{{10, 2, 9, 1.5, 1.65}, {10, 2, 6, 1.5, 1}, {3, 5, 3.6, 2, 1.6}} {
		h := &handOracle{types: []string{"V100"}, solo: map[string][]float64{"a": {c.sa}, "b": {c.sb}},
			pairs: map[[2]string][2][]float64{{"a", "b"}: {{c.ta}, {c.tb}}}}
		in := handInputOf(h, []float64{1}, handJob{model: "a", rem: 1e6}, handJob{model: "b", rem: 1e6})
		al, _ := rowsOf(t, &PerJob{Objective: "throughput", Normalized: true, Aware: true, SpaceSharing: true, PairThreshold: 1.5, PairCandidates: 4, LPs: &LPs{}}, in)
		if !closeTo(al.Objective, c.want, 1e-9) {
			t.Errorf("solo (%v, %v), pair (%v, %v): objective %v, want %v", c.sa, c.sb, c.ta, c.tb, al.Objective, c.want)
		}
	}
}

package alloc

import (
	"testing"

	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// handCluster is 2 V100 and 2 K80; every job of handJobs runs twice as
// fast on a V100 as on a K80, so a V100 hour is worth two K80 hours to
// everyone and the max-min optimum's normalised throughputs are unique.
func handInput(models map[string][]float64, jobs []workload.Job) *plan.Input {
	f := &fakeThr{types: []string{"V100", "K80"}, solo: models}
	return input(f, []float64{2, 2}, jobs)
}

// Aware LAS with mixed scale factors and weights, worked by hand (spec 001
// §2.1: maximise min_m (sf_m/w_m)·ñ_m). T = (2r, r) on (V100, K80), so
// thr(X^equal) = (2r·2 + r·2)/4 = 1.5r and ñ_m = e_m/1.5 with
// e_m = 2·x_mV + x_mK, the job's time in K80-equivalents. The capacity
// rows add up to Σ_m sf_m·e_m ≤ 2·2 + 2 = 6 K80-equivalents.
//
//	job  sf  w   at the optimum (sf/w)·ñ = t for all: ñ = t·w/sf
//	A    1   1   ñ = t
//	B    2   1   ñ = t/2
//	C    1   2   ñ = 2t
//	D    2   3   ñ = 3t/2
//
// Σ sf·e = 1.5·t·Σ w = 1.5·t·7 ≤ 6 gives t* = 4/7, every job at its level
// (the cluster is full, nobody can rise without someone falling), so
// ñ = (4/7, 2/7, 8/7, 6/7). Each e = 1.5ñ ≤ 2 fits in one job's time
// (C: e = 12/7, e.g. 5/7 on V100 and 2/7 on K80), so the levels are
// reachable. With the coefficient 1/w instead of sf/w the levels would be
// ñ = t·w with Σ sf·e = 1.5·t·Σ sf·w = 1.5·t·11 ≤ 6: t = 4/11 and
// ñ = (4/11, 4/11, 8/11, 12/11), which this test rejects.
func TestLASHandComputedMixedScaleAndWeights(t *testing.T) {
	models := map[string][]float64{"a": {8, 4}, "b": {6, 3}, "c": {2, 1}, "d": {10, 5}}
	jobs := []workload.Job{
		{Model: "a", GPUs: 1, Weight: 1, Iterations: 1e6},
		{Model: "b", GPUs: 2, Weight: 1, Iterations: 1e6},
		{Model: "c", GPUs: 1, Weight: 2, Iterations: 1e6},
		{Model: "d", GPUs: 2, Weight: 3, Iterations: 1e6},
	}
	want := []float64{4.0 / 7, 2.0 / 7, 8.0 / 7, 6.0 / 7}
	for _, tie := range []bool{false, true} {
		in := handInput(models, jobs)
		al, err := (&Fair{Aware: true, TieBreak: tie, PairThreshold: 1, LPs: &LPs{}}).Allocate(in)
		if err != nil {
			t.Fatal(err)
		}
		if !approx.Equal(al.Objective, 4.0/7, 1e-7, 1e-7) {
			t.Errorf("tie-break %v: max-min level %.6f, want 4/7 = %.6f", tie, al.Objective, 4.0/7)
		}
		rows := al.PerJob(len(jobs), 2)
		for m, p := range in.Jobs {
			got := plan.Dot(p.Thr, rows[m]) / in.ThrEqual(p.Thr)
			if !approx.Equal(got, want[m], 1e-7, 1e-7) {
				t.Errorf("tie-break %v: job %s (sf %d, w %g): ñ = %.6f, want %.6f", tie, p.Job.Model, p.SF, p.Weight, got, want[m])
			}
		}
	}
}

// Agnostic LAS (spec 001 §2.1 and its 2026-11-23 ruling), worked by hand:
// every T is 1 on every type, so ñ_m is the total share s_m and the LP is
// maximise min_m (sf_m/w_m)·s_m with Σ_m sf_m·s_m ≤ 4 GPUs.
//
//	job  sf  w  can run on
//	A    1   1  V100, K80
//	E    1   1  V100, K80
//	B    2   1  V100, K80
//	F    2   2  V100 only (0 on K80)
//
// s_m = t·w_m/sf_m and Σ sf·s = t·Σ w = 5t ≤ 4: t* = 4/5, below every
// job's cap sf/w (1, 1, 2, 1), so the cluster is full and the totals are
// unique: s = (4/5, 4/5, 2/5, 4/5).
//
// ref-compat spreads each total over every type by its GPUs (2 and 2):
// A, E (0.4, 0.4), B (0.2, 0.2), F (0.4, 0.4); F's 0.4 on K80 is lost,
// as in the reference. A plan with 1 only on feasible types would give F
// nothing on K80.
//
// clean spreads over usable types: F's even share is (0.8, 0), the others
// as above, but then V100 holds 0.4 + 0.4 + 2·0.2 + 2·0.8 = 2.8 > 2. The
// LP maximises u with every share ≥ u·even: V100 needs 2.8u ≤ 2, so
// u = 5/7; A, E get 0.4u = 2/7 on V100 and the rest, 18/35, on K80; B gets
// 1/7 and 9/35; F gets 0.8u = 4/7 on V100, and its remaining 8/35 can only
// go to K80 (V100 is full with everyone at their least share).
func TestAgnosticLASHandComputed(t *testing.T) {
	models := map[string][]float64{"a": {8, 4}, "e": {6, 3}, "b": {2, 1}, "f": {10, 0}}
	jobs := []workload.Job{
		{Model: "a", GPUs: 1, Weight: 1, Iterations: 1e6},
		{Model: "e", GPUs: 1, Weight: 1, Iterations: 1e6},
		{Model: "b", GPUs: 2, Weight: 1, Iterations: 1e6},
		{Model: "f", GPUs: 2, Weight: 2, Iterations: 1e6},
	}
	cases := []struct {
		clean bool
		want  [][]float64
	}{
		{false, [][]float64{{0.4, 0.4}, {0.4, 0.4}, {0.2, 0.2}, {0.4, 0.4}}},
		{true, [][]float64{{2.0 / 7, 18.0 / 35}, {2.0 / 7, 18.0 / 35}, {1.0 / 7, 9.0 / 35}, {4.0 / 7, 8.0 / 35}}},
	}
	for _, c := range cases {
		for _, wf := range []bool{false, true} {
			in := handInput(models, jobs)
			al, err := (&Fair{Clean: c.clean, WaterFilling: wf, PairThreshold: 1, LPs: &LPs{}}).Allocate(in)
			if err != nil {
				t.Fatal(err)
			}
			rows := al.PerJob(len(jobs), 2)
			for m := range rows {
				for j := range rows[m] {
					if !approx.Equal(rows[m][j], c.want[m][j], 1e-7, 1e-7) {
						t.Errorf("clean %v, water filling %v: job %s gets %v, want %v", c.clean, wf, in.Jobs[m].Job.Model, rows[m], c.want[m])
						break
					}
				}
			}
		}
	}
}

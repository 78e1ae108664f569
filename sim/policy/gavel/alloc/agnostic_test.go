package alloc

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// The agnostic plan of spec 001 §2.1's ruling: weight-5 single-GPU jobs
// among weight-1 jobs on a full cluster are spread over every type in
// proportion to its GPUs (ref-compat), or evenly over the types they can
// run on (clean), never piled onto one type as a simplex vertex does.
func TestAgnosticPlanSpreadsWeightedJobs(t *testing.T) {
	f := &fakeThr{types: []string{"V100", "P100", "K80"}, solo: map[string][]float64{
		"a": {3, 2, 1}, "b": {5, 4, 2}, "c": {4, 3, 0}}}
	var jobs []workload.Job
	for i := 0; i < 30; i++ {
		j := workload.Job{Model: []string{"a", "b", "c"}[i%3], Iterations: 1e6}
		if i%5 == 0 {
			j.Weight = 5
		}
		jobs = append(jobs, j)
	}
	for _, clean := range []bool{false, true} {
		for _, wf := range []bool{false, true} {
			in := input(f, []float64{4, 2, 6}, jobs)
			al, err := (&Fair{Clean: clean, WaterFilling: wf, PairThreshold: 1, LPs: &LPs{}}).Allocate(in)
			if err != nil {
				t.Fatal(err)
			}
			rows := al.PerJob(len(in.Jobs), 3)
			for m, p := range in.Jobs {
				if p.Weight != 5 {
					continue
				}
				total := plan.Sum(rows[m])
				if total < 0.1 {
					t.Fatalf("clean=%v wf=%v: weight-5 job %d gets only %v", clean, wf, m, total)
				}
				for j := range rows[m] {
					if rows[m][j] > 0.7*total {
						t.Errorf("clean=%v wf=%v: weight-5 job %d is piled onto %s: %v", clean, wf, m, in.Types[j], rows[m])
					}
					if clean {
						// Even over usable types where that fits; here the
						// K80-less jobs overfill V100 and P100, so the LP
						// keeps every usable share at least half its even share.
						even := total * in.Count[j] / usable(&p, in.Count)
						if p.Thr[j] > 0 && rows[m][j] < 0.5*even {
							t.Errorf("clean=%v wf=%v: weight-5 job %d (%s) gets %v, less than half its even %v on %s", clean, wf, m, p.Job.Model, rows[m], even, in.Types[j])
						}
						continue
					}
					if want := total * in.Count[j] / 12; !approx.Equal(rows[m][j], want, 1e-6, 1e-6) {
						t.Errorf("weight-5 job %d (%s) gets %v, want %v on %s (every type, by its GPUs)", m, p.Job.Model, rows[m], want, in.Types[j])
					}
				}
			}
		}
	}
}

// TestAgnosticPlanOnlyRead: the agnostic plan's rows are one vector that
// every job shares, so nothing that reads a plan may write it: max-min
// fairness's classes and LP, and water filling (weighted, with entities),
// leave it all ones, and allocate what they allocate from rows of their
// own.
func TestAgnosticPlanOnlyRead(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 3))
	for round := range 40 {
		in := randomInput(r, round%2 == 0)
		planned := agnosticPlan(in)
		if len(planned) > 1 && &planned[0][0] != &planned[1][0] {
			t.Fatal("the agnostic plan's rows are not one vector")
		}
		n := len(in.Jobs)
		w := make([]float64, n)
		for i, p := range in.Jobs {
			w[i] = p.Weight
		}
		lps := &LPs{}
		cls := classify(in, planned, w, make([]float64, n), make([]bool, n), false, false, lps.classNames())
		f := buildFair(lps.reusable("las", "las"), in, cls, false, 1)
		if _, err := lps.solve("las", f.p, nil); err != nil {
			t.Fatal(err)
		}
		for _, a := range []*Fair{{WaterFilling: true, LPs: lps}, {Entities: []plan.Entity{{Name: "a", Weight: 1}, {Name: "b", Weight: 2}}, LPs: &LPs{}}} {
			if _, err := a.waterFilling(in, planned); err != nil {
				t.Fatal(err)
			}
		}
		for i, row := range planned {
			for j, v := range row {
				if v != 1 {
					t.Fatalf("round %d: job %d's planned throughput on type %d became %v", round, i, j, v)
				}
			}
		}
	}
}

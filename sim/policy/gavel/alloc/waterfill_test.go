package alloc

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
	"github.com/schedlab/schedlab/sim/workload"
)

// oneByOne is the bottleneck test stated directly: class c is stuck when
// an LP that raises c alone, every other class held at its level, cannot
// raise it.
func oneByOne(t *testing.T, a *Fair, in *plan.Input, cls []*fclass) []bool {
	stuck := make([]bool, len(cls))
	for c, cl := range cls {
		if cl.w <= 0 || cl.frozen {
			continue
		}
		test := make([]*fclass, len(cls))
		for d, other := range cls {
			cp := *other
			cp.w = 0
			test[d] = &cp
		}
		f := buildFair(lp.New("one"), in, test, a.SpaceSharing && a.Aware, a.PairThreshold)
		f.p.SetObj(f.t, 0)
		f.p.SetColBounds(f.t, 0, 0)
		u := f.p.AddCol("u", 0, 1e-4, 1)
		row := f.p.AddRow("gain", math.Inf(-1), -cl.level)
		f.p.Set(row, u, 1)
		f.addNorm(row, c, -1)
		sol, err := lp.Solve(f.p, lp.Options{})
		if err != nil || sol.Status != lp.Optimal {
			t.Fatalf("one-class test LP: %v %v", err, sol)
		}
		stuck[c] = sol.X[u] <= 1e-9*math.Max(1, cl.level)
	}
	return stuck
}

// maxRise is how far class c's ñ can rise above its level while every
// other class keeps its level: the most any proof of its freedom may
// claim.
func maxRise(t *testing.T, a *Fair, in *plan.Input, cls []*fclass, c int) float64 {
	test := make([]*fclass, len(cls))
	for d, other := range cls {
		cp := *other
		cp.w = 0
		test[d] = &cp
	}
	f := buildFair(lp.New("rise"), in, test, a.SpaceSharing && a.Aware, a.PairThreshold)
	f.p.SetObj(f.t, 0)
	f.p.SetColBounds(f.t, 0, 0)
	f.addObjNorm(c, 1)
	sol, err := lp.Solve(f.p, lp.Options{})
	if err != nil || sol.Status != lp.Optimal {
		t.Fatalf("max-rise LP: %v %v", err, sol)
	}
	return sol.Objective - cls[c].level
}

// The joint bottleneck test (a few LPs over all classes) finds the same
// bottlenecked classes as one LP per class, at every step of water filling
// on random inputs, with and without what the step's LP proves; and every
// class the step's LP proves stuck or free is.
func TestBottleneckedSameAsOneByOne(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	steps, stuckSeen, freeSeen := 0, 0, 0
	proofs := map[verdict]int{}
	bySpare, bySwap := 0, 0
	for trial := 0; trial < 160; trial++ {
		in := randomInput(r, false)
		a := &Fair{Aware: trial%2 == 0, SpaceSharing: trial%4 == 0, WaterFilling: true, PairThreshold: 1, LPs: &LPs{}}
		planned := a.plan(in)
		n := len(in.Jobs)
		level, frozen := make([]float64, n), make([]bool, n)
		for step := 0; step <= n; step++ {
			w := a.reweight(in, frozen)
			if !rising(w, frozen) {
				break
			}
			cls := classify(in, planned, w, level, frozen, a.SpaceSharing, true, nil)
			f := buildFair(lp.New("waterfill"), in, cls, a.SpaceSharing && a.Aware, a.PairThreshold)
			sol, err := lp.Solve(f.p, lp.Options{Duals: true})
			if err != nil || sol.Status != lp.Optimal {
				t.Fatalf("trial %d step %d: max-min LP: %v %v", trial, step, err, sol)
			}
			for _, cl := range cls {
				if cl.w > 0 && !cl.frozen {
					cl.level += sol.X[f.t] * cl.w / float64(cl.sf)
					for _, m := range cl.members {
						level[m] = cl.level
					}
				}
			}
			// Just below the levels every rising class is free, but the
			// room is shared: one LP raising all at once leaves some at 0.
			below := make([]*fclass, len(cls))
			for c, cl := range cls {
				cp := *cl
				cp.level *= 1 - 1e-6
				below[c] = &cp
			}
			got, err := a.bottlenecked(in, below, nil)
			if err != nil {
				t.Fatal(err)
			}
			for c, cl := range below {
				if got[c] {
					t.Fatalf("trial %d step %d class %s: bottlenecked just below its level", trial, step, cl.key)
				}
			}
			got, err = a.bottlenecked(in, cls, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := oneByOne(t, a, in, cls)
			known := certified(f, sol)
			withProofs, err := a.bottlenecked(in, cls, known)
			if err != nil {
				t.Fatal(err)
			}
			for c, cl := range cls {
				if cl.w <= 0 || cl.frozen {
					continue
				}
				proofs[known[c]]++
				// Each way to prove a class free, alone: the allocation's
				// idle devices and time, and a trade of devices.
				tol := freeProof * math.Max(1, cl.level)
				r := newRoom(f, sol)
				if g, most := math.Max(r.spareGain(c), r.swapGain(c)), maxRise(t, a, in, cls, c); g > most+1e-9*math.Max(1, cl.level) {
					t.Fatalf("trial %d step %d class %s: a proof claims a rise of %g, at most %g is possible", trial, step, cl.key, g, most)
				}
				if r.spareGain(c) > tol {
					bySpare++
					if want[c] {
						t.Fatalf("trial %d step %d class %s: idle devices prove it free, one LP per class says bottlenecked", trial, step, cl.key)
					}
				}
				if r.swapGain(c) > tol {
					bySwap++
					if want[c] {
						t.Fatalf("trial %d step %d class %s: a trade proves it free, one LP per class says bottlenecked", trial, step, cl.key)
					}
				}
				if known[c] == provenStuck && !want[c] || known[c] == provenFree && want[c] {
					t.Fatalf("trial %d step %d class %s: proven %v, one LP per class says bottlenecked %v", trial, step, cl.key, known[c], want[c])
				}
				if withProofs[c] != want[c] {
					t.Fatalf("trial %d step %d class %s: with proofs bottlenecked %v, one LP per class says %v", trial, step, cl.key, withProofs[c], want[c])
				}
			}
			steps++
			froze := false
			for c, cl := range cls {
				if got[c] != want[c] {
					t.Fatalf("trial %d step %d class %s: bottlenecked %v, one LP per class says %v", trial, step, cl.key, got[c], want[c])
				}
				if cl.w > 0 && !cl.frozen {
					if want[c] {
						stuckSeen++
						froze = true
						for _, m := range cl.members {
							frozen[m] = true
						}
					} else {
						freeSeen++
					}
				}
			}
			if !froze {
				break
			}
		}
	}
	// The comparison means something only if both answers came up often.
	if stuckSeen < 50 || freeSeen < 50 || proofs[provenStuck] < 20 || proofs[provenFree] < 10 || bySpare < 10 || bySwap < 10 {
		t.Errorf("%d steps: %d stuck and %d free classes compared; proofs %v, %d free by idle devices, %d by a trade", steps, stuckSeen, freeSeen, proofs, bySpare, bySwap)
	}
	t.Logf("%d steps: %d stuck and %d free classes compared; %d proven stuck, %d proven free (%d by idle devices, %d by a trade), %d left to the LPs",
		steps, stuckSeen, freeSeen, proofs[provenStuck], proofs[provenFree], bySpare, bySwap, proofs[undecided])
}

// Two entities' jobs of the same type are two classes in water filling;
// their LP columns and rows must not share names (warm starts match by
// name, and an MPS file needs them distinct).
func TestWaterFillingNamesUnique(t *testing.T) {
	f := &fakeThr{types: []string{"V100", "P100"}, solo: map[string][]float64{"m": {4, 2}}}
	var jobs []workload.Job
	for _, e := range []string{"a", "b", "a", "b"} {
		jobs = append(jobs, workload.Job{Model: "m", Iterations: 1000, Weight: 1, Entity: e})
	}
	in := input(f, []float64{2, 2}, jobs)
	a := &Fair{Aware: true, WaterFilling: true, PairThreshold: 1, LPs: &LPs{},
		Entities: []plan.Entity{{Name: "a", Weight: 1, Policy: "fairness"}, {Name: "b", Weight: 2, Policy: "fairness"}}}
	var seen int
	a.LPs.DumpLPs(func(p *lp.Problem) {
		seen++
		names := map[string]bool{}
		for j := range p.NumCols() {
			if names[p.ColName(j)] {
				t.Fatalf("LP %s: two columns named %s", p.Name, p.ColName(j))
			}
			names[p.ColName(j)] = true
		}
		for i := range p.NumRows() {
			if names[p.RowName(i)] {
				t.Fatalf("LP %s: two rows named %s", p.Name, p.RowName(i))
			}
			names[p.RowName(i)] = true
		}
	})
	if _, err := a.Allocate(in); err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("no LP solved")
	}
}

// TestWaterFillingReusesProblems: water filling on problems whose
// storage it reuses (LPs.reusable) gives bit for bit what it gives on new
// problems (an LPs with a dump sink never reuses), over a sliding window
// of recomputes that warm-start from each other, and the reuse keeps it
// to two problems of each family.
func TestWaterFillingReusesProblems(t *testing.T) {
	for _, aware := range []bool{true, false} {
		inputs := fillingWindow(40, 25)
		reuse := &Fair{Aware: aware, WaterFilling: true, PairThreshold: 1, LPs: &LPs{}}
		fresh := &Fair{Aware: aware, WaterFilling: true, PairThreshold: 1, LPs: &LPs{}}
		seen := map[*lp.Problem]bool{}
		fresh.LPs.DumpLPs(func(p *lp.Problem) { seen[p] = true })
		for k, in := range inputs {
			got, err1 := reuse.Allocate(in)
			want, err2 := fresh.Allocate(in)
			if err1 != nil || err2 != nil {
				t.Fatalf("aware %v, recompute %d: %v, %v", aware, k, err1, err2)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("aware %v, recompute %d: reused problems give %+v, new ones %+v", aware, k, got, want)
			}
		}
		if reuse.LPs.Solved != fresh.LPs.Solved || len(reuse.LPs.handedOut) > 4 || len(seen) < 20 {
			t.Errorf("aware %v: %d LPs solved reusing %d problems, %d solved on %d new problems",
				aware, reuse.LPs.Solved, len(reuse.LPs.handedOut), fresh.LPs.Solved, len(seen))
		}
	}
}

package alloc

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// symmetrize groups jobs by a key of their floats; keyFloat
// must be equal exactly when the floats' shortest decimal forms are (the
// key the groups were first made with), so that the same jobs are grouped.
func TestKeyFloatSameGroupsAsDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(math.Float64bits(math.NaN()) ^ 1), math.Nextafter(1, 2), 0.1, 0.1 + 0.2, 0.3,
		math.SmallestNonzeroFloat64, math.MaxFloat64}
	for range 2000 {
		vals = append(vals, rng.Float64()*1e6, float64(rng.IntN(8)), math.Float64frombits(rng.Uint64()))
	}
	keys, decs := make([]uint64, len(vals)), make([]string, len(vals))
	for i, v := range vals {
		keys[i], decs[i] = keyFloat(v), strconv.FormatFloat(v, 'g', -1, 64)
	}
	for i := range vals {
		for j := i; j < len(vals); j++ {
			if (keys[i] == keys[j]) != (decs[i] == decs[j]) {
				t.Fatalf("%v (%q) and %v (%q): same key %v, same decimal %v",
					vals[i], decs[i], vals[j], decs[j], keys[i] == keys[j], decs[i] == decs[j])
			}
		}
	}
}

// symmetrizeByDecimal is symmetrize as it was first written: groups keyed
// by the floats' shortest decimal forms, in the order of their first job.
func symmetrizeByDecimal(in *plan.Input, planned [][]float64, al *plan.Allocation) [][]float64 {
	paired := map[int]bool{}
	for _, c := range al.Combos {
		if c.B >= 0 {
			paired[c.A], paired[c.B] = true, true
		}
	}
	rows := soloRows(in, al)
	index := map[string]int{}
	var groups [][]int
	for i, p := range in.Jobs {
		if paired[i] {
			continue
		}
		key := ""
		for _, v := range append([]float64{float64(p.SF), p.Weight, p.Rem, p.Elapsed, p.IsoTime, p.Job.DeadlineS}, planned[i]...) {
			key += strconv.FormatFloat(v, 'g', -1, 64) + ","
		}
		g, ok := index[key]
		if !ok {
			g = len(groups)
			index[key] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	for _, g := range groups {
		avg := make([]float64, len(in.Types))
		for _, i := range g {
			for j, v := range rows[i] {
				avg[j] += v / float64(len(g))
			}
		}
		for _, i := range g {
			copy(rows[i], avg)
		}
	}
	return rows
}

// TestSymmetrizeSameAsByDecimal: symmetrize (jobs sorted by a key of
// their floats' bits) averages the same groups of jobs, with the same
// sums in the same order, as grouping by decimal strings did: on random
// inputs where many jobs repeat each other's values (NaN and -0
// included), not next to each other, some of them in pairs.
func TestSymmetrizeSameAsByDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	pick := func(vals ...float64) float64 { return vals[r.IntN(len(vals))] }
	grouped := 0
	for trial := range 500 {
		types := 1 + r.IntN(2)
		in := &plan.Input{Types: make([]string, types)}
		var planned [][]float64
		var al plan.Allocation
		for i := range 2 + r.IntN(20) {
			in.Jobs = append(in.Jobs, plan.Job{SF: 1 + r.IntN(2), Weight: pick(1, 2),
				Rem: pick(10, 20), Elapsed: pick(0, math.Copysign(0, -1), 5), IsoTime: pick(1, math.NaN()),
				Job: &workload.Job{DeadlineS: pick(0, 0, 100)}})
			row := make([]float64, types)
			for j := range row {
				row[j] = pick(1, 2)
			}
			planned = append(planned, row)
			x := make([]float64, types)
			for j := range x {
				x[j] = r.Float64() // sums whose rounding depends on their order
			}
			al.Combos = append(al.Combos, plan.Combo{A: i, B: -1, X: x})
		}
		if n := len(in.Jobs); r.IntN(2) == 0 && n >= 3 {
			x := make([]float64, types)
			x[0] = 0.125
			al.Combos = append(al.Combos, plan.Combo{A: n - 1, B: r.IntN(n - 1), X: x})
		}
		want := symmetrizeByDecimal(in, planned, &al)
		symmetrize(in, planned, &al)
		got := soloRows(in, &al)
		for i := range want {
			for j := range want[i] {
				if math.Float64bits(got[i][j]) != math.Float64bits(want[i][j]) {
					t.Fatalf("trial %d, job %d, type %d: %v, want %v", trial, i, j, got[i][j], want[i][j])
				}
			}
		}
		for i := range want {
			if slices.ContainsFunc(want[:i], func(w []float64) bool { return slices.Equal(w, want[i]) }) {
				grouped++
			}
		}
	}
	if grouped < 50 {
		t.Errorf("only %d jobs averaged with another: the inputs do not test the groups", grouped)
	}
}

// TestFlatRowsSeparate: the rows share one block, yet appending to one
// (as a caller may to a combo's X) does not write into the next.
func TestFlatRowsSeparate(t *testing.T) {
	rows := flatRows(3, 2)
	rows[0] = append(rows[0], 7)
	rows[1][0] = 1
	if len(rows) != 3 || len(rows[2]) != 2 || rows[1][0] != 1 || rows[1][1] != 0 || rows[0][2] != 7 {
		t.Errorf("rows %v", rows)
	}
}

// soloRows is each job's row of al without its pairs' shares: what
// symmetrize averages over identical jobs.
func soloRows(in *plan.Input, al *plan.Allocation) [][]float64 {
	rows := al.PerJob(len(in.Jobs), len(in.Types))
	for _, c := range al.Combos {
		if c.B >= 0 {
			for j, v := range c.X {
				rows[c.A][j] -= v
				rows[c.B][j] -= v
			}
		}
	}
	return rows
}

package pack

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of packing's weights (spec 003 §3): every value
// below is worked out from the table by hand, never by Score or Pair.

// asym is a pair table whose two sides differ, so that a swap of host
// and guest, or a side counted twice, changes a weight. T[i][k] is model
// i's normalised throughput beside model k.
//
//	pair   host side   guest side   combined
//	a–x      1.2         0.7          1.9
//	a–y      0.3         0.75         1.05
//	b–x      0.25        0.8          1.05
//	b–y      no edge (not measured)
func asym() *Table {
	ms := []string{"a", "b", "x", "y"}
	T := make([][]float64, 4)
	for i := range T {
		T[i] = make([]float64, 4)
	}
	set := func(h, g int, host, guest float64) { T[h][g], T[g][h] = host, guest }
	set(0, 2, 1.2, 0.7)
	set(0, 3, 0.3, 0.75)
	set(1, 2, 0.25, 0.8)
	return &Table{GPUs: []int{1}, Models: ms, T: [][][]float64{T}}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// A pair's weight is host side + guest side (0.3 + 0.75 = 1.05 for a–y,
// not 0.3 + 0.3 or 0.75 + 0.75), the gain objective takes 1 off it, and
// Pair hands the two sides back in host, guest order.
func TestScoreIsHostPlusGuest(t *testing.T) {
	tab := asym()
	a, y := Job{ID: 0, Model: "a", GPUs: 1}, Job{ID: 3, Model: "y", GPUs: 1}
	if ta, tb, ok := tab.Pair("a", "y", 1); !ok || ta != 0.3 || tb != 0.75 {
		t.Errorf("Pair(a, y) = %v, %v, %v; want 0.3 (a beside y), 0.75 (y beside a)", ta, tb, ok)
	}
	if ta, tb, ok := tab.Pair("y", "a", 1); !ok || ta != 0.75 || tb != 0.3 {
		t.Errorf("Pair(y, a) = %v, %v, %v; want 0.75, 0.3", ta, tb, ok)
	}
	c, s, ok := Score(a, y, tab, Options{Objective: Combined})
	if !ok || !near(c, 1.05) || !near(s, 1.05) {
		t.Errorf("combined a–y: %v, score %v, %v; want 1.05, 1.05", c, s, ok)
	}
	c, s, ok = Score(a, y, tab, Options{Objective: Gain})
	if !ok || !near(c, 1.05) || !near(s, 0.05) {
		t.Errorf("gain a–y: %v, score %v, %v; want 1.05, 0.05", c, s, ok)
	}
	// min_combined compares the combined throughput, not the gain: 1.05
	// passes a threshold of 1 under both objectives, and fails 1.1.
	for _, obj := range []Objective{Combined, Gain} {
		if _, _, ok := Score(a, y, tab, Options{Objective: obj, MinCombined: 1}); !ok {
			t.Errorf("%s, min_combined 1: a–y (1.05) lost its edge", obj)
		}
		if _, _, ok := Score(a, y, tab, Options{Objective: obj, MinCombined: 1.1}); ok {
			t.Errorf("%s, min_combined 1.1: a–y (1.05) kept its edge", obj)
		}
	}
	// No edge between different GPU counts, with a NoPack job, or for a
	// pair never measured.
	if _, _, ok := Score(a, Job{Model: "y", GPUs: 2}, tab, Options{}); ok {
		t.Error("a 1-GPU and a 2-GPU job share")
	}
	if _, _, ok := Score(a, Job{Model: "y", GPUs: 1, NoPack: true}, tab, Options{}); ok {
		t.Error("a job kept out of packing shares")
	}
	if _, _, ok := Score(Job{Model: "b", GPUs: 1}, y, tab, Options{}); ok {
		t.Error("the unmeasured pair b–y shares")
	}
}

// Spec 003 §3.5 on the asymmetric table: "combined" picks a–y and b–x
// (1.05 + 1.05 = 2.1 > 1.9); "gain" picks a–x alone (0.9 > 0.05 + 0.05).
// Counting the host's side twice would make a–x worth 2.4 against
// 0.6 + 0.5, and the combined objective would pick it instead.
func TestObjectivesAsymmetric(t *testing.T) {
	placed := []Job{{ID: 0, Model: "a", GPUs: 1}, {ID: 1, Model: "b", GPUs: 1}}
	pending := []Job{{ID: 2, Model: "x", GPUs: 1}, {ID: 3, Model: "y", GPUs: 1}}
	for _, sv := range []Solver{Exact, Hungarian, Buckets} {
		got, err := Match(placed, pending, asym(), Options{Objective: Combined, Solver: sv})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Host != 0 || got[0].Guest != 3 || got[1].Host != 1 || got[1].Guest != 2 ||
			!near(got[0].Combined, 1.05) || !near(got[1].Combined, 1.05) {
			t.Errorf("%s, combined: %+v; want a+y (1.05) and b+x (1.05)", sv, got)
		}
		got, _ = Match(placed, pending, asym(), Options{Objective: Gain, Solver: sv})
		if len(got) != 1 || got[0].Host != 0 || got[0].Guest != 2 || !near(got[0].Combined, 1.9) || !near(got[0].Score, 0.9) {
			t.Errorf("%s, gain: %+v; want a+x alone (combined 1.9, gain 0.9)", sv, got)
		}
	}
}

// Among equally good guests the one earlier in priority order wins
// (spec 003 §3.4's tie-break), with both solvers that fold it in: host a
// combines to 1.05 with y (0.3 + 0.75) and with a new model z
// (0.45 + 0.6), so whichever of the two comes first in the pending order
// is taken.
func TestTieGoesToTheEarlierGuest(t *testing.T) {
	tab := asym()
	tab.Models = append(tab.Models, "z")
	T := tab.T[0]
	for i := range T {
		T[i] = append(T[i], 0)
	}
	T = append(T, make([]float64, 5))
	T[0][4], T[4][0] = 0.45, 0.6
	tab.T[0] = T
	placed := []Job{{ID: 0, Model: "a", GPUs: 1}}
	for _, order := range [][]Job{
		{{ID: 10, Model: "y", GPUs: 1}, {ID: 11, Model: "z", GPUs: 1}},
		{{ID: 11, Model: "z", GPUs: 1}, {ID: 10, Model: "y", GPUs: 1}},
	} {
		for _, sv := range []Solver{Exact, Hungarian} {
			got, err := Match(placed, order, tab, Options{Objective: Combined, Solver: sv})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Guest != order[0].ID {
				t.Errorf("%s, guests %d then %d: %+v; want the first, %d", sv, order[0].ID, order[1].ID, got, order[0].ID)
			}
		}
	}
}

// A GPU count that was not measured uses the largest measured count at
// or below it (spec 003 §4.2's linear model); a measured count uses its
// own row.
func TestPairUsesTheLargestMeasuredCountAtOrBelow(t *testing.T) {
	row := func(v float64) [][]float64 { return [][]float64{{v, v}, {v, v}} }
	tab := &Table{GPUs: []int{1, 4}, Models: []string{"p", "q"}, T: [][][]float64{row(0.6), row(0.9)}}
	for _, c := range []struct {
		k    int
		want float64
		ok   bool
	}{{0, 0, false}, {1, 0.6, true}, {2, 0.6, true}, {3, 0.6, true}, {4, 0.9, true}, {8, 0.9, true}} {
		a, _, ok := tab.Pair("p", "q", c.k)
		if ok != c.ok || a != c.want {
			t.Errorf("k = %d: %v, %v; want %v, %v", c.k, a, ok, c.want, c.ok)
		}
	}
}

// The Blox rule (spec 003 §5.6 [ours]) on hand-made rows: a value is the
// mean over measured rows, out-of-memory rows (0) left out; a language
// model takes, per partner, the split with the highest mean combined
// throughput; a model beside itself gets the mean of its two sides.
func TestBuildAveragesAndPicksTheBestSplit(t *testing.T) {
	tab := build([]meas{
		{a: "A", b: "B", strategy: "NA", gpus: 1, ta: 0.6, tb: 0.8},
		{a: "A", b: "B", strategy: "NA", gpus: 1, ta: 0.4, tb: 0.6},
		{a: "A", b: "B", strategy: "NA", gpus: 1, ta: 0, tb: 0}, // out of memory
		{a: "A", b: "A", strategy: "NA", gpus: 1, ta: 0.3, tb: 0.5},
		{a: "L", b: "A", strategy: "s1", gpus: 2, ta: 0.5, tb: 0.6}, // 1.1
		{a: "L", b: "A", strategy: "s2", gpus: 2, ta: 0.7, tb: 0.6}, // 1.3, the best
		{a: "L", b: "A", strategy: "s3", gpus: 2, ta: 0.4, tb: 0.5}, // 0.9
	})
	if got := tab.GPUs; len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("GPU counts %v, want [1 2]", got)
	}
	check := func(a, b string, k int, wa, wb float64) {
		t.Helper()
		ga, gb, ok := tab.Pair(a, b, k)
		if !ok || math.Abs(ga-wa) > 1e-12 || math.Abs(gb-wb) > 1e-12 {
			t.Errorf("%s beside %s at %d GPUs: %v, %v (ok %v); want %v, %v", a, b, k, ga, gb, ok, wa, wb)
		}
	}
	check("A", "B", 1, 0.5, 0.7) // (0.6+0.4)/2, (0.8+0.6)/2: the OOM row left out
	check("B", "A", 1, 0.7, 0.5)
	check("A", "A", 1, 0.4, 0.4) // (0.3+0.5)/2 on both sides
	check("L", "A", 2, 0.7, 0.6) // split s2
	check("A", "L", 2, 0.6, 0.7)
}

// The engine's interference matrix is the inverse of the normalised
// throughput, row model beside column model, at least 1, and 100 for a
// pair never measured: on the asymmetric table, a beside x runs at 1.2
// (slowdown 1, not below), x beside a at 0.7 (1/0.7 = 1.4286), y beside
// a at 0.75 (1.3333).
func TestInterferenceIsTheInverse(t *testing.T) {
	spec := asym().Interference(1)
	idx := map[string]int{}
	for i, m := range spec.Models {
		idx[m] = i
	}
	for _, c := range []struct {
		row, col string
		want     float64
	}{{"a", "x", 1}, {"x", "a", 1.4286}, {"y", "a", 1.3333}, {"a", "y", 3.3333}, {"b", "x", 4}, {"x", "b", 1.25}, {"b", "y", 100}} {
		if got := spec.Matrix[idx[c.row]][idx[c.col]]; got != c.want {
			t.Errorf("slowdown of %s beside %s: %v, want %v", c.row, c.col, got, c.want)
		}
	}
}

// A pair that a host and a guest of the same model form counts the
// model's own value on both sides.
func TestMatchOnIdenticalModels(t *testing.T) {
	tab := build([]meas{{a: "A", b: "A", strategy: "NA", gpus: 1, ta: 0.3, tb: 0.5}})
	got, err := Match([]Job{{ID: 0, Model: "A", GPUs: 1}}, []Job{{ID: workload.JobID(1), Model: "A", GPUs: 1}}, tab, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !near(got[0].Combined, 0.8) {
		t.Errorf("%+v, want one pair of combined 0.4 + 0.4 = 0.8", got)
	}
}

package alloc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// diffProblems reports the first difference between two problems as the
// solver sees them, bit for bit: names, sense, bounds, objective and
// every column's coefficients in order.
func diffProblems(a, b *lp.Problem) error {
	if a.Name != b.Name || a.Maximize != b.Maximize || a.NumCols() != b.NumCols() || a.NumRows() != b.NumRows() || a.NumNonzeros() != b.NumNonzeros() {
		return fmt.Errorf("%s %d×%d (%d nonzeros) against %s %d×%d (%d)", a.Name, a.NumRows(), a.NumCols(), a.NumNonzeros(), b.Name, b.NumRows(), b.NumCols(), b.NumNonzeros())
	}
	bits := math.Float64bits
	same := func(x, y float64) bool { return bits(x) == bits(y) }
	for j := range a.NumCols() {
		alo, ahi := a.ColBounds(j)
		blo, bhi := b.ColBounds(j)
		ar, av := a.Col(j)
		br, bv := b.Col(j)
		if a.ColName(j) != b.ColName(j) || !same(a.Obj(j), b.Obj(j)) || !same(alo, blo) || !same(ahi, bhi) || !slices.Equal(ar, br) || !slices.EqualFunc(av, bv, same) {
			return fmt.Errorf("column %d: %s %v [%v, %v] %v %v against %s %v [%v, %v] %v %v", j,
				a.ColName(j), a.Obj(j), alo, ahi, ar, av, b.ColName(j), b.Obj(j), blo, bhi, br, bv)
		}
	}
	for i := range a.NumRows() {
		alo, ahi := a.RowBounds(i)
		blo, bhi := b.RowBounds(i)
		if a.RowName(i) != b.RowName(i) || !same(alo, blo) || !same(ahi, bhi) {
			return fmt.Errorf("row %d: %s [%v, %v] against %s [%v, %v]", i, a.RowName(i), alo, ahi, b.RowName(i), blo, bhi)
		}
	}
	return nil
}

// TestStepLPAsBuildFair: over water-filling steps of random recomputes
// (classes rising by a few steps' worth and freezing at random, so that
// frozen classes of one type meet at one level and merge), every step's
// LP made from the recompute's template (stepLP.fill) is buildFair's LP
// for its classes, bit for bit, and with the same row indexes; when the
// classes have merged, fill declines and a new template serves. The warm
// start by the template's rows (stepLP.warm) is RemapUnique's, and the
// last step's classes kept (stepClasses.again) are the classes step finds.
func TestStepLPAsBuildFair(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	lps := &LPs{}
	filled, merged, rowsLeft, warmed, again := 0, 0, 0, 0, 0
	for trial := 0; trial < 120; trial++ {
		in := randomInput(r, false)
		a := &Fair{Aware: trial%2 == 0, SpaceSharing: trial%4 == 0}
		pairs := a.SpaceSharing && a.Aware
		planned := a.plan(in)
		sc := newStepClasses(in, planned, a.SpaceSharing)
		n := len(in.Jobs)
		w, level, frozen := make([]float64, n), make([]float64, n), make([]bool, n)
		var steps *stepLP
		var prev *lp.Problem // the step before's LP
		var prevCls []*fclass
		for step := 0; step < 8; step++ {
			for i := range in.Jobs {
				w[i] = 0
				if !frozen[i] {
					w[i] = in.Jobs[i].Weight
				}
			}
			kept := prevCls != nil && sc.again(prevCls, w, level, frozen)
			cls := sc.step(w, level, frozen, lps.classNames(), lps.nextStamp())
			if kept {
				again++
				if len(prevCls) != len(cls) {
					t.Fatalf("trial %d step %d: %d classes kept, step finds %d", trial, step, len(prevCls), len(cls))
				}
				for c, g := range prevCls {
					x := cls[c]
					if g.key != x.key || g.sf != x.sf || math.Float64bits(g.w) != math.Float64bits(x.w) || math.Float64bits(g.level) != math.Float64bits(x.level) ||
						g.frozen != x.frozen || math.Float64bits(g.eq) != math.Float64bits(x.eq) || !slices.Equal(g.thr, x.thr) || !slices.Equal(g.members, x.members) {
						t.Fatalf("trial %d step %d class %d: kept %s %v %v %v %v, step finds %s %v %v %v %v", trial, step, c,
							g.key, g.w, g.level, g.frozen, g.members, x.key, x.w, x.level, x.frozen, x.members)
					}
				}
			} else if prevCls != nil && len(cls) == len(prevCls) {
				t.Fatalf("trial %d step %d: classes not kept, but step finds as many (%d)", trial, step, len(cls))
			}
			prevCls = cls
			var got *fairLP
			fromTemplate := steps != nil
			if steps != nil {
				if got = steps.fill(lp.New("waterfill"), cls, sc.of); got == nil {
					merged++
					fromTemplate = false
				}
			}
			if got == nil {
				steps = newStepLP(lp.New("waterfill"), in, cls, sc.of, pairs, 1)
				if got = steps.fill(lp.New("waterfill"), cls, sc.of); got == nil {
					t.Fatalf("trial %d step %d: a template does not fill its own classes", trial, step)
				}
			} else {
				filled++
				// Classes the template does not have: two jobs of two
				// classes swapped, or a class named otherwise.
				if i, k := 0, slices.IndexFunc(sc.of, func(c int) bool { return c != sc.of[0] }); k > 0 {
					of := slices.Clone(sc.of)
					of[i], of[k] = of[k], of[i]
					if steps.fill(lp.New("waterfill"), cls, of) != nil {
						t.Fatalf("trial %d step %d: the template fills classes of other members", trial, step)
					}
				}
				other := *cls[0]
				other.key += "'"
				if steps.fill(lp.New("waterfill"), append([]*fclass{&other}, cls[1:]...), sc.of) != nil {
					t.Fatalf("trial %d step %d: the template fills a class of another name", trial, step)
				}
			}
			want := buildFair(lp.New("waterfill"), in, cls, pairs, 1)
			// The warm start from the step before's LP, by the template's
			// rows, is the remap by names, from any basis of that LP.
			if prev != nil {
				b := &lp.Basis{Cols: make([]lp.VarStatus, prev.NumCols()), Rows: make([]lp.VarStatus, prev.NumRows())}
				for j := range b.Cols {
					b.Cols[j] = lp.VarStatus(r.IntN(4))
				}
				for i := range b.Rows {
					b.Rows[i] = lp.VarStatus(r.IntN(4))
				}
				w, byName := steps.warm(b), b.RemapUnique(prev, got.p)
				if fromTemplate && w == nil {
					t.Fatalf("trial %d step %d: no warm start from the template", trial, step)
				}
				if w != nil {
					warmed++
					if !slices.Equal(w.Cols, byName.Cols) || !slices.Equal(w.Rows, byName.Rows) {
						t.Fatalf("trial %d step %d: warm start %v %v, by names %v %v", trial, step, w.Cols, w.Rows, byName.Cols, byName.Rows)
					}
				}
			}
			prev = got.p
			if err := diffProblems(got.p, want.p); err != nil {
				t.Fatalf("trial %d step %d: from the template against buildFair: %v", trial, step, err)
			}
			if got.t != want.t || !slices.Equal(got.fair, want.fair) || !slices.Equal(got.low, want.low) || !slices.Equal(got.time, want.time) ||
				!slices.Equal(got.cap, want.cap) || !reflectEqualInts(got.s, want.s) || len(got.pairs) != len(want.pairs) {
				t.Fatalf("trial %d step %d: indexes %v %v %v, want %v %v %v", trial, step, got.fair, got.low, got.s, want.fair, want.low, want.s)
			}
			rowsLeft += steps.tpl.p.NumRows() - got.p.NumRows()
			// Rise and freeze by class, from a few rises, so that frozen
			// classes of one type and two weights meet at one level.
			for _, cl := range cls {
				if cl.w <= 0 || cl.frozen {
					continue
				}
				up := float64(1+r.IntN(2)) * 0.25
				fr := r.IntN(3) == 0
				for _, m := range cl.members {
					level[m] += up
					frozen[m] = fr
				}
			}
		}
	}
	if filled < 300 || merged < 10 || rowsLeft == 0 || warmed < 300 || again < 300 {
		t.Errorf("%d steps from a template, %d after a merge, %d rows left out: too few to tell", filled, merged, rowsLeft)
	}
	t.Logf("%d steps from a template (%d warm starts by its rows), %d after a merge, %d template rows left out; classes kept %d times", filled, warmed, merged, rowsLeft, again)
}

func reflectEqualInts(a, b [][]int) bool {
	return slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
}

// indexPairsPlain is indexPairs as first written: each list grown by
// appends.
func indexPairsPlain(f *fairLP, types int) {
	f.ofClass, f.ofType = make([][]int, len(f.cls)), make([][]int, types)
	for k, pv := range f.pairs {
		f.ofClass[pv.c] = append(f.ofClass[pv.c], k)
		if pv.d != pv.c {
			f.ofClass[pv.d] = append(f.ofClass[pv.d], k)
		}
		f.ofType[pv.j] = append(f.ofType[pv.j], k)
	}
}

// TestPairListsSameAsPlain: on random space-sharing inputs, buildFair's
// pair columns are those addPairs appends to an empty list, in the room
// pairRoom made (the list never grew), and each class's and type's lists
// of them are indexPairsPlain's.
func TestPairListsSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 64))
	pairs := 0
	for trial := range 300 {
		in := randomInput(r, trial%2 == 0)
		n := len(in.Jobs)
		w := make([]float64, n)
		for i, p := range in.Jobs {
			w[i] = p.Weight
		}
		a := &Fair{Aware: true, SpaceSharing: true}
		cls := classify(in, a.plan(in), w, make([]float64, n), make([]bool, n), true, false, nil)
		threshold := []float64{0, 1, 1.3}[trial%3]
		f := buildFair(lp.New("las"), in, cls, true, threshold)
		if room := pairRoom(cls); cap(f.pairs) != room {
			t.Fatalf("trial %d: %d pairs in room for %d, pairRoom %d", trial, len(f.pairs), cap(f.pairs), room)
		}
		g := &fairLP{p: lp.New("plain"), cls: cls}
		for _, s := range f.s {
			for _, col := range s {
				if col >= 0 {
					g.p.AddCol(fmt.Sprint(col), 0, 1, 0)
				}
			}
		}
		for c := range cls {
			for d := c; d < len(cls); d++ {
				g.addPairs(in, c, d, threshold)
			}
		}
		indexPairsPlain(g, len(in.Types))
		if !slices.Equal(f.pairs, g.pairs) {
			t.Fatalf("trial %d: pairs %v, appended to an empty list %v", trial, f.pairs, g.pairs)
		}
		for c := range f.ofClass {
			if !slices.Equal(f.ofClass[c], g.ofClass[c]) {
				t.Fatalf("trial %d: class %d's pairs %v, plain %v", trial, c, f.ofClass[c], g.ofClass[c])
			}
		}
		for j := range f.ofType {
			if !slices.Equal(f.ofType[j], g.ofType[j]) {
				t.Fatalf("trial %d: type %d's pairs %v, plain %v", trial, j, f.ofType[j], g.ofType[j])
			}
		}
		pairs += len(f.pairs)
	}
	t.Logf("%d pair columns in all", pairs)
	if pairs < 1000 {
		t.Fatalf("%d pair columns in all: the test wants many", pairs)
	}
}

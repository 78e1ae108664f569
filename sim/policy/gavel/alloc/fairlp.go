package alloc

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// pairVar is the device time of pairs (one job of class c, one of d) on
// type j, and the two members' throughputs there.
type pairVar struct {
	c, d, j int
	col     int
	tc, td  float64
}

// fairLP is the class-aggregated LP of max-min fairness and water filling
// (spec 001 §2.1, §2.9, §2.11). Columns: S[c][j], the device time class
// c's jobs get alone on type j (summed over its k_c jobs); pair columns;
// and t. Class c's normalised throughput is
// ñ_c = (Σ_j T_cj S_cj + Σ_pairs μ T^{c|d}_j P) / (k_c · thrEqual_c).
type fairLP struct {
	p     *lp.Problem
	cls   []*fclass
	s     [][]int
	pairs []pairVar
	// ofClass and ofType list the pairs of each class (as c or d) and on
	// each type, in pair order: the rows built per class and per type
	// visit only theirs.
	ofClass, ofType [][]int
	t               int
	fair            []int
	// time and cap are each class's time row and each type's capacity
	// row; low is each class's row ñ_c ≥ level_c (-1: none).
	time, cap, low []int
}

// buildFair builds the LP into p, an empty problem. With pairs, single-GPU classes may share GPUs
// in pairs whose normalised throughput α+β exceeds threshold (α+β ≤ 1 is
// dominated by time slicing, so the default 1 loses nothing).
func buildFair(p *lp.Problem, in *plan.Input, cls []*fclass, pairs bool, threshold float64) *fairLP {
	return buildFairRows(p, in, cls, pairs, threshold, false)
}

// buildFairRows is buildFair; with everyLow, every class gets its row
// ñ_c ≥ level_c, at level 0 too (water filling's step template, stepLP).
func buildFairRows(p *lp.Problem, in *plan.Input, cls []*fclass, pairs bool, threshold float64, everyLow bool) *fairLP {
	f := &fairLP{p: p, cls: cls}
	p.Maximize = true
	p.Reserve(len(cls)*len(in.Types)+1, 3*len(cls)+len(in.Types))
	f.s = make([][]int, len(cls))
	// Every class's row of f.s, and time, cap, fair and low, in one
	// allocation (water filling builds this LP many times a recompute);
	// carve caps each, so no append runs into the next.
	nc, types := len(cls), len(in.Types)
	ints := make([]int, nc*types+3*nc+types)
	carve := func(k int) []int {
		s := ints[:k:k]
		ints = ints[k:]
		return s
	}
	for c, cl := range cls {
		f.s[c] = carve(types)
		for j, t := range cl.thr {
			f.s[c][j] = -1
			if t > 0 {
				f.s[c][j] = p.AddCol(cl.names.sCol(j, in.Types[j]), 0, float64(len(cl.members)), 0)
			}
		}
	}
	if pairs {
		// Room for every pair column the classes' types allow, so that
		// addPairs's appends never grow the list (space sharing's LPs
		// have a hundred and more pair columns, built at every
		// recompute).
		f.pairs = make([]pairVar, 0, pairRoom(cls))
		for c := range cls {
			for d := c; d < len(cls); d++ {
				f.addPairs(in, c, d, threshold)
			}
		}
	}
	f.indexPairs(len(in.Types))
	f.t = p.AddCol("t", 0, lp.Inf, 1)
	// Time: each job at most all of its time.
	f.time, f.cap = carve(nc), carve(types)
	for c, cl := range cls {
		row := p.AddRow(cl.names.row(&cl.names.time, "time"), math.Inf(-1), float64(len(cl.members)))
		f.time[c] = row
		for j := range in.Types {
			if col := f.s[c][j]; col >= 0 {
				p.Set(row, col, 1)
			}
		}
		for _, k := range f.ofClass[c] {
			pv := &f.pairs[k]
			p.Set(row, pv.col, mu(pv, c))
		}
	}
	// Capacity: a pair uses its devices once.
	for j, typ := range in.Types {
		row := p.AddRow("cap|"+typ, math.Inf(-1), in.Count[j])
		f.cap[j] = row
		for c, cl := range cls {
			if col := f.s[c][j]; col >= 0 {
				p.Set(row, col, float64(cl.sf))
			}
		}
		for _, k := range f.ofType[j] {
			pv := &f.pairs[k]
			p.Set(row, pv.col, float64(cls[pv.c].sf))
		}
	}
	f.fair, f.low = carve(nc), carve(nc)
	for c, cl := range cls {
		f.fair[c], f.low[c] = -1, -1
		if cl.w > 0 && !cl.frozen {
			// t ≤ (sf/w)(ñ_c − level_c)
			coef := float64(cl.sf) / cl.w
			row := p.AddRow(cl.names.row(&cl.names.fair, "fair"), math.Inf(-1), -coef*cl.level)
			p.Set(row, f.t, 1)
			f.addNorm(row, c, -coef)
			f.fair[c] = row
		}
		if cl.level > 0 || everyLow {
			row := p.AddRow(cl.names.row(&cl.names.low, "low"), cl.level, lp.Inf)
			f.addNorm(row, c, 1)
			f.low[c] = row
		}
	}
	return f
}

// indexPairs lists each class's and each type's pairs, in pair order,
// carved from one allocation by counts taken first (appending to each
// list grew it a few times per class at every recompute).
func (f *fairLP) indexPairs(types int) {
	f.ofClass, f.ofType = make([][]int, len(f.cls)), make([][]int, types)
	nc := len(f.cls)
	count := make([]int, nc+types)
	total := 0
	for _, pv := range f.pairs {
		count[pv.c]++
		if pv.d != pv.c {
			count[pv.d]++
			total++
		}
		count[nc+pv.j]++
		total += 2
	}
	ints := make([]int, total)
	for c := range f.ofClass {
		f.ofClass[c], ints = ints[:0:count[c]], ints[count[c]:]
	}
	for j := range f.ofType {
		f.ofType[j], ints = ints[:0:count[nc+j]], ints[count[nc+j]:]
	}
	for k, pv := range f.pairs {
		f.ofClass[pv.c] = append(f.ofClass[pv.c], k)
		if pv.d != pv.c {
			f.ofClass[pv.d] = append(f.ofClass[pv.d], k)
		}
		f.ofType[pv.j] = append(f.ofType[pv.j], k)
	}
}

// pairRoom is how many pair columns addPairs may add over every pair of
// classes (c ≤ d): those on a type where both have a throughput, for
// classes of one scale factor (and a class with two members or more
// with itself).
func pairRoom(cls []*fclass) int {
	n := 0
	for c, a := range cls {
		for _, b := range cls[c:] {
			if a.sf != b.sf || (a == b && len(a.members) < 2) {
				continue
			}
			for j, t := range a.thr {
				if t > 0 && b.thr[j] > 0 {
					n++
				}
			}
		}
	}
	return n
}

func mu(pv *pairVar, c int) float64 {
	if pv.c == pv.d {
		return 2
	}
	return 1
}

func (f *fairLP) addPairs(in *plan.Input, c, d int, threshold float64) {
	a, b := f.cls[c], f.cls[d]
	if a.sf != b.sf || (c == d && len(a.members) < 2) {
		return
	}
	ja, jb := in.Jobs[a.members[0]].Job, in.Jobs[b.members[0]].Job
	for j, typ := range in.Types {
		if a.thr[j] <= 0 || b.thr[j] <= 0 {
			continue
		}
		ta, tb := in.Pair(ja, jb, typ)
		if ta <= 0 || tb <= 0 || ta/a.thr[j]+tb/b.thr[j] <= threshold {
			continue
		}
		hi := float64(min(len(a.members), len(b.members)))
		if c == d {
			hi = float64(len(a.members)) / 2
		}
		col := f.p.AddCol(a.names.pairCol(b.names, j, typ), 0, hi, 0)
		f.pairs = append(f.pairs, pairVar{c: c, d: d, j: j, col: col, tc: ta, td: tb})
	}
}

// addNorm adds scale·ñ_c to a row.
func (f *fairLP) addNorm(row, c int, scale float64) {
	cl := f.cls[c]
	k := scale / (float64(len(cl.members)) * cl.eq)
	for j, col := range f.s[c] {
		if col >= 0 {
			f.p.Set(row, col, k*cl.thr[j])
		}
	}
	for _, x := range f.ofClass[c] {
		pv := &f.pairs[x]
		if pv.c == c {
			f.p.Set(row, pv.col, k*mu(pv, c)*pv.tc)
		} else {
			f.p.Set(row, pv.col, k*pv.td)
		}
	}
}

// disaggregate turns class totals into per-job rows and concrete pairs:
// a class's single time is split evenly; pairs of two classes are matched
// by the north-west-corner rule (at most k_c + k_d − 1 concrete pairs, each
// job getting its class's share), pairs within a class go round a cycle.
func (f *fairLP) disaggregate(in *plan.Input, x []float64) *plan.Allocation {
	rows := make([][]float64, len(in.Jobs))
	for i := range rows {
		rows[i] = make([]float64, len(in.Types))
	}
	for c, cl := range f.cls {
		k := float64(len(cl.members))
		for j, col := range f.s[c] {
			if col >= 0 && x[col] > 1e-12 {
				for _, m := range cl.members {
					rows[m][j] = x[col] / k
				}
			}
		}
	}
	al := &plan.Allocation{Combos: plan.Singles(rows)}
	pairIndex := map[[2]int]int{}
	add := func(a, b, j int, v float64) {
		if v <= 1e-12 {
			return
		}
		if a > b {
			a, b = b, a
		}
		k := [2]int{a, b}
		i, ok := pairIndex[k]
		if !ok {
			i = len(al.Combos)
			pairIndex[k] = i
			al.Combos = append(al.Combos, plan.Combo{A: a, B: b, X: make([]float64, len(in.Types))})
		}
		al.Combos[i].X[j] += v
	}
	for _, pv := range f.pairs {
		P := x[pv.col]
		if P <= 1e-12 {
			continue
		}
		A, B := f.cls[pv.c].members, f.cls[pv.d].members
		if pv.c == pv.d {
			if len(A) == 2 {
				add(A[0], A[1], pv.j, P)
				continue
			}
			for i := range A {
				add(A[i], A[(i+1)%len(A)], pv.j, P/float64(len(A)))
			}
			continue
		}
		sa, sb := P/float64(len(A)), P/float64(len(B))
		i, l, sup, dem := 0, 0, sa, sb
		for i < len(A) && l < len(B) {
			a := math.Min(sup, dem)
			add(A[i], B[l], pv.j, a)
			sup -= a
			dem -= a
			if sup <= 1e-15*sa {
				i, sup = i+1, sa
			}
			if dem <= 1e-15*sb {
				l, dem = l+1, sb
			}
		}
	}
	return al
}

// addObjNorm adds scale·ñ_c to the objective.
func (f *fairLP) addObjNorm(c int, scale float64) {
	cl := f.cls[c]
	k := scale / (float64(len(cl.members)) * cl.eq)
	add := func(col int, v float64) { f.p.SetObj(col, f.p.Obj(col)+v) }
	for j, col := range f.s[c] {
		if col >= 0 {
			add(col, k*cl.thr[j])
		}
	}
	for _, x := range f.ofClass[c] {
		pv := &f.pairs[x]
		if pv.c == c {
			add(pv.col, k*mu(pv, c)*pv.tc)
		} else {
			add(pv.col, k*pv.td)
		}
	}
}

// stepLP builds the LPs of one recompute's water-filling steps from one
// template. From step to step (without entities) the classes keep their
// members, order, names and weights; only their levels rise and some
// freeze, so a step's LP is the template (buildFairRows over a step's
// classes, with a low row for every class) less the fair rows of frozen
// classes and the low rows of classes at level 0, with the step's levels
// in the bounds of the rows left: the LP buildFair makes, row for row
// and bit for bit, at the cost of a copy (lp.Problem.CopyRows) rather
// than a coefficient at a time. (Two frozen classes of one type that
// stop at the same level become one class: a new template.)
type stepLP struct {
	tpl *fairLP
	// w, keys and of are the template's classes' weights (their fair
	// rows' coefficients) and names, and each job's class: a step whose
	// classes differ in any of them needs another template.
	w    []float64
	keys []string
	of   []int
	// rows and prev are the template's rows in the LP fill made last
	// and in the one before (fills counts them), for warm; spare is
	// fill's scratch.
	rows, prev, spare []int
	fills             int
}

// newStepLP builds the template into p, an empty problem, for the
// classes cls of a step, of[i] being job i's class.
func newStepLP(p *lp.Problem, in *plan.Input, cls []*fclass, of []int, pairs bool, threshold float64) *stepLP {
	t := &stepLP{tpl: buildFairRows(p, in, cls, pairs, threshold, true), of: slices.Clone(of),
		w: make([]float64, len(cls)), keys: make([]string, len(cls))}
	for c, cl := range cls {
		t.w[c], t.keys[c] = cl.w, cl.key
	}
	p.ListForCopies() // fill copies it about eleven times
	return t
}

// fill builds into p the LP buildFair would build for the step's classes
// cls (of as for newStepLP), or returns nil, leaving p as it was, when
// they are not the template's: other members, names or weights, or a
// class rising that had no fair row.
func (t *stepLP) fill(p *lp.Problem, cls []*fclass, of []int) *fairLP {
	tf := t.tpl
	if len(cls) != len(tf.cls) || !slices.Equal(of, t.of) {
		return nil
	}
	nc := len(cls)
	// The time and capacity rows come first and are kept, so their
	// indexes (tf.time, tf.cap) stay; then each class's fair row if it
	// rises and its low row if its level is above 0, as buildFair adds
	// them.
	rows := append(t.spare[:0], tf.time...)
	rows = append(rows, tf.cap...)
	ints := make([]int, 2*nc)
	fair, low := ints[:nc:nc], ints[nc:]
	for c, cl := range cls {
		if cl.key != t.keys[c] {
			return nil
		}
		fair[c], low[c] = -1, -1
		if cl.w > 0 && !cl.frozen {
			if tf.fair[c] < 0 || math.Float64bits(cl.w) != math.Float64bits(t.w[c]) {
				return nil
			}
			fair[c] = len(rows)
			rows = append(rows, tf.fair[c])
		}
		if cl.level > 0 {
			low[c] = len(rows)
			rows = append(rows, tf.low[c])
		}
	}
	t.rows, t.prev, t.spare = rows, t.rows, t.prev
	t.fills++
	p.CopyRows(tf.p, rows)
	for c, cl := range cls {
		if r := fair[c]; r >= 0 {
			sf := float64(cl.sf)
			p.SetRowBounds(r, math.Inf(-1), -(sf/cl.w)*cl.level) // buildFair's −coef·level
		}
		if r := low[c]; r >= 0 {
			p.SetRowBounds(r, cl.level, lp.Inf)
		}
	}
	return &fairLP{p: p, cls: cls, s: tf.s, pairs: tf.pairs, ofClass: tf.ofClass, ofType: tf.ofType,
		t: tf.t, fair: fair, low: low, time: tf.time, cap: tf.cap}
}

// warm is the warm start of the LP fill made last from b, the basis the
// solve of the LP it made before ended at (nil if it made none): what
// b.RemapUnique would make of it by names, found by the template's rows
// instead. Both LPs have every column of the template and some of its
// rows, in its order, and a name is one column's or one row's of the
// template: a column keeps its status, a row the status it had if it was
// there, and a new row's activity is basic. Nil when b is not of that
// LP's size: the caller remaps by names.
func (t *stepLP) warm(b *lp.Basis) *lp.Basis {
	n, m := t.tpl.p.NumCols(), len(t.rows)
	if t.fills < 2 || b == nil || len(b.Cols) != n || len(b.Rows) != len(t.prev) {
		return nil
	}
	st := make([]lp.VarStatus, n+m)
	nb := &lp.Basis{Cols: st[:n:n], Rows: st[n:]}
	copy(nb.Cols, b.Cols)
	k := 0
	for i, r := range t.rows {
		for k < len(t.prev) && t.prev[k] < r {
			k++
		}
		nb.Rows[i] = lp.Basic
		if k < len(t.prev) && t.prev[k] == r {
			nb.Rows[i] = b.Rows[k]
		}
	}
	return nb
}

package lp

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// loadStraight is loadMatrix as first written: the copy, each pass's row
// and column extremes, the final scaling and the row-wise copy, each a
// pass of its own over the entries.
func loadStraight(s *solver, p *Problem) {
	n, m := p.NumCols(), p.NumRows()
	s.n, s.m = n, m
	s.cs = make([]int32, n+1)
	s.ri, s.rv = nil, nil
	for j := 0; j < n; j++ {
		s.cs[j+1] = s.cs[j] + int32(len(p.colRows[j]))
		s.ri = append(s.ri, p.colRows[j]...)
		s.rv = append(s.rv, p.colVals[j]...)
	}
	s.colScale, s.rowScale = make([]float64, n), make([]float64, m)
	for j := range s.colScale {
		s.colScale[j] = 1
	}
	for i := range s.rowScale {
		s.rowScale[i] = 1
	}
	lo, hi := make([]float64, m), make([]float64, m)
	for pass := 0; pass < 2; pass++ {
		for i := range lo {
			lo[i], hi[i] = math.Inf(1), 0
		}
		for j := range n {
			for k := s.cs[j]; k < s.cs[j+1]; k++ {
				i, v := s.ri[k], math.Abs(s.rv[k])*s.colScale[j]
				lo[i], hi[i] = math.Min(lo[i], v), math.Max(hi[i], v)
			}
		}
		for i := range lo {
			if hi[i] > 0 {
				s.rowScale[i] = pow2Frexp(1 / math.Sqrt(lo[i]*hi[i]))
			}
		}
		for j := range n {
			a, b := math.Inf(1), 0.0
			for k := s.cs[j]; k < s.cs[j+1]; k++ {
				v := math.Abs(s.rv[k]) * s.rowScale[s.ri[k]]
				a, b = math.Min(a, v), math.Max(b, v)
			}
			if b > 0 {
				s.colScale[j] = pow2Frexp(1 / math.Sqrt(a*b))
			}
		}
	}
	for j := range n {
		for k := s.cs[j]; k < s.cs[j+1]; k++ {
			s.rv[k] *= s.rowScale[s.ri[k]] * s.colScale[j]
		}
	}
	s.rs = make([]int32, m+1)
	for _, i := range s.ri {
		s.rs[i+1]++
	}
	for i := range m {
		s.rs[i+1] += s.rs[i]
	}
	s.rc, s.rvr = make([]int32, len(s.ri)), make([]float64, len(s.ri))
	fill := slices.Clone(s.rs[:m])
	for j := range n {
		for k := s.cs[j]; k < s.cs[j+1]; k++ {
			i := s.ri[k]
			s.rc[fill[i]], s.rvr[fill[i]] = int32(j), s.rv[k]
			fill[i]++
		}
	}
}

// equalBits reports whether a and b hold the same bits.
func equalBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// loadMatrix, which does its passes together, must give the scales, the
// scaled matrix and its row-wise copy of the separate passes bit for bit:
// on the dumped LPs, and on random ones with empty rows and columns,
// coefficients over many magnitudes and rows set twice, loaded one after
// another into one solver (so stale storage would show).
func TestLoadMatrixSameAsSeparatePasses(t *testing.T) {
	var ps []*Problem
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-2", "fig12-makespan-512-2", "fig12-las-2048-1"} {
		ps = append(ps, readDumped(t, name))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		n, m := 1+r.IntN(30), 1+r.IntN(20)
		p := New("random")
		for range n {
			p.AddCol("", 0, 1, 0)
		}
		for range m {
			p.AddRow("", math.Inf(-1), 1)
		}
		for range r.IntN(4 * n) {
			v := (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(80)-40)
			if r.IntN(8) == 0 {
				v = float64(r.IntN(5) - 2) // small integers, and zeros Set skips
			}
			p.Set(r.IntN(m), r.IntN(n), v)
		}
		ps = append(ps, p)
	}
	var got solver
	for k, p := range ps {
		var want solver
		loadStraight(&want, p)
		if !got.loadMatrix(p) {
			t.Fatalf("problem %d (%s): loadMatrix says a coefficient is malformed", k, p.Name)
		}
		if !slices.Equal(got.cs, want.cs) || !slices.Equal(got.ri, want.ri) || !equalBits(got.rv, want.rv) {
			t.Fatalf("problem %d (%s): the scaled matrix by columns differs", k, p.Name)
		}
		if !equalBits(got.colScale, want.colScale) || !equalBits(got.rowScale, want.rowScale) {
			t.Fatalf("problem %d (%s): the scales differ", k, p.Name)
		}
		if !slices.Equal(got.rs, want.rs) || !slices.Equal(got.rc, want.rc) || !equalBits(got.rvr, want.rvr) {
			t.Fatalf("problem %d (%s): the row-wise copy differs", k, p.Name)
		}
	}
}

// A Workspace checks a new matrix's coefficients as it loads them; its
// errors must still be check's own, first problem first in check's order
// (a column's bounds before its coefficients, column by column), and a
// load that stopped part way must not leave a matrix a later solve takes
// for the one it holds.
func TestWorkspaceMalformedAsCheck(t *testing.T) {
	cases := map[string]func(p *Problem){
		"NaN coefficient":            func(p *Problem) { p.Set(2, 1, math.NaN()) },
		"infinite coefficient":       func(p *Problem) { p.Set(0, 3, math.Inf(-1)) },
		"row out of range":           func(p *Problem) { p.Set(7, 2, 1) },
		"negative row":               func(p *Problem) { p.Set(-1, 0, 1) },
		"coefficient before a bound": func(p *Problem) { p.Set(2, 1, math.NaN()); p.SetColBounds(3, 2, 1) },
		"bound before a coefficient": func(p *Problem) { p.SetColBounds(0, 2, 1); p.Set(2, 2, math.Inf(1)) },
		"row bound after a coefficient": func(p *Problem) {
			p.SetRowBounds(0, 3, 2)
			p.Set(1, 3, math.NaN())
		},
	}
	want, err := Solve(smallScaledProblem(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range cases {
		var w Workspace
		p := smallScaledProblem()
		if _, err := w.Solve(p, Options{}); err != nil {
			t.Fatal(err)
		}
		q := smallScaledProblem()
		spoil(q)
		_, err := w.Solve(q, Options{})
		if wantErr := q.check(true); err == nil || wantErr == nil || err.Error() != wantErr.Error() {
			t.Errorf("%s: the workspace says %v, check says %v", name, err, wantErr)
		}
		// The same problem as before the malformed one, and then the
		// malformed one mended: each solved as afresh.
		for _, r := range []*Problem{p, smallScaledProblem()} {
			got, err := w.Solve(r, Options{})
			if err != nil || got.Status != want.Status || !equalBits(got.X, want.X) || !equalBits(got.Row, want.Row) || got.Iterations != want.Iterations {
				t.Errorf("%s: after it, %v (%v), want %v", name, got, err, want)
			}
		}
	}
}

// The same problem spoiled after a solve, through each setter, must give
// check's error from a Workspace that checked it before (it checks only
// the rows when the columns are unchanged), and solve as afresh once
// mended.
func TestWorkspaceRecheckAfterSetters(t *testing.T) {
	spoilers := map[string]func(p *Problem){
		"objective":           func(p *Problem) { p.SetObj(2, math.NaN()) },
		"column bounds":       func(p *Problem) { p.SetColBounds(1, 1, 0) },
		"row bounds":          func(p *Problem) { p.SetRowBounds(2, math.Inf(1), math.Inf(1)) },
		"row bounds NaN":      func(p *Problem) { p.SetRowBounds(1, 0, math.NaN()) },
		"row bounds crossed":  func(p *Problem) { p.SetRowBounds(1, 2, 1) },
		"row bounds −∞":       func(p *Problem) { p.SetRowBounds(0, math.Inf(-1), math.Inf(-1)) },
		"objective and rows":  func(p *Problem) { p.SetObj(3, math.Inf(1)); p.SetRowBounds(0, 2, 1) },
		"a column added":      func(p *Problem) { p.AddCol("bad", 1, 0, 0) },
		"a coefficient added": func(p *Problem) { p.Set(1, 0, math.NaN()) },
	}
	want, err := Solve(smallScaledProblem(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range spoilers {
		var w Workspace
		p := smallScaledProblem()
		for range 2 { // the second solve checks the rows alone
			if _, err := w.Solve(p, Options{}); err != nil {
				t.Fatal(err)
			}
		}
		saved := p.Clone()
		spoil(p)
		_, err := w.Solve(p, Options{})
		if wantErr := p.check(true); err == nil || wantErr == nil || err.Error() != wantErr.Error() {
			t.Errorf("%s: the workspace says %v, check says %v", name, err, wantErr)
		}
		got, err := w.Solve(saved, Options{})
		if err != nil || got.Status != want.Status || !equalBits(got.X, want.X) || got.Iterations != want.Iterations {
			t.Errorf("%s: mended, %v (%v), want %v", name, got, err, want)
		}
		if strings.HasPrefix(name, "row bounds") {
			// Mended in place: the workspace's kept costs and the rows'
			// bounds scaled again.
			for i := range p.NumRows() {
				p.SetRowBounds(i, saved.rowLo[i], saved.rowHi[i])
			}
			got, err := w.Solve(p, Options{})
			if err != nil || got.Status != want.Status || !equalBits(got.X, want.X) || got.Iterations != want.Iterations {
				t.Errorf("%s: mended in place, %v (%v), want %v", name, got, err, want)
			}
		}
	}
}

// checkedActivity must give Activity's bits, signed zeros included, on
// finite coefficients and points with many zeros (of either sign) and
// values that cancel exactly.
func TestCheckedActivityAsActivity(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		n, m := 1+r.IntN(20), 1+r.IntN(10)
		p := New("random")
		for range n {
			p.AddCol("", math.Inf(-1), math.Inf(1), 0)
		}
		for range m {
			p.AddRow("", math.Inf(-1), math.Inf(1))
		}
		for range r.IntN(4 * n) {
			v := float64(r.IntN(9) - 4) // small integers: sums cancel exactly
			if r.IntN(3) == 0 {
				v = math.Copysign(math.Ldexp(r.Float64(), r.IntN(40)-20), v)
			}
			p.Set(r.IntN(m), r.IntN(n), v)
		}
		x := make([]float64, n)
		for j := range x {
			switch r.IntN(4) {
			case 0:
				x[j] = math.Copysign(0, -1)
			case 1:
				x[j] = float64(r.IntN(5) - 2)
			case 2:
				x[j] = (r.Float64() - 0.5) * 1e3
			}
		}
		if got, want := p.checkedActivity(x, nil), p.Activity(x); !equalBits(got, want) {
			t.Fatalf("checkedActivity %v, Activity %v", got, want)
		}
		// Into a recycled array holding another solve's values.
		dirty := make([]float64, p.NumRows()+3)
		for i := range dirty {
			dirty[i] = math.NaN()
		}
		if got, want := p.checkedActivity(x, dirty), p.Activity(x); !equalBits(got, want) {
			t.Fatalf("checkedActivity into a used array %v, Activity %v", got, want)
		}
	}
}

// smallScaledProblem is a well-formed LP of 4 columns and 3 rows whose
// coefficients lie magnitudes apart, so that its scales are not 1: the
// problem the Workspace's checking tests spoil.
func smallScaledProblem() *Problem {
	p := New("small")
	for j := range 4 {
		p.AddCol("x"+string(rune('0'+j)), 0, 1, -1)
	}
	for i := range 3 {
		p.AddRow("r"+string(rune('0'+i)), math.Inf(-1), 1)
	}
	for j := range 4 {
		p.Set(j%3, j, math.Ldexp(1+float64(j), 3*j))
		p.Set((j+1)%3, j, math.Ldexp(0.75, -5*j))
	}
	return p
}

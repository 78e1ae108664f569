package lp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// keptTemplate draws a template for TestKeptScalesAsSeparatePasses: n
// columns, m rows, coefficients over many magnitudes (and small
// integers), so that leaving rows out changes some scales and not others.
func keptTemplate(r *rand.Rand, t *Problem, n, m int) {
	t.Reset("template")
	for range n {
		t.AddCol("", 0, 1, 0)
	}
	for range m {
		t.AddRow("", math.Inf(-1), 1)
	}
	for range r.IntN(5 * n) {
		v := (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(60)-30)
		if r.IntN(6) == 0 {
			v = float64(r.IntN(5) - 2) // small integers, and zeros Set skips
		}
		t.Set(r.IntN(m), r.IntN(n), v)
	}
	// A column in every row now and then, like water filling's t.
	if r.IntN(2) == 0 {
		j := r.IntN(n)
		for i := range m {
			t.Set(i, j, float64(1+r.IntN(7)))
		}
	}
}

// someRows is a random subset of from, in order: each row kept with
// probability keep.
func someRows(r *rand.Rand, from []int, keep float64) []int {
	var out []int
	for _, i := range from {
		if r.Float64() < keep {
			out = append(out, i)
		}
	}
	return out
}

// A solver that scales a copy of a template from the scales it kept from
// the copy before (scaleKept) must give the scales, the scaled matrix and
// its row-wise copy of the separate passes bit for bit. The copies come
// as water filling's steps do, each with some rows of the one before, and
// now and then with a row the one before did not have or its rows out of
// order, after a change to the template or to the copy, after another problem was loaded, or after
// a malformed copy (in all of which the kept scales must not be used).
func TestKeptScalesAsSeparatePasses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var got solver
	tpl, other := New("template"), New("other")
	copies := [2]*Problem{New("a"), New("b")}
	loads := 0
	for trial := range 400 {
		n, m := 1+r.IntN(25), 1+r.IntN(20)
		keptTemplate(r, tpl, n, m)
		all := make([]int, m)
		for i := range all {
			all[i] = i
		}
		rows := someRows(r, all, 0.8)
		for step := range 12 {
			q := copies[step%2]
			switch r.IntN(12) {
			case 0: // a row the copy before did not have
				rows = someRows(r, all, 0.9)
			case 1: // the template changes
				tpl.Set(r.IntN(m), r.IntN(n), 0.75)
			case 2: // another problem loaded between
				keptTemplate(r, other, 1+r.IntN(10), 1+r.IntN(10))
				got.loadMatrix(other)
			case 3: // the template changes, malformed now and then
				if trial%4 == 0 {
					tpl.Set(r.IntN(m), r.IntN(n), math.NaN())
				}
			case 4: // rows out of order (a copy CopyRows makes, kept scales or not)
				rows = someRows(r, all, 0.8)
				slices.Reverse(rows)
			default: // fewer rows, as a step's classes freeze
				rows = someRows(r, rows, 0.85)
			}
			q.CopyRows(tpl, rows)
			if r.IntN(10) == 0 && q.NumRows() > 0 { // the copy changes
				q.Set(r.IntN(q.NumRows()), r.IntN(n), 2)
			}
			ok := got.loadMatrix(q)
			loads++
			if bad := q.check(true) != nil; ok == bad || bad {
				if ok == bad {
					t.Fatalf("trial %d step %d: loadMatrix says %v, check %v", trial, step, ok, q.check(true))
				}
				keptTemplate(r, tpl, n, m) // a well-formed one again
				rows = someRows(r, all, 0.8)
				continue
			}
			var want solver
			loadStraight(&want, q)
			if !slices.Equal(got.cs, want.cs) || !slices.Equal(got.ri, want.ri) || !equalBits(got.rv, want.rv) {
				t.Fatalf("trial %d step %d: the scaled matrix by columns differs", trial, step)
			}
			if !equalBits(got.colScale, want.colScale) || !equalBits(got.rowScale, want.rowScale) {
				t.Fatalf("trial %d step %d: the scales differ", trial, step)
			}
			if !slices.Equal(got.rs, want.rs) || !slices.Equal(got.rc, want.rc) || !equalBits(got.rvr, want.rvr) {
				t.Fatalf("trial %d step %d: the row-wise copy differs", trial, step)
			}
		}
	}
	t.Logf("kept %d of %d", got.keep.used, loads)
	if kept := got.keep.used; kept < loads/3 {
		t.Fatalf("%d of %d loads scaled from kept scales: the test does not test them", kept, loads)
	}
}

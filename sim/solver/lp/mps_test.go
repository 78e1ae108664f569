package lp_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// Writing and reading back gives a problem with the same optimum.
func TestMPSRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 100; trial++ {
		p := randomLP(r, 2+r.IntN(6), 1+r.IntN(6), r.IntN(2) == 0)
		var buf bytes.Buffer
		if err := lp.WriteMPS(&buf, p); err != nil {
			t.Fatal(err)
		}
		q, err := lp.ReadMPS(&buf)
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, buf.String())
		}
		a, _ := lp.Solve(p, lp.Options{})
		b, _ := lp.Solve(q, lp.Options{})
		if a.Status != b.Status || (a.Status == lp.Optimal && !close(a.Objective, b.Objective)) {
			t.Fatalf("trial %d: %v before, %v after the round trip\n%s", trial, a, b, buf.String())
		}
		for i := 0; i < p.NumRows(); i++ {
			lo1, hi1 := p.RowBounds(i)
			lo2, hi2 := q.RowBounds(i)
			if lo1 != lo2 || hi1 != hi2 {
				t.Fatalf("row %d bounds [%v,%v] read back as [%v,%v]", i, lo1, hi1, lo2, hi2)
			}
		}
	}
}

func TestReadMPSHandWritten(t *testing.T) {
	doc := `* a comment
NAME tiny
OBJSENSE
    MAX
ROWS
 N cost
 L lim
 G low
 E eq
COLUMNS
    x cost 3 lim 1
    x eq 1
    y cost 2 lim 1
    y low 1
RHS
    rhs lim 4 low 1
    rhs eq 2
RANGES
    rng eq 1
BOUNDS
 UP bnd x 3
ENDATA
`
	p, err := lp.ReadMPS(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	sol, _ := lp.Solve(p, lp.Options{})
	// max 3x+2y, x+y ≤ 4, y ≥ 1, 2 ≤ x ≤ 3: x=3, y=1, 11.
	if sol.Status != lp.Optimal || !close(sol.Objective, 11) {
		t.Fatalf("%v", sol)
	}
	for _, bad := range []string{
		"ROWS\n N o\n X r\nENDATA\n",
		"ROWS\n N o\nCOLUMNS\n    x nope 1\nENDATA\n",
		"ROWS\n N o\nCOLUMNS\n    M1 'MARKER' 'INTORG'\nENDATA\n",
		"ROWS\n N o\n L r\nCOLUMNS\n    x r abc\nENDATA\n",
		"ROWS\n N o\n",
	} {
		if _, err := lp.ReadMPS(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

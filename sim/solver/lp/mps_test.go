package lp_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/internal/approx"
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
		if a.Status != b.Status || (a.Status == lp.Optimal && !approx.Equal(a.Objective, b.Objective, 1e-6, 1e-6)) {
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
	if sol.Status != lp.Optimal || !approx.Equal(sol.Objective, 11, 1e-6, 1e-6) {
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

// Each malformed file is refused with the line and the problem.
func TestReadMPSErrors(t *testing.T) {
	const head = "NAME t\nROWS\n N o\n L r\nCOLUMNS\n"
	for _, c := range []struct{ doc, want string }{
		{"ROWS\n N o\n X r\nENDATA\n", "mps line 3: unknown row type \"X\""},
		{"ROWS\n N o\n L r\n G r\nENDATA\n", "mps line 4: row r is defined twice"},
		{"ROWS\n N o\n L r o\nENDATA\n", "mps line 3: a row needs a type and a name"},
		{head + "    x nope 1\nENDATA\n", "mps line 6: unknown row nope"},
		{head + "    M1 'MARKER' 'INTORG'\nENDATA\n", "mps line 6: integer variables are not supported"},
		{head + "    x r abc\nENDATA\n", "mps line 6: \"abc\" is not a number"},
		{head + "    x r inf\nENDATA\n", "mps line 6: \"inf\" is not a finite number"},
		{head + "    x r NaN\nENDATA\n", "mps line 6: \"NaN\" is not a number"},
		{head + "    x r\nENDATA\n", "mps line 6: a column entry needs"},
		{head + "    x r 1\nRHS\n    rhs r\nENDATA\n", "mps line 8: \"r\" is not a number"},
		{head + "    x r 1\nRHS\n    rhs o 3\nENDATA\n", "mps line 8: objective constants are not supported"},
		{head + "    x r 1\nBOUNDS\n UP bnd y 1\nENDATA\n", "mps line 8: unknown column y"},
		{head + "    x r 1\nBOUNDS\n UP bnd x\nENDATA\n", "mps line 8: bound UP needs a value"},
		{head + "    x r 1\nBOUNDS\n BV bnd x\nENDATA\n", "mps line 8: integer bound BV is not supported"},
		{head + "    x r 1\nBOUNDS\n ZZ bnd x 1\nENDATA\n", "mps line 8: unknown bound type \"ZZ\""},
		{head + "    x r 1\nBOUNDS\n LO bnd x 2\n UP bnd x 1\nENDATA\n", "column x has bounds [2, 1]"},
		{"OBJSENSE\n    SIDEWAYS\nENDATA\n", "mps line 2: unknown objective sense \"SIDEWAYS\""},
		{"ROWS\n N o\nWHAT\nENDATA\n", "mps line 3: unknown section \"WHAT\""},
		{"    x r 1\nENDATA\n", "mps line 1: data outside a section"},
		{"ROWS\n N o\n", "mps line 2: the file ends without ENDATA"},
		{"ROWS\n N o\n L r\nCOLUMNS\n    x r " + strings.Repeat("1", 1<<24) + "\nENDATA\n", "mps line 5: line longer than 16 MiB"},
	} {
		_, err := lp.ReadMPS(strings.NewReader(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q: got error %v, want one containing %q", c.doc, err, c.want)
		}
	}
}

// After ENDATA nothing is read; a negative upper bound on a column at its
// default lower bound 0 makes it free below, as in CPLEX, GLPK and HiGHS.
func TestReadMPSConventions(t *testing.T) {
	doc := "ROWS\n N o\n L r\nCOLUMNS\n    x o 1 r 1\nBOUNDS\n UP bnd x -2\nENDATA\nthis is not MPS\n"
	p, err := lp.ReadMPS(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := p.ColBounds(0); !math.IsInf(lo, -1) || hi != -2 {
		t.Errorf("bounds [%v, %v], want [-Inf, -2]", lo, hi)
	}
}

// The reader never panics, and what it accepts survives a write and a
// read and can be solved.
func FuzzReadMPS(f *testing.F) {
	f.Add("NAME t\nOBJSENSE\n    MAX\nROWS\n N o\n L r\n G s\n E e\nCOLUMNS\n    x o 1 r 1\n    y o 2 s 1\n    y e 1\nRHS\n    rhs r 4 s 1\n    rhs e 2\nRANGES\n    rng e 1\nBOUNDS\n UP bnd x 3\n FR bnd y\nENDATA\n")
	f.Add("ROWS\n N o\n E r\nCOLUMNS\n    x r 1e308\nRHS\n    r 1\nBOUNDS\n MI bnd x\n FX bnd x 2\nENDATA\n")
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := lp.ReadMPS(strings.NewReader(doc))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mps") {
				t.Fatalf("error without the mps prefix: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := lp.WriteMPS(&buf, p); err != nil {
			t.Fatal(err)
		}
		q, err := lp.ReadMPS(&buf)
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.String())
		}
		if q.NumRows() != p.NumRows() || q.NumCols() != p.NumCols() || q.Maximize != p.Maximize {
			t.Fatalf("read back %d×%d, wrote %d×%d", q.NumRows(), q.NumCols(), p.NumRows(), p.NumCols())
		}
		if p.NumRows()*p.NumCols() < 400 {
			if _, err := lp.Solve(p, lp.Options{MaxIterations: 500}); err != nil {
				t.Fatalf("solve: %v", err)
			}
		}
	})
}

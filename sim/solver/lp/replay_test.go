package lp_test

import (
	"bufio"
	"bytes"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// waterfillSteps are 32 consecutive LPs of gavel-las-priorities quick
// (Gavel with space sharing, 2.4 jobs/h, seed 1; `--dump-lp`, files
// 12000–12031): eleven water-filling steps, each a max-min LP
// ("waterfill"), a joint bottleneck LP and its re-solves ("bottleneck",
// the same matrix with other bounds and objective).
func waterfillSteps(tb testing.TB) []*lp.Problem {
	tb.Helper()
	var ps []*lp.Problem
	var cur bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(lp.GunzipTestdata(tb, "waterfill-steps.mps.gz")))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		cur.Write(sc.Bytes())
		cur.WriteByte('\n')
		if sc.Text() == "ENDATA" {
			p, err := lp.ReadMPS(&cur)
			if err != nil {
				tb.Fatalf("LP %d: %v", len(ps), err)
			}
			ps = append(ps, p)
			cur.Reset()
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return ps
}

// sameMatrix reports whether p and q have the same columns, rows and
// coefficients (a re-solve changes only bounds and objective).
func sameMatrix(p, q *lp.Problem) bool {
	if p.Name != q.Name || p.NumCols() != q.NumCols() || p.NumRows() != q.NumRows() {
		return false
	}
	for i := 0; i < p.NumRows(); i++ {
		if p.RowName(i) != q.RowName(i) {
			return false
		}
	}
	for j := 0; j < p.NumCols(); j++ {
		pr, pv := p.Col(j)
		qr, qv := q.Col(j)
		if p.ColName(j) != q.ColName(j) || !slices.Equal(pr, qr) || !slices.Equal(pv, qv) {
			return false
		}
	}
	return true
}

// replay solves the sequence as Gavel's allocators do (sim/policy/gavel/
// alloc, LPs.solve and Fair.bottlenecked): a new LP warm from the last
// basis of its family, matched by names; a re-solve of the LP before it
// on that same Problem, bounds and objective changed, warm from the
// basis the solve before ended at. solve is the solver under test; the
// problems' bounds and objectives are restored from orig first, so a
// replay can run again.
func replay(tb testing.TB, orig []*lp.Problem, work []*lp.Problem, resolve []bool, solve func(*lp.Problem, lp.Options) (*lp.Solution, error), each func(i int, sol *lp.Solution)) {
	prev := map[string]*lp.Problem{}
	basis := map[string]*lp.Basis{}
	var cur *lp.Problem
	var last *lp.Basis
	for i, o := range orig {
		var warm *lp.Basis
		if resolve[i] {
			warm = last
		} else {
			cur = work[i]
			if b := basis[o.Name]; b != nil {
				warm = b.Remap(prev[o.Name], cur)
			}
		}
		for j := 0; j < o.NumCols(); j++ {
			lo, hi := o.ColBounds(j)
			cur.SetColBounds(j, lo, hi)
			cur.SetObj(j, o.Obj(j))
		}
		for r := 0; r < o.NumRows(); r++ {
			lo, hi := o.RowBounds(r)
			cur.SetRowBounds(r, lo, hi)
		}
		sol, err := solve(cur, lp.Options{Warm: warm})
		if err != nil || sol.Status != lp.Optimal {
			tb.Fatalf("LP %d (%s): %v, %v", i, o.Name, sol, err)
		}
		if !resolve[i] {
			prev[o.Name], basis[o.Name] = cur, sol.Basis
		}
		last = sol.Basis
		each(i, sol)
	}
}

// replaySetup reads the steps, marks the re-solves and clones the
// problems the replay may change.
func replaySetup(tb testing.TB) (orig, work []*lp.Problem, resolve []bool) {
	orig = waterfillSteps(tb)
	resolve = make([]bool, len(orig))
	for i := 1; i < len(orig); i++ {
		resolve[i] = sameMatrix(orig[i-1], orig[i])
	}
	for _, p := range orig {
		work = append(work, p.Clone())
	}
	return orig, work, resolve
}

// The replayed steps through one Workspace give Solve's results bit for
// bit, re-solves included (whose factorisation the workspace keeps), and
// each optimum is the one a cold solve of the dumped LP finds.
func TestWaterfillReplay(t *testing.T) {
	orig, work, resolve := replaySetup(t)
	if n := len(orig); n != 32 || !resolve[2] || resolve[3] {
		t.Fatalf("%d LPs, re-solves %v: not the dumped sequence", n, resolve)
	}
	var want []*lp.Solution
	replay(t, orig, work, resolve, lp.Solve, func(_ int, sol *lp.Solution) { want = append(want, sol) })
	var ws lp.Workspace
	replay(t, orig, work, resolve, ws.Solve, func(i int, sol *lp.Solution) {
		if !sameSolution(want[i], sol) {
			t.Errorf("LP %d: Solve gives %v, the workspace %v", i, want[i], sol)
		}
		cold, err := lp.Solve(orig[i], lp.Options{})
		if err != nil || cold.Status != lp.Optimal || !approx.Equal(cold.Objective, sol.Objective, 1e-9, 1e-9) {
			t.Errorf("LP %d: cold %v, replayed %v", i, cold, sol)
		}
	})
}

// BenchmarkWaterfillReplay replays the water-filling steps through one
// Workspace, as Gavel's LAS policy solves them; cpu-µs/LP is process CPU
// per LP solved, pivots/LP the mean simplex pivots.
func BenchmarkWaterfillReplay(b *testing.B) {
	orig, work, resolve := replaySetup(b)
	var ws lp.Workspace
	pivots, solves := 0, 0
	count := func(_ int, sol *lp.Solution) { pivots += sol.Iterations; solves++ }
	replay(b, orig, work, resolve, ws.Solve, count) // warm up
	pivots, solves = 0, 0
	b.ResetTimer()
	cpu0 := cputime.Process()
	for range b.N {
		replay(b, orig, work, resolve, ws.Solve, count)
	}
	cpu := cputime.Process() - cpu0
	b.ReportMetric(float64(pivots)/float64(solves), "pivots/LP")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/1000/float64(solves), "cpu-µs/LP")
	}
}

// BenchmarkResolve is the per-solve overhead alone: the last step's
// bottleneck LP (LP 28 of the steps) re-solved on the same Problem with
// its own bounds and objective and those of its three re-solves (LPs
// 29–31) in turn, each warm from the basis the solve before ended at
// (0 to 2 pivots each).
func BenchmarkResolve(b *testing.B) {
	orig, work, resolve := replaySetup(b)
	if !resolve[29] || !resolve[30] || !resolve[31] {
		b.Fatal("LPs 29–31 are not re-solves of LP 28")
	}
	p := work[28]
	set := func(o *lp.Problem) {
		for j := 0; j < o.NumCols(); j++ {
			lo, hi := o.ColBounds(j)
			p.SetColBounds(j, lo, hi)
			p.SetObj(j, o.Obj(j))
		}
	}
	var ws lp.Workspace
	sol, err := ws.Solve(p, lp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	pivots := 0
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := range b.N {
		set(orig[28+i%4])
		if sol, err = ws.Solve(p, lp.Options{Warm: sol.Basis}); err != nil || sol.Status != lp.Optimal {
			b.Fatal(sol, err)
		}
		pivots += sol.Iterations
	}
	cpu := cputime.Process() - cpu0
	b.ReportMetric(float64(pivots)/float64(b.N), "pivots/LP")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/1000/float64(b.N), "cpu-µs/LP")
	}
}

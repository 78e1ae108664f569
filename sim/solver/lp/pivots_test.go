package lp_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

var updatePivots = flag.Bool("update-pivots", false, "rewrite testdata/pivots.golden from this build")

// TestPivotsGolden is a determinism guard, like a golden-bits test: the
// other tests compare optima to a tolerance, so a change of the pivots
// (another leaving row, another factorisation order) that reaches the
// same optimum passes them, yet it may move a degenerate LP's vertex and
// so change a simulation's record. This one replays the dumped LPs cold
// (dual and primal), warm after their rows' upper bounds tighten (primal
// and dual), and the water-filling steps through one Workspace, and
// compares each solve's status, pivots, final basis and the exact bits of
// its objective, X and row activities (FNV-1a hashes) with
// testdata/pivots.golden. A change that is meant to change the pivots
// regenerates the file, and says so in its commit:
//
//	go test ./sim/solver/lp -run TestPivotsGolden -update-pivots
func TestPivotsGolden(t *testing.T) {
	var got bytes.Buffer
	line := func(name string, sol *lp.Solution, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := fnv.New64a()
		for _, s := range sol.Basis.Cols {
			b.Write([]byte{byte(s)})
		}
		for _, s := range sol.Basis.Rows {
			b.Write([]byte{byte(s)})
		}
		x := fnv.New64a()
		var buf [8]byte
		put := func(v float64) {
			u := math.Float64bits(v)
			for k := range buf {
				buf[k] = byte(u >> (8 * k))
			}
			x.Write(buf[:])
		}
		put(sol.Objective)
		for _, v := range sol.X {
			put(v)
		}
		for _, v := range sol.Row {
			put(v)
		}
		fmt.Fprintf(&got, "%s %v iterations=%d basis=%016x x=%016x\n", name, sol.Status, sol.Iterations, b.Sum64(), x.Sum64())
	}
	for _, d := range dumped {
		p := lp.ReadDumped(t, d.file)
		cold, err := lp.Solve(p, lp.Options{})
		line(d.file+"/cold-dual", cold, err)
		sol, err := lp.Solve(p, lp.Options{Primal: true})
		line(d.file+"/cold-primal", sol, err)
		// Tighten every finite upper bound of a row by 1% (kept above its
		// lower bound): the cold basis is no longer primal feasible.
		q := p.Clone()
		for i := 0; i < q.NumRows(); i++ {
			lo, hi := q.RowBounds(i)
			if !math.IsInf(hi, 1) && hi > 0 {
				q.SetRowBounds(i, lo, math.Max(lo, hi*0.99))
			}
		}
		sol, err = lp.Solve(q, lp.Options{Warm: cold.Basis})
		line(d.file+"/warm-primal", sol, err)
		sol, err = lp.Solve(q, lp.Options{Warm: cold.Basis, Dual: true})
		line(d.file+"/warm-dual", sol, err)
	}
	orig, work, resolve := replaySetup(t)
	var ws lp.Workspace
	replay(t, orig, work, resolve, ws.Solve, func(i int, sol *lp.Solution) {
		line(fmt.Sprintf("waterfill-steps-%d/%s", i, orig[i].Name), sol, nil)
	})

	path := filepath.Join("testdata", "pivots.golden")
	if *updatePivots {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate with -update-pivots)", err)
	}
	ws1, ws2 := bufio.NewScanner(bytes.NewReader(want)), bufio.NewScanner(&got)
	for n := 1; ; n++ {
		a, b := ws1.Scan(), ws2.Scan()
		if !a && !b {
			break
		}
		if a != b || ws1.Text() != ws2.Text() {
			t.Errorf("line %d:\n want %s\n got  %s", n, ws1.Text(), ws2.Text())
		}
	}
}

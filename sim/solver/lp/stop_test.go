package lp_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// TestStop: a solve whose Stop says so at once gives up with ErrStopped;
// one stopped after k questions asked k times (once before the set-up,
// then before each pivot); one never stopped is the solve without Stop.
func TestStop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	for range 50 {
		p := randomLP(r, 12, 9, false)
		want, err := lp.Solve(p, lp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lp.Solve(p, lp.Options{Stop: func() bool { return true }}); !errors.Is(err, lp.ErrStopped) {
			t.Fatalf("stopped at once: %v", err)
		}
		asked := 0
		got, err := lp.Solve(p, lp.Options{Stop: func() bool { asked++; return false }})
		if err != nil || got.Status != want.Status || got.Objective != want.Objective || got.Iterations != want.Iterations {
			t.Fatalf("never stopped: %v %+v, want %+v", err, got, want)
		}
		if asked < 1+got.Iterations {
			t.Errorf("Stop was asked %d times in a solve of %d pivots", asked, got.Iterations)
		}
		if got.Iterations > 0 {
			// Stopped before its first pivot; then the same workspace
			// solves it again to the same end.
			var ws lp.Workspace
			asked = 0
			_, err = ws.Solve(p, lp.Options{Stop: func() bool { asked++; return asked > 1 }})
			if !errors.Is(err, lp.ErrStopped) || asked > 3 {
				t.Errorf("stopped before the first pivot: %v after %d questions", err, asked)
			}
			again, err := ws.Solve(p, lp.Options{})
			if err != nil || again.Status != want.Status || again.Objective != want.Objective {
				t.Errorf("solved again after a stop: %v %+v, want %+v", err, again, want)
			}
		}
	}
}

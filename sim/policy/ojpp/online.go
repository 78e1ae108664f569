package ojpp

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// online is OJPAP's state: the smoothed interference of each GPU (Eq. 18)
// and when the policy last adjusted.
type online struct {
	downtimeS float64 // migration downtime charged so far
	ewma      []float64
	seen      []bool // the GPU is active and its EWMA initialised
	ticks     int
	lastAdj   int
	adjusted  bool
	nextTickS float64
}

// tick observes interference every tick_s while jobs run, updates the
// EWMA and runs Algorithm 4 when the trigger fires.
func (o *Policy) tick(s *engine.State, pl *planner) error {
	st := o.online
	switch {
	case s.NumRunning() == 0:
		st.nextTickS = 0 // the next job to start starts the clock again
		return nil
	case st.nextTickS == 0:
		st.nextTickS = s.Now() + o.p.TickS
		return s.WakeAt(st.nextTickS)
	case s.Now() < st.nextTickS:
		return s.WakeAt(st.nextTickS)
	}
	st.nextTickS = s.Now() + o.p.TickS
	st.ticks++
	maxRaw, maxEwma := o.observe(s, pl)
	if s.Recording() {
		s.Record("ojpp/max_theta", -1, maxRaw)
		s.Record("ojpp/max_ewma", -1, maxEwma)
	}
	if o.due(maxEwma) {
		if err := o.applyAdjust(s, pl); err != nil {
			return err
		}
	}
	return s.WakeAt(st.nextTickS)
}

// observe computes each active GPU's θ under the true matrix (collisions
// excluded, spec §3.5) and folds it into the EWMA.
func (o *Policy) observe(s *engine.State, pl *planner) (maxRaw, maxEwma float64) {
	st := o.online
	var buf [16]int
	for k := range pl.dev {
		ws := pl.dev[k].w
		if len(ws) == 0 {
			st.seen[k] = false
			continue
		}
		theta := 0.0
		for i, a := range ws {
			co := buf[:0]
			for x, b := range ws {
				if x != i {
					co = append(co, pl.info[b].typ)
				}
			}
			theta = max(theta, o.truth.Interference(pl.info[a].typ, co))
		}
		if !st.seen[k] {
			st.ewma[k], st.seen[k] = theta, true
		} else {
			st.ewma[k] = o.p.EwmaA*st.ewma[k] + (1-o.p.EwmaA)*theta
		}
		maxRaw, maxEwma = max(maxRaw, theta), max(maxEwma, st.ewma[k])
	}
	return maxRaw, maxEwma
}

func (o *Policy) due(maxEwma float64) bool {
	st := o.online
	if st.adjusted && st.ticks-st.lastAdj < o.p.Cooldown {
		return false
	}
	switch o.p.Adjust {
	case "ewma":
		return maxEwma > o.p.ThetaMax+eps
	case "periodic":
		return st.ticks%o.p.PeriodTicks == 0
	}
	return false
}

// applyAdjust runs Algorithm 4 on the current placement and migrates the
// jobs whose workers moved; each pauses for its migration cost.
func (o *Policy) applyAdjust(s *engine.State, pl *planner) error {
	st := o.online
	st.adjusted, st.lastAdj = true, st.ticks
	moves := pl.adjust(o.p.MigBudgetS, o.p.IdleTargets, st.ewma)
	for i, m := range moves {
		if firstMove(moves, m.job) != i {
			continue
		}
		gpus := append([]cluster.GPUID(nil), s.GPUsOf(m.job)...)
		for _, x := range moves {
			if x.job == m.job {
				replaceOne(gpus, cluster.GPUID(x.from), cluster.GPUID(x.to))
			}
		}
		opts := engine.ActionOptions{OverheadS: m.cost, NoOverhead: m.cost == 0}
		if err := s.Migrate(m.job, gpus, opts); err != nil {
			return fmt.Errorf("ojpap: %w", err)
		}
		st.downtimeS += m.cost
	}
	if s.Recording() {
		s.Log(-1, "adjustment %d: moved %d workers", st.ticks, len(moves))
		s.Record("ojpp/adjust_moves", -1, float64(len(moves)))
		s.Record("ojpp/migration_s", -1, st.downtimeS)
	}
	return nil
}

func firstMove(moves []move, j workload.JobID) int {
	for i, m := range moves {
		if m.job == j {
			return i
		}
	}
	return -1
}

func replaceOne(gpus []cluster.GPUID, from, to cluster.GPUID) {
	for i, g := range gpus {
		if g == from {
			gpus[i] = to
			return
		}
	}
}

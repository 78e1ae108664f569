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
	quiet     int // ticks whose raw θ passed θ̄ without an adjustment
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
	adjust := o.due(maxEwma)
	if maxRaw > o.p.ThetaMax+eps && !adjust {
		st.quiet++
	}
	if s.Recording() {
		s.Record("ojpp/max_theta", -1, maxRaw)
		s.Record("ojpp/mean_theta", -1, o.meanObserved(s, pl))
		s.Record("ojpp/max_ewma", -1, maxEwma)
		s.Record("ojpp/quiet_crossings", -1, float64(st.quiet))
	}
	if adjust {
		before := o.meanObserved(s, pl)
		if err := o.applyAdjust(s, pl); err != nil {
			return err
		}
		if after := o.meanObserved(s, pl); before > 0 && s.Recording() {
			s.Record("ojpp/adjust_drop", -1, 1-after/before)
		}
	}
	return s.WakeAt(st.nextTickS)
}

// deviceTheta is θ_k as observed: the worst interference a worker on
// device k suffers now under the true model, drift included (collisions
// excluded, spec §3.5).
func (o *Policy) deviceTheta(s *engine.State, pl *planner, k int) float64 {
	var buf [16]workload.JobID
	ws := pl.dev[k].w
	theta := 0.0
	for i, a := range ws {
		co := buf[:0]
		for x, b := range ws {
			if x != i {
				co = append(co, b)
			}
		}
		theta = max(theta, o.truth.ObservedInterference(s, a, co))
	}
	return theta
}

// meanObserved is the mean observed θ over the active devices.
func (o *Policy) meanObserved(s *engine.State, pl *planner) float64 {
	sum, n := 0.0, 0
	for k := range pl.dev {
		if len(pl.dev[k].w) > 0 {
			sum += o.deviceTheta(s, pl, k)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// observe folds each active GPU's observed θ into its EWMA (Eq. 18).
func (o *Policy) observe(s *engine.State, pl *planner) (maxRaw, maxEwma float64) {
	st := o.online
	for k := range pl.dev {
		if len(pl.dev[k].w) == 0 {
			st.seen[k] = false
			continue
		}
		theta := o.deviceTheta(s, pl, k)
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

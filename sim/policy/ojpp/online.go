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
	quiet     int       // ticks whose raw θ passed θ̄ without an adjustment
	arrived   []float64 // when a worker last started or arrived on each GPU (−1: never), for start-up spikes
	// The mean observed θ just before the last adjustment and the lowest
	// since, over the following followTicks ticks (the spec's "within 10
	// ticks"); follow counts down those ticks.
	followBefore, followMin float64
	follow                  int
}

// followTicks is how long after an adjustment its effect is watched
// (spec 002 §6.8: mean θ falls by ≥ 30% within 10 ticks).
const followTicks = 10

func (st *online) arrive(now float64, gpus ...int) {
	for _, g := range gpus {
		st.arrived[g] = now
	}
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
	mean := o.meanObserved(s, pl, nil)
	if s.Recording() {
		s.Record("ojpp/max_theta", -1, maxRaw)
		s.Record("ojpp/mean_theta", -1, mean)
		s.Record("ojpp/max_ewma", -1, maxEwma)
		s.Record("ojpp/quiet_crossings", -1, float64(st.quiet))
	}
	if st.follow > 0 {
		st.followMin = min(st.followMin, mean)
		if st.follow--; st.follow == 0 && st.followBefore > 0 && s.Recording() {
			s.Record("ojpp/adjust_drop_10", -1, 1-st.followMin/st.followBefore)
		}
	}
	if adjust {
		return o.adjustAndMeasure(s, pl, mean)
	}
	return s.WakeAt(st.nextTickS)
}

// adjustAndMeasure runs Algorithm 4 and records how much it lowered the
// observed interference at once: over all active GPUs (mean), on the
// worst GPU (max), and on the GPUs whose smoothed θ had passed θ̄ (hot);
// then it starts watching the next followTicks ticks.
func (o *Policy) adjustAndMeasure(s *engine.State, pl *planner, before float64) error {
	st := o.online
	hot := make([]bool, len(pl.dev))
	for k := range hot {
		hot[k] = st.seen[k] && len(pl.dev[k].w) > 0 && st.ewma[k] > o.p.ThetaMax+eps
	}
	maxBefore, hotBefore := o.maxObserved(s, pl), o.meanObserved(s, pl, hot)
	if err := o.applyAdjust(s, pl); err != nil {
		return err
	}
	if s.Recording() && before > 0 {
		s.Record("ojpp/adjust_drop", -1, 1-o.meanObserved(s, pl, nil)/before)
		s.Record("ojpp/adjust_drop_max", -1, 1-o.maxObserved(s, pl)/maxBefore)
		if hotBefore > 0 {
			s.Record("ojpp/adjust_drop_hot", -1, 1-o.meanObserved(s, pl, hot)/hotBefore)
		}
	}
	st.followBefore, st.followMin, st.follow = before, before, followTicks
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
	if len(ws) > 0 {
		theta += o.truth.SpikeAt(s.Now(), o.online.arrived[k])
	}
	return theta
}

// maxObserved is the worst observed θ over the devices.
func (o *Policy) maxObserved(s *engine.State, pl *planner) float64 {
	m := 0.0
	for k := range pl.dev {
		if len(pl.dev[k].w) > 0 {
			m = max(m, o.deviceTheta(s, pl, k))
		}
	}
	return m
}

// meanObserved is the mean observed θ over the active devices, or over
// those of them marked in only (nil: all).
func (o *Policy) meanObserved(s *engine.State, pl *planner, only []bool) float64 {
	sum, n := 0.0, 0
	for k := range pl.dev {
		if len(pl.dev[k].w) > 0 && (only == nil || only[k]) {
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
	case "ewma", "watch":
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
	if o.p.Adjust == "watch" {
		return nil
	}
	moves := pl.adjust(o.p.MigBudgetS, o.p.IdleTargets, o.p.AdjRetry, o.p.AdjBalance, st.ewma)
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
		o.settled = false // the placement changed
		for _, x := range moves {
			if x.job == m.job {
				st.arrive(s.Now(), x.to)
			}
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

package experiment

import (
	"fmt"
	"sync"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A compact study (StudyOptions.Compact) evaluates, once every policy of
// one sweep value and seed is done, each run's values of the quantities
// its study may ask for, then drops the runs' records: a Gavel figure's
// 225 runs of 7,000 jobs each would otherwise all stay in memory until
// the checks are read. The values are computed by the same code as
// Study.Value on full records (runValue), so outputs are identical.

// runGroup is the runs of one sweep value and seed: they share inputs,
// and the metrics that compare policies (Peers) read each other's records.
type runGroup struct {
	point  *Point
	inputs *scenario.Inputs // nil once a compact study dropped them
	runs   []*Run
	left   int // runs not finished yet
	// recycle takes the utilization arrays of the runs compact drops
	// (nil: they are left to the collector).
	recycle *utilRecycler
}

// keptKey names a metric of a group of jobs.
type keptKey struct{ metric, group string }

// keptValue is one run's value of a quantity, or why it has none.
type keptValue struct {
	v   float64
	err error
}

// keptRun is what a compact study keeps of a run's records.
type keptRun struct {
	values map[keptKey]keptValue
	named  map[string]float64 // Report.named
}

// value is the kept value of metric over group ("" means all).
func (k *keptRun) value(metric, group string) (float64, error) {
	if group == "" {
		group = "all"
	}
	v, ok := k.values[keptKey{metric, group}]
	if !ok {
		return 0, fmt.Errorf("%s of group %q was not kept: the study dropped its records after evaluating the quantities it names", metric, group)
	}
	return v.v, v.err
}

// compact evaluates every finished run of the group and drops its records
// and inputs (in, which the group's runs were built from). Runs that
// failed or saturated keep nothing (Study.Value reads only their error or
// saturation).
func (g *runGroup) compact(in *scenario.Inputs) {
	sc := g.point.Scenario
	names, groups := sc.StudyQuantities()
	kept := make([]*keptRun, len(g.runs))
	for i, r := range g.runs {
		if r.sharedFrom != "" {
			// Copied with its values (RunShare), but for the metrics
			// that compare it with this group's other runs.
			g.peerValues(r, in, names, groups)
			kept[i] = r.kept
			continue
		}
		if r.Err != nil || r.Saturated || r.Result == nil {
			continue
		}
		k := &keptRun{values: map[keptKey]keptValue{}, named: g.point.Report.named(r)}
		ps := groupPeers(g.runs, r)
		for _, m := range names {
			def, err := metrics.Lookup(m)
			if err != nil {
				continue // Study.Value fails on the lookup before reading any run
			}
			for _, gr := range groups {
				v, err := runValue(sc, r, def, gr, ps)
				k.values[keptKey{m, gr}] = keptValue{v, err}
			}
		}
		kept[i] = k
	}
	for i, r := range g.runs {
		if r.Result != nil {
			g.recycle.give(r.Result.Utilization)
		}
		r.kept, r.Result, r.Inputs, r.peerJobs = kept[i], nil, nil, nil
	}
}

// utilRecycler hands the utilization arrays of a compact study's dropped
// runs to its next runs (engine.Config.UtilSteps). A round-based Gavel
// run records a few hundred thousand steps; each run growing an array of
// its own wrote megabytes of fresh memory, a page fault per 4 KB, and
// copied the steps at every doubling. Handed on, an array grows once to
// what the study's longest runs need. What a run records does not depend
// on the array it gets.
type utilRecycler struct {
	mu   sync.Mutex
	free [][]engine.UtilPoint
}

// maxRecycled bounds the arrays kept for later runs: a few more than two
// workers hold at once with their groups' finished runs.
const maxRecycled = 8

// take returns an array to record into, the one given back last (its
// memory the most likely to be in cache), or nil when none is left.
func (u *utilRecycler) take() []engine.UtilPoint {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := len(u.free)
	if n == 0 {
		return nil
	}
	a := u.free[n-1]
	u.free[n-1] = nil
	u.free = u.free[:n-1]
	return a
}

// give keeps steps for a later run; nothing may read them after this.
// A nil recycler drops them.
func (u *utilRecycler) give(steps []engine.UtilPoint) {
	if u == nil || cap(steps) == 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.free) < maxRecycled {
		u.free = append(u.free, steps[:0])
	}
}

// peerValues adds to a copied run's values those of the metrics that read
// peers (metrics.RegisterPeers), with this group's other runs as its
// peers: they read of the run only its job records, which it kept.
func (g *runGroup) peerValues(r *Run, in *scenario.Inputs, names, groups []string) {
	if r.kept == nil || r.peerJobs == nil || in == nil {
		return
	}
	own := &Run{Result: &engine.Result{Jobs: r.peerJobs}, Inputs: in}
	ps := groupPeers(g.runs, r)
	for _, m := range names {
		def, err := metrics.Lookup(m)
		if err != nil || !metrics.NeedsPeers(m) {
			continue
		}
		for _, gr := range groups {
			v, err := runValue(g.point.Scenario, own, def, gr, ps)
			r.kept.values[keptKey{m, gr}] = keptValue{v, err}
		}
	}
}

// groupPeers are the other successful runs of r's group, as peers picks
// them from a report; a copied run (RunShare) serves its kept job records.
func groupPeers(runs []*Run, r *Run) []metrics.Peer {
	var out []metrics.Peer
	for _, o := range runs {
		if o == r || o.Err != nil || o.Saturated {
			continue
		}
		switch {
		case o.Result != nil:
			out = append(out, metrics.Peer{Label: o.Policy, Name: o.PolicyName, Jobs: o.Result.Jobs})
		case o.sharedFrom != "" && o.peerJobs != nil:
			out = append(out, metrics.Peer{Label: o.Policy, Name: o.PolicyName, Jobs: o.peerJobs})
		}
	}
	return out
}

// runValue is one successful run's value of a metric over a group of its
// measured jobs ("" means all).
func runValue(sc *scenario.Scenario, r *Run, def metrics.Def, group string, peers []metrics.Peer) (float64, error) {
	if group == "" {
		group = "all"
	}
	sel, err := metrics.Select(group, sc.Measured(r.Result.Jobs), r.Inputs.Jobs, sc.LargeJobGPUs())
	if err != nil {
		return 0, err
	}
	return def.Fn(metrics.Context{Selected: sel, Result: r.Result, Jobs: r.Inputs.Jobs,
		NumGPUs: r.Inputs.Cluster.NumGPUs(), Peers: peers}), nil
}

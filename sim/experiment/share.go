package experiment

import (
	"maps"
	"sync"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A RunShare lets the compact studies of one command (the figures of
// `schedlab reproduce`) run each distinct run once. Papers' figures often
// repeat a run: Gavel's Figure 13 draws its 6-minute rounds, which are
// Figure 8's Gavel, and Figures 9 and 10 both draw Isolated on the same
// trace. Two runs are the same when their scenario.RunKey is.
//
// The first study to reach a run computes it; later studies copy what a
// compact study keeps of it (its summaries, error and saturation, and the
// values of every quantity those later studies read), so no run's records
// outlive its own study but for one thing: when a later study's metrics
// compare its runs with each other (metrics.NeedsPeers, which read only
// job records), the run's job records are kept until that study has
// copied it, and its values for those metrics are computed there.
type RunShare struct {
	mu   sync.Mutex
	runs map[string]*sharedRun
}

// sharedRun is one run that later studies copy.
type sharedRun struct {
	metrics, groups map[string]bool // the quantities its copies read
	peers           bool            // some copy's study reads peers
	left            int             // copies still to be taken
	done            bool
	from            string // the study that ran it
	copy            Run    // what a copy takes: results only (see copyTo)
}

// NewRunShare plans the sharing for studies that will run in this order
// (each in its quick version with quick, as RunStudy runs it).
func NewRunShare(studies []*scenario.Scenario, quick bool) (*RunShare, error) {
	sh := &RunShare{runs: map[string]*sharedRun{}}
	seen := map[string]bool{}
	for _, sc := range studies {
		base, seeds, values, err := plan(sc, quick)
		if err != nil {
			return nil, err
		}
		ms, gs := base.StudyQuantities()
		peers := needsPeers(ms)
		err = eachRun(base, seeds, values, func(v *scenario.Scenario, i int, seed uint64) {
			key := v.RunKey(i, seed)
			switch {
			case key == "":
			case !seen[key]:
				seen[key] = true
			default:
				s := sh.runs[key]
				if s == nil {
					s = &sharedRun{metrics: map[string]bool{}, groups: map[string]bool{}}
					sh.runs[key] = s
				}
				s.left++
				s.peers = s.peers || peers
				for _, m := range ms {
					s.metrics[m] = true
				}
				for _, g := range gs {
					s.groups[g] = true
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return sh, nil
}

// eachRun calls f for every run of a study's plan, point by point.
func eachRun(base *scenario.Scenario, seeds []uint64, values []float64, f func(v *scenario.Scenario, i int, seed uint64)) error {
	for _, x := range values {
		v := base
		if base.Sweep != nil {
			var err error
			if v, err = base.SweepVariant(x); err != nil {
				return err
			}
		}
		for _, seed := range seeds {
			for i := range v.Policies {
				f(v, i, seed)
			}
		}
	}
	return nil
}

// needsPeers reports whether any of the metrics reads peers.
func needsPeers(names []string) bool {
	for _, m := range names {
		if metrics.NeedsPeers(m) {
			return true
		}
	}
	return false
}

// Shared is how many runs later studies copy.
func (sh *RunShare) Shared() int {
	if sh == nil {
		return 0
	}
	return len(sh.runs)
}

// take fills r from an earlier study's run of the same key and reports
// where it came from; ok is false when r must run. A run is copied only
// by the studies NewRunShare planned as its copies, and only once it is
// done.
func (sh *RunShare) take(key string, r *Run, study string) (from string, ok bool) {
	if sh == nil || key == "" {
		return "", false
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.runs[key]
	if s == nil || !s.done || s.from == study || s.left == 0 {
		return "", false
	}
	s.copyTo(r)
	if s.left--; s.left == 0 {
		s.copy = Run{} // the last copy is taken: let its records go
	}
	return s.from, true
}

// keep records a finished run, with its records still in hand, for the
// later studies that copy it (if any do): the values of every quantity
// they read, from the same code a compact study's own runs use
// (runValue), but for those that read peers (runGroup.peerValues).
func (sh *RunShare) keep(key string, p *Point, r *Run, study string) {
	if sh == nil || key == "" {
		return
	}
	sh.mu.Lock()
	s := sh.runs[key]
	sh.mu.Unlock()
	if s == nil || s.done {
		return
	}
	c := Run{Err: r.Err, Saturated: r.Saturated, Summary: r.Summary, ByModel: r.ByModel, Small: r.Small, Large: r.Large,
		Streamed: r.Streamed, CDFX: r.CDFX, CDFY: r.CDFY}
	if r.Err == nil && !r.Saturated && r.Result != nil {
		k := &keptRun{values: map[keptKey]keptValue{}, named: p.Report.named(r)}
		if s.peers {
			c.peerJobs = r.Result.Jobs
		}
		for m := range s.metrics {
			def, err := metrics.Lookup(m)
			if err != nil || metrics.NeedsPeers(m) {
				continue // a peer metric: the copy's study computes it (runGroup.peerValues)
			}
			for g := range s.groups {
				v, err := runValue(p.Scenario, r, def, g, nil)
				k.values[keptKey{m, g}] = keptValue{v, err}
			}
		}
		c.kept = k
	}
	sh.mu.Lock()
	s.copy, s.from, s.done = c, study, true
	sh.mu.Unlock()
}

// copyTo gives r the shared run's results; r keeps its own label, policy,
// seed and sweep value.
func (s *sharedRun) copyTo(r *Run) {
	c := &s.copy
	r.Err, r.Saturated, r.Summary, r.ByModel, r.Small, r.Large = c.Err, c.Saturated, c.Summary, c.ByModel, c.Small, c.Large
	r.Streamed, r.CDFX, r.CDFY = c.Streamed, c.CDFX, c.CDFY
	if c.kept != nil {
		r.kept = &keptRun{values: maps.Clone(c.kept.values), named: maps.Clone(c.kept.named)}
	}
	r.peerJobs = c.peerJobs
	r.sharedFrom = s.from
}

package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A Study is a scenario run at every sweep value (one point when it has no
// sweep), every seed and every policy: what a paper figure needs.
type Study struct {
	Scenario *scenario.Scenario // as run (the quick variant in quick mode)
	Quick    bool
	Points   []*Point

	// Copied counts the runs whose results were copied from an identical
	// run of an earlier study (StudyOptions.Share), by that study.
	Copied map[string]int

	autoUnit string      // display unit of durations when no paper gives one
	split    *splitTable // the values of a split study (see AssembleStudy)
}

// Point is the study at one sweep value.
type Point struct {
	X        float64
	Swept    bool
	Scenario *scenario.Scenario
	Report   *Report
}

// StudyOptions tune RunStudy.
type StudyOptions struct {
	Quick    bool // the scenario's quick version: fewer seeds, values, jobs
	Workers  int
	Paranoid bool
	Lean     bool
	Progress func(Progress)
	LPSink   LPSink
	// Compact keeps of each run only what the study's output, figures
	// and checks read (its summary, the values of StudyQuantities and the
	// named output metrics) and drops its records and inputs as soon as
	// every policy of its sweep value and seed is done, so a study's
	// memory no longer grows with its number of runs. Per-run records
	// (jobs.csv, a run's own figures) are then gone.
	Compact bool
	// Share, with Compact, copies the results of runs an earlier study of
	// the same RunShare ran, and keeps this study's runs that later ones
	// copy. Without Compact it is not used.
	Share *RunShare
	// RunCPU, if set, is called after each run the study simulates (not
	// those it copies) with the CPU time the run took on its worker's
	// thread: the simulation and the collector's assists it made, not
	// the background collector's work (0 where cputime.Thread is not
	// measured). It lists a study's runs by cost (reproduce --run-times).
	RunCPU func(r *Run, cpu time.Duration)

	shuffle uint64 // tests: dispatch runs in a seeded random order (see pool)
}

// RunStudy runs every point of sc. Runs of all points share one pool of
// workers. A run that fails keeps its error; RunStudy fails only when a
// variant cannot be built or ctx is cancelled.
func RunStudy(ctx context.Context, sc *scenario.Scenario, o StudyOptions) (*Study, error) {
	base, seeds, values, err := plan(sc, o.Quick)
	if err != nil {
		return nil, err
	}
	st := &Study{Scenario: base, Quick: o.Quick && sc.Quick != nil}
	share := o.Share
	if !o.Compact {
		share = nil
	}
	var runs []*Run
	var groups []*runGroup // of each run
	var keys []string      // of each run, with a share
	var starts []int       // each point's first run
	steps := new(utilRecycler)
	for _, x := range values {
		starts = append(starts, len(runs))
		v := base
		if base.Sweep != nil {
			if v, err = base.SweepVariant(x); err != nil {
				return nil, fmt.Errorf("sweep value %g: %w", x, err)
			}
		}
		p := &Point{X: x, Swept: base.Sweep != nil, Scenario: v, Report: &Report{Scenario: v}}
		for _, seed := range seeds {
			in, err := v.Build(seed)
			if err != nil {
				return nil, fmt.Errorf("%s seed %d: %w", p.label(), seed, err)
			}
			g := &runGroup{point: p, inputs: in, recycle: steps}
			for i := range v.Policies {
				r := &Run{Policy: v.PolicyLabel(i), PolicyName: v.Policies[i].Name, Seed: seed, X: x, Swept: p.Swept, index: i}
				p.Report.Runs = append(p.Report.Runs, r)
				g.runs = append(g.runs, r)
				var key string
				if share != nil {
					key = v.RunKey(i, seed)
					if from, ok := share.take(key, r, sc.Name); ok {
						if st.Copied == nil {
							st.Copied = map[string]int{}
						}
						st.Copied[from]++
						continue
					}
				}
				runs, groups, keys = append(runs, r), append(groups, g), append(keys, key)
				g.left++
			}
			if g.left == 0 { // every run copied
				g.compact(in)
				g.inputs = nil
			}
		}
		st.Points = append(st.Points, p)
	}
	runs, groups, keys = lastPointFirst(runs, starts), lastPointFirst(groups, starts), lastPointFirst(keys, starts)
	var mu sync.Mutex // guards every group's left and inputs
	pool(ctx, len(runs), o.Workers, o.shuffle, func(k int) {
		r, g := runs[k], groups[k]
		progress := func(p engine.Progress) {
			if o.Progress != nil {
				o.Progress(Progress{Policy: r.label(), Seed: r.Seed, Run: k, Runs: len(runs), Progress: p})
			}
		}
		mu.Lock()
		in := g.inputs
		mu.Unlock()
		// A compact study keeps of a run its summary and metrics, none of
		// which reads the per-GPU intervals (they draw Gantt charts,
		// timelines and stories): recording them cost the round
		// mechanism's Gavel points about 14% of their CPU and half their
		// memory.
		opts := Options{Paranoid: o.Paranoid, Lean: o.Lean, NoGPUIntervals: o.Compact, LPSink: o.LPSink}
		if o.Compact && !o.Lean {
			opts.utilSteps = steps.take()
		}
		if o.RunCPU == nil {
			runOne(ctx, g.point.Scenario, r, in, opts, progress)
		} else {
			// The run stays on one thread, so that thread's CPU time is its own.
			runtime.LockOSThread()
			cpu0 := cputime.Thread()
			runOne(ctx, g.point.Scenario, r, in, opts, progress)
			cpu := cputime.Thread() - cpu0
			runtime.UnlockOSThread()
			o.RunCPU(r, cpu)
		}
		share.keep(keys[k], g.point, r, sc.Name) // before its group drops its records
		mu.Lock()
		g.left--
		last := g.left == 0
		if last && o.Compact {
			g.inputs = nil
		}
		mu.Unlock()
		if last && o.Compact {
			g.compact(in)
		}
	})
	if err := ctx.Err(); err != nil {
		return st, fmt.Errorf("cancelled: %w", err)
	}
	return st, nil
}

// lastPointFirst reorders a study's runs (or their groups) so that the
// last sweep value's come first, then the one before it, and so on. In a
// sweep of load or of jobs, the runs get longer with the value; started
// first, they leave the short ones for last, and the workers finish
// together instead of one waiting on the other's long last run.
func lastPointFirst[T any](xs []T, starts []int) []T {
	out := make([]T, 0, len(xs))
	end := len(xs)
	for i := len(starts) - 1; i >= 0; i-- {
		out = append(out, xs[starts[i]:end]...)
		end = starts[i]
	}
	return out
}

// plan picks the scenario, seeds and sweep values to run.
func plan(sc *scenario.Scenario, quick bool) (*scenario.Scenario, []uint64, []float64, error) {
	base, seeds := sc, sc.RunSeeds()
	values := []float64{math.NaN()}
	if sc.Sweep != nil {
		values = sc.Sweep.Values
	}
	if quick && sc.Quick != nil {
		q := sc.Quick
		if len(q.Set) > 0 {
			var err error
			if base, err = sc.Variant(q.Set...); err != nil {
				return nil, nil, nil, fmt.Errorf("quick: %w", err)
			}
		}
		if len(q.Seeds) > 0 {
			seeds = q.Seeds
		}
		if len(q.Values) > 0 {
			values = q.Values
		}
	}
	return base, seeds, values, nil
}

// pool runs f(0..n-1) on workers goroutines, stopping early on cancel.
// Runs are independent, so their results must not depend on the order in
// which they are handed out: a nonzero shuffle hands them out in a random
// order drawn from that seed, which tests use to show that nothing (a
// shared cache, a global) leaks from one run into another.
func pool(ctx context.Context, n, workers int, shuffle uint64, f func(k int)) {
	order := make([]int, n)
	for k := range order {
		order[k] = k
	}
	if shuffle != 0 {
		r := rand.New(rand.NewPCG(shuffle, 0x5eed))
		r.Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				f(k)
			}
		}()
	}
	for _, k := range order {
		if ctx.Err() != nil {
			break
		}
		work <- k
	}
	close(work)
	wg.Wait()
}

func (p *Point) label() string {
	if !p.Swept {
		return "the scenario"
	}
	return fmt.Sprintf("sweep value %g", p.X)
}

func (r *Run) label() string {
	if r.Swept {
		return fmt.Sprintf("%s @ %g", r.Policy, r.X)
	}
	return r.Policy
}

// isSaturation reports whether a run's error is the time budget of a
// scenario that expects saturation (a load too high to finish the window).
func isSaturation(sc *scenario.Scenario, err error) bool {
	var b *engine.BudgetError
	return sc.Measure.SaturateAfterS > 0 && errors.As(err, &b) && b.Time
}

// Value is a quantity averaged over seeds.
type Value struct {
	Mean, SD float64
	// Min and Max are the smallest and largest value over the runs; NaN
	// when a run has no value.
	Min, Max  float64
	N         int  // seeds
	Saturated bool // some seed did not finish its measured jobs in time
	Err       error
	// Seeds and Each are the seeds and their values, in run order, for
	// pairing two quantities seed by seed (nil where no single value per
	// seed exists, as for a bound on every run).
	Seeds []uint64
	Each  []float64
}

// Value evaluates a quantity: a metric of a group of one policy's measured
// jobs at one sweep value, averaged over seeds. Durations are in seconds.
func (st *Study) Value(q scenario.Quantity) Value {
	if q.MeanOverSweep {
		return st.meanOverSweep(q)
	}
	if q.EveryRun {
		return st.everyRun(q)
	}
	p, err := st.point(q.X)
	if err != nil {
		return Value{Err: err}
	}
	if st.split != nil {
		return st.split.value(p, q)
	}
	def, err := metrics.Lookup(q.Metric)
	if err != nil {
		return Value{Err: err}
	}
	var xs []float64
	var v Value
	for _, r := range p.Report.Runs {
		if r.Policy != q.Policy {
			continue
		}
		if r.Saturated {
			v.Saturated = true
			continue
		}
		if r.Err == nil && r.kept != nil {
			x, err := r.kept.value(q.Metric, q.Group)
			if err != nil {
				return Value{Err: fmt.Errorf("%s seed %d: %w", r.label(), r.Seed, err)}
			}
			xs = append(xs, x)
			v.Seeds = append(v.Seeds, r.Seed)
			continue
		}
		if r.Err != nil || r.Result == nil {
			return Value{Err: fmt.Errorf("%s seed %d failed: %v", r.label(), r.Seed, r.Err)}
		}
		x, err := runValue(p.Scenario, r, def, q.Group, peers(p.Report, r))
		if err != nil {
			return Value{Err: err}
		}
		xs = append(xs, x)
		v.Seeds = append(v.Seeds, r.Seed)
	}
	if len(xs) == 0 && !v.Saturated {
		return Value{Err: fmt.Errorf("no runs of policy %q", q.Policy)}
	}
	v.N, v.Each = len(xs), xs
	v.Mean, v.SD = meanSD(xs)
	v.Min, v.Max = minMax(xs)
	if v.Saturated {
		v.Mean = math.Inf(1)
	}
	return v
}

// minMax is the smallest and largest of xs; both NaN when xs is empty or
// holds a NaN (a run without a value cannot be said to be within a bound).
func minMax(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if math.IsNaN(x) {
			return math.NaN(), math.NaN()
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// everyRun is a quantity over every run at every sweep value that ran:
// Mean is the largest value (what a bound on each run judges), Min and
// Max the range, N the number of runs.
func (st *Study) everyRun(q scenario.Quantity) Value {
	out := Value{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, p := range st.Points {
		one := q
		one.EveryRun = false
		if p.Swept {
			x := p.X
			one.X = &x
		}
		v := st.Value(one)
		switch {
		case v.Err != nil:
			return v
		case v.Saturated:
			out.Saturated = true
			continue
		}
		out.N += v.N
		out.Min, out.Max = min(out.Min, v.Min), max(out.Max, v.Max) // a NaN stays NaN
	}
	if out.N == 0 && !out.Saturated {
		return Value{Err: fmt.Errorf("%s: no run has a value", q.String())}
	}
	out.Mean, out.SD = out.Max, math.NaN()
	if out.Saturated {
		out.Mean = math.Inf(1)
	}
	return out
}

// peers are the other policies' runs of r's seed in the same report.
func peers(rep *Report, r *Run) []metrics.Peer {
	var out []metrics.Peer
	for _, o := range rep.Runs {
		if o != r && o.Seed == r.Seed && o.Result != nil && o.Err == nil && !o.Saturated {
			out = append(out, metrics.Peer{Label: o.Policy, Name: o.PolicyName, Jobs: o.Result.Jobs})
		}
	}
	return out
}

func (st *Study) point(x *float64) (*Point, error) {
	if x == nil {
		if len(st.Points) == 1 {
			return st.Points[0], nil
		}
		return nil, fmt.Errorf("the study has %d sweep values; say which (x)", len(st.Points))
	}
	for _, p := range st.Points {
		if math.Abs(p.X-*x) <= 1e-9*math.Max(1, math.Abs(*x)) {
			return p, nil
		}
	}
	return nil, fmt.Errorf("sweep value %g was not run", *x)
}

func meanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) > 1 {
		for _, x := range xs {
			sd += (x - mean) * (x - mean)
		}
		sd = math.Sqrt(sd / float64(len(xs)-1))
	}
	return mean, sd
}

// Xs returns the sweep values that were run, in order.
func (st *Study) Xs() []float64 {
	xs := make([]float64, len(st.Points))
	for i, p := range st.Points {
		xs[i] = p.X
	}
	return xs
}

// PlannedRuns is how many runs RunStudy would make of sc: sweep values ×
// seeds × policies, for progress estimates.
func PlannedRuns(sc *scenario.Scenario, quick bool) (int, error) {
	_, seeds, values, err := plan(sc, quick)
	if err != nil {
		return 0, err
	}
	return len(values) * len(seeds) * len(sc.Policies), nil
}

// meanOverSweep is a quantity averaged over every sweep value that ran,
// each the mean over seeds. Its spread treats the values as independent:
// SD = √(Σ SD²) / k over k values; N is the fewest seeds of any value.
func (st *Study) meanOverSweep(q scenario.Quantity) Value {
	var out Value
	var sum, sdsq float64
	k := 0
	perSeed := map[uint64]float64{}
	var seeds []uint64
	pairable := true // every sweep value ran the same seeds
	for _, p := range st.Points {
		x := p.X
		one := q
		one.MeanOverSweep, one.X = false, &x
		v := st.Value(one)
		switch {
		case v.Err != nil:
			return v
		case v.Saturated:
			out.Saturated = true
			continue
		}
		sum += v.Mean
		if !math.IsNaN(v.SD) {
			sdsq += v.SD * v.SD
		}
		if k == 0 || v.N < out.N {
			out.N = v.N
		}
		if k == 0 {
			seeds = v.Seeds
		}
		pairable = pairable && slices.Equal(seeds, v.Seeds) && len(v.Each) == len(v.Seeds)
		for i, s := range v.Seeds {
			if i < len(v.Each) {
				perSeed[s] += v.Each[i]
			}
		}
		k++
	}
	if out.Saturated {
		out.Mean = math.Inf(1)
		return out
	}
	if k == 0 {
		return Value{Err: fmt.Errorf("%s: no sweep value ran", q.String())}
	}
	out.Mean, out.SD = sum/float64(k), math.Sqrt(sdsq)/float64(k)
	if pairable && len(seeds) == out.N {
		out.Seeds = seeds
		for _, s := range seeds {
			out.Each = append(out.Each, perSeed[s]/float64(k))
		}
	}
	return out
}

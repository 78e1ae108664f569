// Package experiment runs scenarios: every policy of a scenario on every
// seed, with progress reports, and turns the runs into summaries, JSON and
// CSV outputs and figures.
package experiment

import (
	"context"
	"fmt"
	"sync"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

// Options tune an Execute call.
type Options struct {
	Seeds    []uint64 // nil means the scenario's seeds
	Workers  int      // runs in parallel; 0 or 1 runs one at a time
	Paranoid bool     // check every invariant after each instant
	Progress func(Progress)
	// Lean skips per-GPU intervals and the decision log, for large runs
	// that need only per-job records and metrics.
	Lean bool
	// NoGPUIntervals skips the per-GPU intervals alone (no Gantt chart
	// or timeline can be drawn; utilization stays exact).
	NoGPUIntervals bool
	// NoLog skips the decision log alone, with the series, snapshots and
	// stories it holds (engine.Config.NoLog): for output that shows none
	// of them, such as the command line's table.
	NoLog bool
	// Snapshots asks the policies for structured records of their
	// decisions (the page's OJPP and Tesserae views).
	Snapshots bool
	// Stories asks the engine and the policies for the records that tell
	// each job's story (engine.Config.Stories); StoryOnly keeps those of
	// some jobs alone (engine.Config.StoryOnly).
	Stories   bool
	StoryOnly []workload.JobID
	// LPSink, if set, receives every LP the policies solve.
	LPSink LPSink
	// StreamAbove switches runs of more jobs than this to streaming mode:
	// their job records are summarised as the run ends and not kept (see
	// Run.Streamed); 0 keeps every record.
	StreamAbove int

	shuffle   uint64             // tests: dispatch runs in a seeded random order (see pool)
	utilSteps []engine.UtilPoint // an earlier run's utilization array to record into (RunStudy)
}

// Progress reports how far one run of an Execute call has come.
type Progress struct {
	Policy string
	Seed   uint64
	Run    int // index of the run, 0-based
	Runs   int // number of runs
	engine.Progress
}

// Run is one policy on one seed.
type Run struct {
	Policy     string // label
	PolicyName string // registry name
	Seed       uint64
	X          float64 // sweep value, when Swept
	Swept      bool
	Inputs     *scenario.Inputs
	Result     *engine.Result
	Err        error // the run stopped early; Result holds what it recorded
	// Saturated runs hit the scenario's saturation time before finishing
	// their measured jobs: the load is too high. That is a result, not an
	// error, and their metrics are not meaningful.
	Saturated bool
	Summary   metrics.Summary
	ByModel   []metrics.Group
	Small     metrics.Group
	Large     metrics.Group
	// Streamed runs kept no job records (Result.Jobs is nil): their
	// summaries were made as the records came, and CDFX, CDFY are their
	// JCT CDF thinned to CDFPoints points (see metrics.ThinCDF).
	Streamed   bool
	CDFX, CDFY []float64

	index int      // of the policy in the scenario
	kept  *keptRun // a compact study's values, once Result and Inputs are dropped
	// sharedFrom names the earlier study whose identical run this one's
	// results were copied from (RunShare); it did not run itself.
	sharedFrom string
	// peerJobs are a copied run's job records, kept until its group is
	// compacted when its study's metrics compare runs with each other.
	peerJobs []engine.JobRecord
}

// DefaultStreamAbove is the job count above which the command line and
// the page stream a run (Options.StreamAbove); see metrics.DefaultStreamAbove.
const DefaultStreamAbove = metrics.DefaultStreamAbove

// StreamIntervals caps the GPU intervals a streamed run keeps.
const StreamIntervals = 1 << 16

// CDFPoints is how many points a streamed run keeps of its JCT CDF; see
// metrics.StreamCDFPoints.
const CDFPoints = metrics.StreamCDFPoints

// Notes says what the run summarised or left out: the recorder's notes
// and, in streaming mode, that job records were not kept.
func (r *Run) Notes() []string {
	var out []string
	if r.Streamed {
		out = append(out, fmt.Sprintf("streaming mode: the run's %s jobs are above the size at which job records are kept, so its metrics were summarised as the run ended and no per-job records were kept (jobs CSV and per-job JSON are empty; the JCT CDF is drawn from %d points, within %.2g of the exact one)",
			results.Thousands(r.jobCount()), CDFPoints, 1.0/CDFPoints))
	}
	if r.Result != nil {
		out = append(out, r.Result.Notes()...)
	}
	return out
}

func (r *Run) jobCount() int {
	if r.Inputs == nil {
		return 0
	}
	return len(r.Inputs.Jobs)
}

// Report is every run of a scenario, ordered by seed, then policy.
type Report struct {
	Scenario *scenario.Scenario
	Runs     []*Run
}

// Execute runs every policy of sc on each seed. A run that fails keeps its
// partial result and error; Execute itself fails only when the inputs
// cannot be built or ctx is cancelled.
func Execute(ctx context.Context, sc *scenario.Scenario, o Options) (*Report, error) {
	seeds := o.Seeds
	if len(seeds) == 0 {
		seeds = sc.RunSeeds()
	}
	rep := &Report{Scenario: sc}
	for _, seed := range seeds {
		for i := range sc.Policies {
			rep.Runs = append(rep.Runs, &Run{Policy: sc.PolicyLabel(i), PolicyName: sc.Policies[i].Name, Seed: seed, index: i})
		}
	}
	inputs := map[uint64]*scenario.Inputs{}
	for _, seed := range seeds {
		in, err := sc.Build(seed)
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		inputs[seed] = in
	}
	var mu sync.Mutex // serializes progress callbacks
	pool(ctx, len(rep.Runs), o.Workers, o.shuffle, func(k int) {
		r := rep.Runs[k]
		progress := func(p engine.Progress) {
			if o.Progress != nil {
				mu.Lock()
				o.Progress(Progress{Policy: r.Policy, Seed: r.Seed, Run: k, Runs: len(rep.Runs), Progress: p})
				mu.Unlock()
			}
		}
		runOne(ctx, sc, r, inputs[r.Seed], o, progress)
	})
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("cancelled: %w", err)
	}
	return rep, nil
}

func runOne(ctx context.Context, sc *scenario.Scenario, r *Run, in *scenario.Inputs, o Options, progress func(engine.Progress)) {
	r.Inputs = in
	p, err := sc.NewPolicy(r.index)
	if err != nil {
		r.Err = err
		return
	}
	cfg := sc.EngineConfig(&scenario.Inputs{Cluster: in.Cluster, Jobs: in.Jobs, Perf: in.Perf}, p, r.Seed)
	cfg.Paranoid = o.Paranoid
	cfg.NoIntervals, cfg.NoLog = o.Lean, o.Lean || o.NoLog
	cfg.NoGPUIntervals = o.NoGPUIntervals
	cfg.UtilSteps = o.utilSteps
	cfg.Snapshots = o.Snapshots
	cfg.Stories, cfg.StoryOnly = o.Stories, o.StoryOnly
	cfg.Progress = progress
	var st *metrics.Stream
	if o.StreamAbove > 0 && len(in.Jobs) > o.StreamAbove {
		w := sc.Window()
		st = metrics.NewStream(len(in.Jobs), sc.LargeJobGPUs())
		// a Gantt chart of a run this size is a blur well before 65,536 bars
		cfg.Caps.Intervals = StreamIntervals
		cfg.OnRecord = func(rec *engine.JobRecord) {
			if w.Empty() || w.Contains(rec.Job) {
				st.Add(rec)
			}
		}
	}
	r.Result, r.Err = simulate(ctx, r, cfg, o.LPSink)
	if isSaturation(sc, r.Err) {
		r.Saturated, r.Err = true, nil
	}
	if r.Result == nil {
		return
	}
	if st != nil {
		r.Streamed = true
		r.Summary = st.Summary(&engine.Result{Utilization: r.Result.Utilization}, in.Cluster.NumGPUs())
		r.ByModel = st.ByModel()
		r.Small, r.Large = st.BySize()
		r.CDFX, r.CDFY = st.CDF(CDFPoints)
		return
	}
	measured := &engine.Result{Jobs: sc.Measured(r.Result.Jobs), Utilization: r.Result.Utilization}
	r.Summary, r.ByModel, r.Small, r.Large = metrics.Summaries(measured, in.Cluster.NumGPUs(), sc.LargeJobGPUs())
}

// Failed returns the runs that stopped with an error.
func (rep *Report) Failed() []*Run {
	var out []*Run
	for _, r := range rep.Runs {
		if r.Err != nil {
			out = append(out, r)
		}
	}
	return out
}

// ForSeed returns the runs of one seed, in policy order.
func (rep *Report) ForSeed(seed uint64) []*Run {
	var out []*Run
	for _, r := range rep.Runs {
		if r.Seed == seed {
			out = append(out, r)
		}
	}
	return out
}

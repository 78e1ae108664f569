// Package decisiontime measures how long one scheduling round takes to
// decide: Tesserae's placement (its order, the packing matching and the
// migration matching) against Gavel's allocation LP (max-min fairness),
// over the same active jobs on the same cluster, in the same process (the
// Tesserae paper's Figs. 2 and 14(a)).
//
// Gavel's LP is timed two ways. As Gavel writes it, every job has a row
// of its own: the LP grows with the jobs, and this is the one compared
// with Tesserae. schedlab's own Gavel merges jobs of one kind (same model,
// GPU count and weight) into one row, which gives the same optimum
// from an LP whose size does not grow with the jobs, and lets pairs of
// jobs share GPUs; it is timed too, for comparison. Gavel's per-job LP
// with pairs is left out: its pair rows grow with the square of the jobs
// (256 and 512 jobs together had not finished after 4 minutes here).
//
// A measurement has two parts kept apart. The decisions (how many jobs
// each round placed and packed, how many LPs Gavel solved and its
// objective) are a pure function of the set-up, the same on every machine;
// the wall times are this machine's, differ from run to run, and are
// reported beside the machine they were taken on.
package decisiontime

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/gavel/alloc"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/policy/tesserae"
	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
	"github.com/schedlab/schedlab/sim/workload"
)

// Setup is what is measured: a cluster of Servers × 4 A100 GPUs, and at
// each count in Jobs that many active jobs, all present from the start;
// each side decides one warm-up round, then Rounds timed rounds.
type Setup struct {
	Servers int
	Jobs    []int
	Rounds  int
	Seed    uint64
	// PackSolver is Tesserae's packing solver (default "exact", its
	// default; "hungarian" is the paper's job-level method).
	PackSolver string
}

// Decision is what one side decided at one job count, identical on
// every machine and every run.
type Decision struct {
	Jobs int `json:"jobs"`
	// Tesserae: jobs holding GPUs after the last timed round, how many
	// of them share a GPU with another job, and the jobs moved in the
	// timed rounds.
	Placed int `json:"placed"`
	Packed int `json:"packed"`
	Moved  int `json:"moved"`
	// Gavel, each job a row: LPs solved per round and the objective (the
	// worst-off job's share of its fair throughput). Merged: LPs solved
	// per round and the pairs the allocation lets share GPUs.
	LPs             int     `json:"gavel_lps"`
	Objective       float64 `json:"gavel_objective"`
	MergedLPs       int     `json:"merged_lps"`
	MergedObjective float64 `json:"merged_objective"`
	MergedPairs     int     `json:"merged_pairs"`
}

// Times are one job count's wall times, in milliseconds: the median over
// the timed rounds, and for Tesserae its three parts (the median of each).
type Times struct {
	Jobs       int     `json:"jobs"`
	TesseraeMS float64 `json:"tesserae_ms"`
	Scheduling float64 `json:"scheduling_ms"`
	Packing    float64 `json:"packing_ms"`
	Migration  float64 `json:"migration_ms"`
	GavelMS    float64 `json:"gavel_ms"`
	MergedMS   float64 `json:"merged_ms"` // schedlab's Gavel, jobs of a kind merged

	// Rounds are the timed rounds per side.
	Rounds int `json:"rounds"`
}

// Machine is where the times were taken.
type Machine struct {
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	Cores  int    `json:"cores"`
	Go     string `json:"go"`
}

// Here is this machine.
func Here() Machine {
	return Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Cores: runtime.NumCPU(), Go: runtime.Version()}
}

// Measure runs the set-up: per job count, Tesserae's rounds then Gavel's,
// one after the other in this process.
func Measure(ctx context.Context, s Setup) ([]Decision, []Times, error) {
	if s.Servers < 1 || s.Rounds < 1 || len(s.Jobs) == 0 {
		return nil, nil, fmt.Errorf("decision time: need servers, rounds and job counts, got %d servers, %d rounds, %d counts", s.Servers, s.Rounds, len(s.Jobs))
	}
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: s.Servers, GPUs: 4, GPUType: "A100"}}})
	if err != nil {
		return nil, nil, err
	}
	var ds []Decision
	var ts []Times
	for _, n := range s.Jobs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		d, t, err := measureAt(ctx, s, c, n)
		if err != nil {
			return nil, nil, fmt.Errorf("%d jobs: %w", n, err)
		}
		ds, ts = append(ds, d), append(ts, t)
	}
	return ds, ts, nil
}

func measureAt(ctx context.Context, s Setup, c *cluster.Cluster, n int) (Decision, Times, error) {
	d, t := Decision{Jobs: n}, Times{Jobs: n, Rounds: s.Rounds}
	if err := tesseraeRounds(ctx, s, c, n, &d, &t); err != nil {
		return d, t, fmt.Errorf("timing Tesserae: %w", err)
	}
	var err error
	if d.LPs, d.Objective, _, t.GavelMS, err = gavelRounds(s, c, n, true); err != nil {
		return d, t, fmt.Errorf("timing Gavel's LP, a row per job: %w", err)
	}
	if d.MergedLPs, d.MergedObjective, d.MergedPairs, t.MergedMS, err = gavelRounds(s, c, n, false); err != nil {
		return d, t, fmt.Errorf("timing Gavel's merged LP: %w", err)
	}
	return d, t, nil
}

// Jobs are n active jobs of the six models Tesserae's pair table
// measured, 1, 2 or 4 GPUs each (most 1), long enough never to finish.
func Jobs(n int, seed uint64) []workload.Job {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	ms := []string{"resnet50", "vgg19", "DCGAN", "PointNet", "Bert-Large", "GPT2-Medium"}
	jobs := make([]workload.Job, n)
	for i := range jobs {
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%d", i), Model: ms[r.IntN(len(ms))],
			GPUs: []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 4}[r.IntN(10)], DurationS: 1e7}
	}
	return jobs
}

// model is the perf model both sides plan with: every job at its own
// rate alone, slowed as Tesserae's pair table says when two share GPUs.
func model(c *cluster.Cluster, jobs []workload.Job) (perf.Model, error) {
	tab, err := pack.Blox()
	if err != nil {
		return nil, err
	}
	base := perf.NewConstant(perf.ConstantParams{})
	if err := base.Prepare(c, jobs); err != nil {
		return nil, err
	}
	return &perf.Composite{Base: base, Factors: []perf.Factor{perf.NewInterference(tab.Interference(1))}}, nil
}

// Tesserae's own stopwatch records each round's parts as these series.
const series = "tesserae/decision_ms/"

// tesseraeRounds runs Tesserae-T in the engine for 1 + Rounds rounds and
// reads each round's decision time from its stopwatch (the parts it
// times: ordering and the exclusive pass, the packing matching, the
// migration matching).
func tesseraeRounds(ctx context.Context, s Setup, c *cluster.Cluster, n int, d *Decision, t *Times) error {
	jobs, err := workload.Finalize(Jobs(n, s.Seed))
	if err != nil {
		return err
	}
	m, err := model(c, jobs)
	if err != nil {
		return err
	}
	p := tesserae.DefaultParams()
	p.TimeDecisions = true
	if s.PackSolver != "" {
		p.PackSolver = s.PackSolver
	}
	pol, err := tesserae.New(p)
	if err != nil {
		return err
	}
	w := &watch{Policy: pol}
	res, err := engine.Run(ctx, engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: w, NoIntervals: true,
		Budgets: engine.Budgets{MaxTimeS: float64(s.Rounds)*p.RoundS + 1}})
	var be *engine.BudgetError
	if err != nil && !errors.As(err, &be) {
		return err
	}
	if res == nil {
		return fmt.Errorf("the run gave no result")
	}
	parts := map[string][]float64{}
	for _, part := range []string{"scheduling", "packing", "migration"} {
		sr := res.FindSeries(series+part, -1)
		if sr == nil || len(sr.V) != s.Rounds+1 {
			return fmt.Errorf("expected %d rounds timed for %s, got %v", s.Rounds+1, part, sr)
		}
		parts[part] = sr.V[1:] // the first round places everything from nothing
	}
	total := make([]float64, s.Rounds)
	for i := range total {
		total[i] = parts["scheduling"][i] + parts["packing"][i] + parts["migration"][i]
	}
	t.TesseraeMS, t.Scheduling, t.Packing, t.Migration = Median(total), Median(parts["scheduling"]), Median(parts["packing"]), Median(parts["migration"])
	d.Placed, d.Packed = w.placed, w.packed
	for _, j := range res.Jobs {
		d.Moved += j.Migrations
	}
	if d.Placed == 0 {
		return fmt.Errorf("no job was placed")
	}
	return nil
}

// watch is Tesserae with a look at the GPUs after each of its
// decisions: the jobs placed, those sharing a GPU, the moves so far.
type watch struct {
	engine.Policy
	placed, packed int
}

func (w *watch) Decide(s *engine.State, tr []engine.Trigger) error {
	if err := w.Policy.Decide(s, tr); err != nil {
		return err
	}
	perGPU := map[cluster.GPUID]int{}
	running := s.Running()
	for _, id := range running {
		for _, g := range s.Info(id).GPUs {
			perGPU[g]++
		}
	}
	w.placed, w.packed = len(running), 0
	for _, id := range running {
		for _, g := range s.Info(id).GPUs {
			if perGPU[g] > 1 {
				w.packed++
				break
			}
		}
	}
	return nil
}

// gavelRounds computes Gavel's allocation (heterogeneity-aware max-min
// fairness) 1 + Rounds times over the same jobs, with one solver state
// kept across rounds as Gavel's mechanism keeps it (so later rounds start
// from the previous round's solution), and times each call but the
// first. perJob gives every job a row of its own, as Gavel writes the LP
// (its throughput is changed by one part in a million per job, so that no
// two jobs are alike), without pairs; otherwise jobs of a kind merge and
// pairs of 1-GPU jobs may share GPUs (schedlab's Gavel with space sharing).
func gavelRounds(s Setup, c *cluster.Cluster, n int, perJob bool) (lps int, objective float64, pairs int, ms float64, err error) {
	jobs, err := workload.Finalize(Jobs(n, s.Seed))
	if err != nil {
		return 0, 0, 0, 0, err
	}
	m, err := model(c, jobs)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	in := &plan.Input{Types: c.Types(), Count: []float64{float64(len(c.GPUs))}, Oracle: plan.Oracle{Model: m, Cluster: c}}
	for i := range jobs {
		j := &jobs[i]
		thr := []float64{in.Oracle.Solo(j, "A100")}
		if perJob {
			thr[0] *= 1 + 1e-6*float64(i+1)
		}
		in.Jobs = append(in.Jobs, plan.Job{ID: j.ID, Job: j, SF: j.GPUs, Weight: 1, Thr: thr, Rem: j.Iterations})
	}
	run := &alloc.LPs{}
	a := &alloc.Fair{Aware: true, SpaceSharing: !perJob, TieBreak: true, Clean: true, PairThreshold: 1, LPs: run}
	var times []float64
	for round := 0; round <= s.Rounds; round++ {
		in.Now = float64(round) * 360
		in.Rand = rand.New(rand.NewPCG(s.Seed, uint64(round)))
		solved := run.Solved
		start := time.Now()
		al, err := a.Allocate(in)
		took := time.Since(start)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		if round == 0 {
			continue
		}
		times = append(times, float64(took.Nanoseconds())/1e6)
		lps, objective, pairs = run.Solved-solved, al.Objective, 0
		for _, cb := range al.Combos {
			if cb.B >= 0 {
				pairs++
			}
		}
	}
	return lps, objective, pairs, Median(times), nil
}

// Median is the middle value of xs (the mean of the two middle ones for
// an even count); 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

package fluid

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// Options say where the fluid simulator's allocations come from.
type Options struct {
	Title     string         // the policy's name in errors
	Alloc     plan.Allocator // computes the allocation X that sets the rates
	ResetMinS float64        // shortest time between two recomputations after arrivals and completions
	// SetPrices hands the cluster's prices to a cost-aware allocator.
	SetPrices func(types []string) error
}

// simulator is one fluid run's configuration.
type simulator struct{ Options }

// fluidJob is one job in the fluid run.
type fluidJob struct {
	rem, rate       float64
	active, done    bool
	first, finish   float64
	run, gpuSec     float64
	isoTime, isoThr float64
	lastRem         float64
	thr             []float64
	everRan         bool
	gpuShare        float64 // GPUs held on average at the current rate
	never           string  // why the job can never run (unschedulable), or ""
}

// Run simulates the fluid model on a run's configuration (its cluster,
// jobs, perf models, seed, budgets and window; cfg.Policy is not used),
// with the allocations that o says how to obtain, and returns the same
// kind of result as the engine.
func Run(ctx context.Context, cfg engine.Config, o Options) (*engine.Result, error) {
	f := &simulator{o}
	c := cfg.Cluster
	believed := cfg.Believed
	if believed == nil {
		believed = cfg.Perf
	}
	beliefs := plan.Oracle{Model: believed, Cluster: c}
	truth := plan.Oracle{Model: cfg.Perf, Cluster: c}
	types := append([]string(nil), c.Types()...)
	count := make([]float64, len(types))
	for _, g := range c.GPUs {
		for j, t := range types {
			if g.Type == t {
				count[j]++
			}
		}
	}
	if f.SetPrices != nil {
		if err := f.SetPrices(types); err != nil {
			return nil, err
		}
	}
	maxT := cfg.Budgets.MaxTimeS
	if maxT == 0 {
		maxT = 10 * 365 * 24 * 3600
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x9011c7))
	jobs := cfg.Jobs
	st := make([]fluidJob, len(jobs))
	for i := range st {
		st[i] = fluidJob{rem: jobs[i].Iterations, lastRem: jobs[i].Iterations, first: -1, finish: -1, thr: make([]float64, len(types))}
		for j, t := range types {
			st[i].thr[j] = beliefs.Solo(&jobs[i], t)
		}
		st[i].never = neverRuns(cfg, &jobs[i], types, count, truth)
	}
	res := &engine.Result{}
	var active []int
	next, t := 0, 0.0
	need, recomputed, last := false, false, 0.0
	windowDone, windowSize := 0, cfg.Window.To-cfg.Window.From
	done := ctx.Done() // looked at every event: an event may re-solve the allocation
	for events := int64(0); ; events++ {
		select {
		case <-done:
			return res, fmt.Errorf("run cancelled: %w", ctx.Err())
		default:
		}
		for next < len(jobs) && jobs[next].ArrivalS <= t {
			if st[next].never == "" {
				st[next].active = true
				active = append(active, next)
				need = true
			}
			next++
		}
		if need && (!recomputed || t >= last+f.ResetMinS) {
			if err := f.recompute(t, jobs, st, active, types, count, rng, beliefs, truth, res); err != nil {
				if ctx.Err() != nil {
					return res, fmt.Errorf("run cancelled: %w", ctx.Err()) // the allocator's LP gave up
				}
				return res, err
			}
			need, recomputed, last = false, true, t
		}
		tn := math.Inf(1)
		if next < len(jobs) {
			tn = jobs[next].ArrivalS
		}
		for _, i := range active {
			if st[i].rate > 0 {
				tn = math.Min(tn, t+st[i].rem/st[i].rate)
			}
		}
		if need {
			tn = math.Min(tn, last+f.ResetMinS)
		}
		if math.IsInf(tn, 1) {
			if len(active) > 0 {
				return f.finish(res, jobs, st, t), fmt.Errorf("stuck at t=%.0fs: %d active jobs get no share of any GPU", t, len(active))
			}
			break
		}
		if tn > maxT {
			return f.finish(res, jobs, st, t), &engine.BudgetError{Time: true, Msg: fmt.Sprintf("simulated time passed the budget of %.0f s with %d jobs active", maxT, len(active))}
		}
		// A job that runs from now on starts now (t0), not at t − dt: that
		// difference rounds, and could put the start before the arrival.
		t0, dt := t, tn-t
		t = tn
		keep := active[:0]
		for _, i := range active {
			s := &st[i]
			if s.rate > 0 {
				if !s.everRan {
					s.first, s.everRan = t0, true
				}
				s.rem -= s.rate * dt
				s.run += dt
				s.gpuSec += s.gpuShare * dt
			}
			if s.rate > 0 && s.rem <= 1e-9*jobs[i].Iterations+s.rate*1e-9 {
				s.rem, s.done, s.active, s.finish = 0, true, false, t
				if s.isoThr > 0 {
					s.isoTime += s.lastRem / s.isoThr
				}
				need = true
				if cfg.Window.Contains(workload.JobID(i)) {
					windowDone++
				}
				continue
			}
			keep = append(keep, i)
		}
		active = keep
		if windowSize > 0 && windowDone == windowSize {
			break
		}
		if events > cfg.Budgets.MaxEvents && cfg.Budgets.MaxEvents > 0 {
			return f.finish(res, jobs, st, t), &engine.BudgetError{Msg: "the fluid run used more than its event budget"}
		}
	}
	return f.finish(res, jobs, st, t), nil
}

// recompute sets every active job's fluid rate from a new allocation.
func (f *simulator) recompute(t float64, jobs []workload.Job, st []fluidJob, active []int, types []string, count []float64,
	rng *rand.Rand, beliefs, truth plan.Oracle, res *engine.Result) error {
	in := &plan.Input{Now: t, Types: types, Count: count, Rand: rng, Oracle: beliefs}
	for _, i := range active {
		s := &st[i]
		if s.isoThr > 0 {
			s.isoTime += (s.lastRem - s.rem) / s.isoThr
		}
		s.lastRem = s.rem
		in.Jobs = append(in.Jobs, plan.Job{ID: workload.JobID(i), Job: &jobs[i], SF: jobs[i].GPUs, Weight: jobs[i].EffectiveWeight(),
			Thr: s.thr, Rem: s.rem, Elapsed: t - jobs[i].ArrivalS, IsoTime: s.isoTime, Waited: t - jobs[i].ArrivalS - s.run})
	}
	for k := range in.Jobs {
		st[active[k]].isoThr = plan.Dot(in.Jobs[k].Thr, in.IsoRow(&in.Jobs[k], len(in.Jobs)))
	}
	al, err := f.Alloc.Allocate(in)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Title, err)
	}
	for _, i := range active {
		st[i].rate, st[i].gpuShare = 0, 0
	}
	for _, cb := range al.Combos {
		for j, x := range cb.X {
			if x <= 0 {
				continue
			}
			a := &st[active[cb.A]]
			ja := &jobs[active[cb.A]]
			if cb.B < 0 {
				// Time planned on a type where the job cannot run (the
				// agnostic plan's) is lost: no progress, no GPUs held.
				if r := truth.Solo(ja, types[j]); r > 0 {
					a.rate += x * r
					a.gpuShare += x * float64(ja.GPUs)
				}
				continue
			}
			b := &st[active[cb.B]]
			jb := &jobs[active[cb.B]]
			ta, tb := truth.Pair(ja, jb, types[j])
			a.rate += x * ta
			b.rate += x * tb
			// Both jobs hold the shared GPUs for the pair's time, as the
			// engine charges every job on a shared GPU.
			a.gpuShare += x * float64(ja.GPUs)
			b.gpuShare += x * float64(jb.GPUs)
		}
	}
	res.Series = appendPoint(res.Series, "gavel/objective", t, finite(al.Objective))
	return nil
}

func appendPoint(ss []engine.Series, name string, t, v float64) []engine.Series {
	for i := range ss {
		if ss[i].Name == name && ss[i].Job == -1 {
			ss[i].T = append(ss[i].T, t)
			ss[i].V = append(ss[i].V, v)
			return ss
		}
	}
	return append(ss, engine.Series{Name: name, Job: -1, T: []float64{t}, V: []float64{v}})
}

// neverRuns says why a job can never run, as the engine does for its
// unschedulable jobs (it never fits the cluster: too many GPUs of one type,
// or more memory than any GPU has), or, where it fits, because its
// throughput is 0 on every type with enough GPUs; "" if it can run.
func neverRuns(cfg engine.Config, j *workload.Job, types []string, count []float64, truth plan.Oracle) string {
	if ok, why := cfg.Cluster.Fit(j.GPUs, perf.JobMemoryGB(cfg.Perf, j, 0), j.GPUType); !ok {
		return why
	}
	for k, t := range types {
		if count[k] >= float64(j.GPUs) && (j.GPUType == "" || j.GPUType == t) && truth.Solo(j, t) > 0 {
			return ""
		}
	}
	return fmt.Sprintf("runs on no GPU type of this cluster: its throughput is 0 on every type with %d GPUs", j.GPUs)
}

// finish builds the job records.
func (f *simulator) finish(res *engine.Result, jobs []workload.Job, st []fluidJob, now float64) *engine.Result {
	res.Jobs = make([]engine.JobRecord, len(jobs))
	finished := 0
	for i := range jobs {
		s, j := &st[i], &jobs[i]
		r := engine.JobRecord{Job: j.ID, Name: j.Name, Model: j.Model, GPUs: j.GPUs, ArrivalS: j.ArrivalS,
			FirstStartS: s.first, FinishS: s.finish, QueueS: -1, RunS: s.run, GPUSeconds: s.gpuSec,
			Iterations: j.Iterations - s.rem, SoloS: -1}
		switch {
		case s.never != "" && j.ArrivalS <= now:
			r.Status, r.Reason = engine.Unschedulable, s.never
		case s.done:
			r.Status = engine.Finished
			finished++
			if s.isoTime > 0 {
				res.Series = append(res.Series, engine.Series{Name: "gavel/iso_time_s", Job: j.ID, T: []float64{s.finish}, V: []float64{s.isoTime}})
			}
		case s.active && s.rate > 0:
			r.Status = engine.Running
		case s.active:
			r.Status = engine.Pending
		default:
			r.Status = engine.NotArrived
		}
		if s.first >= 0 {
			r.QueueS = s.first - j.ArrivalS
		}
		if s.done || s.active {
			end := now
			if s.done {
				end = s.finish
			}
			r.WaitS = math.Max(0, end-j.ArrivalS-s.run)
		}
		res.Jobs[i] = r
	}
	res.Stats.EndS = now
	res.Stats.FinishedJobs = finished
	return res
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// Random streams of one import; their values are part of the
// reproducibility contract.
const (
	streamSample = 0x7ace_0001
	streamModels = 0x7ace_0002
	// streamPreset draws what a cluster preset's perf model needs (its
	// Models): a stream of its own, so that the Pollux mapping's draws
	// stay as they were.
	streamPreset = 0x7ace_0003
)

// pipeline turns the rows read into the job list: filters (counted while
// reading), window, sample, models, cluster fit, scaling, in this order,
// so that e.g. the sample is drawn from the window and the models from
// the sample. It returns the jobs with the line each was read from.
func (b *builder) pipeline(opt Options, c *cluster.Cluster, absolute bool) ([]workload.Job, []int, error) {
	b.count(fmt.Sprintf("shorter than %g s (filter)", b.filters.MinDurationS), "min-duration", b.short)
	b.count(fmt.Sprintf("of %g GPU-hours or more (filter)", b.filters.MaxGPUHours), "max-gpu-hours", b.long)
	b.count(fmt.Sprintf("of more than %d GPU(s) (filter)", b.filters.MaxGPUs), "max-gpus", b.wide)
	keys := b.sortedKeys()
	keys = b.window(keys, opt)
	keys = b.sample(keys, opt)
	rows := make([]parsed, len(keys))
	for i, k := range keys {
		rows[i] = b.unpack(b.rows.at(int(k.i)))
	}
	share, mapped := b.mapModels(rows, opt)
	b.presetModels(rows, opt)
	rows = b.checkFit(rows, c)
	if mapped {
		b.noteMapped(rows, share)
	}
	if len(rows) > b.maxJobs() {
		return nil, nil, b.tooManyJobs(0, len(rows))
	}
	scale := opt.Scale
	if scale == 0 {
		scale = 1
	}
	t0 := 0.0
	if len(rows) > 0 {
		if !absolute {
			t0 = rows[0].submitS
		}
		if opt.Window != nil {
			t0 = b.start + opt.Window[0]*3600
		} else if opt.BusiestH > 0 {
			t0 = b.busiestFrom
		}
	}
	jobs := make([]workload.Job, len(rows))
	lines := make([]int, len(rows))
	for i, r := range rows {
		j := r.job
		// Millisecond arrivals: exact in JSON and CSV, and no job moves
		// by more than half a millisecond.
		j.ArrivalS = math.Round((r.submitS-t0)*scale*1000) / 1000
		if opt.AtZero {
			j.ArrivalS = 0
		}
		if !(j.ArrivalS >= 0 && j.ArrivalS <= workload.MaxTimeS) {
			b.errorf(r.line, "column %s: %s", b.column("arrival_s"), arrivalProblem((r.submitS-t0)*scale, absolute))
		}
		jobs[i], lines[i] = j, r.line
	}
	if opt.AtZero && len(jobs) > 0 {
		b.note(fmt.Sprintf("every job is submitted at time 0 (%s), an offline batch, in the order of its submission in the trace", b.options("at-zero")))
	}
	b.checkNames(jobs, lines)
	if len(b.errs) > 0 {
		return nil, nil, b.errs
	}
	jobs, err := workload.Finalize(jobs)
	return jobs, lines, err
}

// arrivalProblem says why an arrival is out of bounds.
func arrivalProblem(a float64, absolute bool) string {
	if math.IsInf(a, 0) {
		return "the job arrives too far from the first job to compute; is this time in another unit, or from another clock than the others?"
	}
	if a < 0 {
		return fmt.Sprintf("the job arrives at %g s, before time 0; times must not be negative", a)
	}
	from := "after the first job"
	if absolute {
		from = "after time 0"
	}
	return fmt.Sprintf("the job arrives %.3g s %s, later than %g s (about 317 years); is this time in another unit, or from another clock than the others?", a, from, workload.MaxTimeS)
}

// checkNames makes sure no two kept jobs have one id, naming both lines.
func (b *builder) checkNames(jobs []workload.Job, lines []int) {
	seen := make(map[string]int, len(jobs))
	for i, j := range jobs {
		if k, dup := seen[j.Name]; dup {
			b.errorf(lines[i], "column %s: job id %s is also the id of the job of line %d; ids must be unique", b.column("id"), quote(j.Name), lines[k])
			continue
		}
		seen[j.Name] = i
	}
}

// window keeps the rows of the time window, or of the busiest window.
func (b *builder) window(rows []sortKey, opt Options) []sortKey {
	if len(rows) == 0 {
		return rows
	}
	b.start = rows[0].t
	switch {
	case opt.Window != nil:
		lo, hi := b.start+opt.Window[0]*3600, b.start+opt.Window[1]*3600
		i := sort.Search(len(rows), func(k int) bool { return rows[k].t >= lo })
		k := sort.Search(len(rows), func(k int) bool { return rows[k].t >= hi })
		b.count(fmt.Sprintf("outside the window %g–%g h", opt.Window[0], opt.Window[1]), "window", len(rows)-(k-i))
		return rows[i:k]
	case opt.BusiestH > 0:
		w := opt.BusiestH * 3600
		best, bestLo, hi := -1, 0, 0
		for lo := range rows { // two pointers: O(n)
			for hi < len(rows) && rows[hi].t < rows[lo].t+w {
				hi++
			}
			if hi-lo > best {
				best, bestLo = hi-lo, lo
			}
		}
		b.busiestFrom = rows[bestLo].t
		b.note(fmt.Sprintf("busiest %g-hour window starts %.0f h after the first submission and holds %d jobs", opt.BusiestH, (b.busiestFrom-b.start)/3600, best))
		b.count(fmt.Sprintf("outside the busiest %g-hour window", opt.BusiestH), "busiest", len(rows)-best)
		return rows[bestLo : bestLo+best]
	}
	return rows
}

// sample keeps opt.Sample rows drawn without replacement, in time order.
func (b *builder) sample(rows []sortKey, opt Options) []sortKey {
	if opt.Sample == 0 || opt.Sample >= len(rows) {
		if opt.Sample > len(rows) {
			b.note(fmt.Sprintf("asked for a sample of %d jobs but only %d were left; kept them all", opt.Sample, len(rows)))
		}
		return rows
	}
	r := rand.New(rand.NewPCG(opt.Seed, streamSample))
	pick := r.Perm(len(rows))[:opt.Sample]
	sort.Ints(pick)
	out := make([]sortKey, len(pick))
	for i, k := range pick {
		out[i] = rows[k]
	}
	b.count(fmt.Sprintf("not in the sample of %d (seed %d)", opt.Sample, opt.Seed), "sample", len(rows)-len(pick))
	return out
}

// mapModels gives each row without a model one of Pollux's six tasks by
// its GPU-hours (spec 000 §5.3), one random number per job in time order.
// It reports the share of bert among the 1–10 GPU-hour jobs, and whether
// it mapped at all.
func (b *builder) mapModels(rows []parsed, opt Options) (share float64, mapped bool) {
	if b.models != "" {
		return 0, false // the cluster preset's perf model needs models of its own
	}
	share = 0.5
	if opt.BertShare != nil {
		share = *opt.BertShare
	}
	r := rand.New(rand.NewPCG(opt.Seed, streamModels))
	for i := range rows {
		if !rows[i].noModel {
			continue
		}
		j := &rows[i].job
		j.Model = workload.PolluxTask(float64(j.GPUs)*j.DurationS/3600, share, r)
	}
	return share, true
}

// noteMapped says how many of the kept jobs got a model from mapModels;
// it counts after the cluster fit, so jobs left out are not counted.
func (b *builder) noteMapped(rows []parsed, share float64) {
	mapped := 0
	for i := range rows {
		if rows[i].noModel {
			mapped++
		}
	}
	if mapped > 0 {
		what := fmt.Sprintf("%d jobs name no model: each got", mapped)
		if mapped == 1 {
			what = "1 job names no model: it got"
		}
		b.note(fmt.Sprintf("%s one of Pollux's tasks by its GPU-hours (<1 cifar10 or ncf, 1–10 deepspeech2 or bert (share %g), 10–100 yolov3, ≥100 imagenet)", what, share))
	}
}

// presetModels gives every job what the cluster preset's perf model needs
// (Cluster.Models), one job after another in time order, from a stream of
// the seed of their own.
func (b *builder) presetModels(rows []parsed, opt Options) {
	if len(rows) == 0 {
		return
	}
	r := rand.New(rand.NewPCG(opt.Seed, streamPreset))
	switch b.models {
	case ModelsOJPP:
		var mixed, average []string // the Mixed queue's two halves
		for _, t := range workload.OJPPTypes {
			switch t.Class {
			case "C-high", "I-high":
				mixed = append(mixed, t.Name)
			case "Average":
				average = append(average, t.Name)
			}
		}
		for i := range rows {
			pool := average
			if r.Float64() < 0.5 {
				pool = mixed
			}
			rows[i].job.Model = pool[r.IntN(len(pool))]
		}
		b.note(fmt.Sprintf("the memshare model times only its own library, so every job got, instead of any model named above, a type of the OJPP paper's Mixed queue (seed %d): half one of %s, half one of %s; durations stay the trace's",
			opt.Seed, strings.Join(mixed, ", "), strings.Join(average, ", ")))
	case ModelsRAR:
		d := workload.DefaultSJFBCOParams()
		for i := range rows {
			j := &rows[i].job
			tau := d.TauMin + r.Float64()*(d.TauMax-d.TauMin)
			j.Model, j.Iterations = "rar", max(1, math.Round(j.DurationS/tau))
		}
		b.note(fmt.Sprintf("every job got model rar and iterations F = duration / τ0 for an iteration time τ0 drawn uniformly from the SJF-BCO paper's [%g, %g] s (seed %d), as the ring_allreduce model needs",
			d.TauMin, d.TauMax, opt.Seed))
	}
}

package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// Random streams of one import; their values are part of the
// reproducibility contract.
const (
	streamSample = 0x7ace_0001
	streamModels = 0x7ace_0002
)

// pipeline turns the rows read into the job list: filters, window,
// sample, models, cluster fit, scaling, in this order, so that e.g. the
// sample is drawn from the window and the models from the sample.
func (b *builder) pipeline(opt Options, f Filters, preset Cluster, absolute bool) ([]workload.Job, error) {
	rows := b.filter(b.rows, f)
	sortRows(rows)
	rows = b.window(rows, opt)
	rows = b.sample(rows, opt)
	b.mapModels(rows, opt)
	c, err := cluster.New(preset.Spec)
	if err != nil {
		return nil, err
	}
	rows = b.checkFit(rows, c)
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
	for i, r := range rows {
		j := r.job
		// Millisecond arrivals: exact in JSON and CSV, and no job moves
		// by more than half a millisecond.
		j.ArrivalS = math.Round((r.submitS-t0)*scale*1000) / 1000
		jobs[i] = j
	}
	return workload.Finalize(jobs)
}

func (b *builder) filter(rows []row, f Filters) []row {
	out := rows[:0]
	short, long := 0, 0
	for _, r := range rows {
		d := r.job.DurationS
		switch {
		case f.MinDurationS > 0 && d > 0 && d < f.MinDurationS:
			short++
		case f.MaxGPUHours > 0 && d > 0 && float64(r.job.GPUs)*d/3600 >= f.MaxGPUHours:
			long++
		default:
			out = append(out, r)
		}
	}
	b.count(fmt.Sprintf("shorter than %g s (filter)", f.MinDurationS), short)
	b.count(fmt.Sprintf("of %g GPU-hours or more (filter)", f.MaxGPUHours), long)
	return out
}

// window keeps the rows of the time window, or of the busiest window.
func (b *builder) window(rows []row, opt Options) []row {
	if len(rows) == 0 {
		return rows
	}
	b.start = rows[0].submitS
	switch {
	case opt.Window != nil:
		lo, hi := b.start+opt.Window[0]*3600, b.start+opt.Window[1]*3600
		i := sort.Search(len(rows), func(k int) bool { return rows[k].submitS >= lo })
		k := sort.Search(len(rows), func(k int) bool { return rows[k].submitS >= hi })
		b.count(fmt.Sprintf("outside the window %g–%g h", opt.Window[0], opt.Window[1]), len(rows)-(k-i))
		return rows[i:k]
	case opt.BusiestH > 0:
		w := opt.BusiestH * 3600
		best, bestLo, hi := -1, 0, 0
		for lo := range rows { // two pointers: O(n)
			for hi < len(rows) && rows[hi].submitS < rows[lo].submitS+w {
				hi++
			}
			if hi-lo > best {
				best, bestLo = hi-lo, lo
			}
		}
		b.busiestFrom = rows[bestLo].submitS
		b.note(fmt.Sprintf("busiest %g-hour window starts %.0f h after the first submission and holds %d jobs", opt.BusiestH, (b.busiestFrom-b.start)/3600, best))
		b.count(fmt.Sprintf("outside the busiest %g-hour window", opt.BusiestH), len(rows)-best)
		return rows[bestLo : bestLo+best]
	}
	return rows
}

// sample keeps opt.Sample rows drawn without replacement, in time order.
func (b *builder) sample(rows []row, opt Options) []row {
	if opt.Sample == 0 || opt.Sample >= len(rows) {
		if opt.Sample > len(rows) {
			b.note(fmt.Sprintf("asked for a sample of %d jobs but only %d were left; kept them all", opt.Sample, len(rows)))
		}
		return rows
	}
	r := rand.New(rand.NewPCG(opt.Seed, streamSample))
	pick := r.Perm(len(rows))[:opt.Sample]
	sort.Ints(pick)
	out := make([]row, len(pick))
	for i, k := range pick {
		out[i] = rows[k]
	}
	b.count(fmt.Sprintf("not in the sample of %d (seed %d)", opt.Sample, opt.Seed), len(rows)-len(pick))
	return out
}

// mapModels gives each row without a model one of Pollux's six tasks by
// its GPU-hours (spec 000 §5.3), one random number per job in time order.
func (b *builder) mapModels(rows []row, opt Options) {
	share := 0.5
	if opt.BertShare != nil {
		share = *opt.BertShare
	}
	r := rand.New(rand.NewPCG(opt.Seed, streamModels))
	mapped := 0
	for i := range rows {
		if !rows[i].noModel {
			continue
		}
		j := &rows[i].job
		j.Model = workload.PolluxTask(float64(j.GPUs)*j.DurationS/3600, share, r)
		mapped++
	}
	if mapped > 0 {
		b.note(fmt.Sprintf("%d jobs name no model: each got one of Pollux's tasks by its GPU-hours (<1 cifar10 or ncf, 1–10 deepspeech2 or bert (share %g), 10–100 yolov3, ≥100 imagenet)", mapped, share))
	}
}

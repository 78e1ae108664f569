package learn

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Lesson 4: load and the knee of the waiting-time curve.
var lessonLoad = &Lesson{
	ID:       "load",
	Title:    "Load and the knee: a curve, not a number",
	Minutes:  9,
	Scenario: "learn-load",
	Sweep:    true,
	Facts: func(r *Run) map[string]string {
		m := map[string]string{}
		if g := r.Generator(); g != nil {
			gh := g.MeanGPUs() * g.Duration.MeanS / 3600
			m["gpuhours"] = num(math.Round(gh*100) / 100)
			m["full"] = num(math.Round(float64(r.GPUs())/gh*10) / 10)
		}
		if xs := sweepValues(r); len(xs) > 0 {
			m["points"] = fmt.Sprint(len(xs))
			m["min"], m["max"] = num(xs[0]), num(xs[len(xs)-1])
			if g := r.Generator(); g != nil {
				m["maxload"] = pct(g.Load(xs[len(xs)-1], r.GPUs()))
			}
		}
		if ms := r.Scenario.Measure; ms.JobsTo > 0 {
			m["from"], m["to"] = fmt.Sprint(ms.JobsFrom+1), fmt.Sprint(ms.JobsTo)
		}
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "Load", Paras: []string{
			"How long jobs wait depends on how much work arrives. If, every hour, jobs ask for as many GPU-hours as the cluster has GPUs, the load is 100 %: the cluster must be busy every second just to keep up, and any idle moment lets the queue grow for good.",
			"Here a cluster of {gpus} GPUs receives a stream of {jobs} jobs. Each asks for {gpuhours} GPU-hours on average, so the cluster is full at about {full} jobs per hour.",
		}},
		{Title: "A curve, not a number", Paras: []string{
			"One run tells you about one load. To see how waiting grows with load, the page runs the same scenario at {points} arrival rates, from {min} to {max} jobs per hour, and draws FIFO's and SJF's average JCT against the rate: a sweep.",
			"Each point measures jobs {from} to {to} of the stream, so that the empty cluster at the start and the last jobs at the end do not skew it.",
		}},
	},
	Question: Question{
		Prompt: "At {max} jobs per hour the jobs ask for {maxload} of the cluster. How many times FIFO's average JCT at {min} jobs per hour will it be there?",
		Slider: &Slider{Min: 1, Max: 10, Step: 0.1, Start: 2, Unit: "×", Close: 0.5},
		Truth: func(r *Run) (float64, error) {
			s, err := r.Curve("FIFO")
			if err != nil {
				return 0, err
			}
			lo, hi := ends(r, s)
			if math.IsNaN(lo) || math.IsNaN(hi) {
				return 0, fmt.Errorf("the curve has no value at its lowest or highest rate (saturated?)")
			}
			return math.Round(hi/lo*10) / 10, nil
		},
	},
	Figures: []string{FigureCurve},
	Explain: func(r *Run) ([]string, error) {
		s, err := r.Curve("FIFO")
		if err != nil {
			return nil, err
		}
		g := r.Generator()
		if g == nil {
			return nil, fmt.Errorf("this lesson needs the scenario's job generator")
		}
		xs := sweepValues(r)
		var pts []string
		for _, x := range xs {
			pts = append(pts, fmt.Sprintf("%s jobs/h (load %s): %s", num(x), pct(g.Load(x, r.GPUs())), dur(s.At(x))))
		}
		out := []string{"FIFO's average JCT at each arrival rate: " + strings.Join(pts, "; ") + "."}
		if k, ok := knee(r, s); ok {
			out = append(out, fmt.Sprintf("From %s to %s jobs per hour the average grew by only %s. From %s to %s, a step of just %s jobs per hour, it grew by %s. The curve bends up sharply as the load nears and passes 100 %%: that bend is the knee. Near it, a little more load costs a lot more waiting.",
				num(k.x0), num(k.x1), dur(k.early), num(k.x2), num(k.x3), num(k.x3-k.x2), dur(k.late)))
		}
		if sj, err := r.Curve("SJF"); err == nil {
			top := xs[len(xs)-1]
			out = append(out, fmt.Sprintf("SJF bends later: at %s jobs per hour its average is %s against FIFO's %s. Serving short jobs first keeps most jobs out of a long queue, but past 100 %% load the queue grows without end under any policy that does not turn jobs away.",
				num(top), dur(sj.At(top)), dur(s.At(top))))
		}
		return out, nil
	},
	Replay: func(r *Run) (Replay, error) {
		g, xs := r.Generator(), sweepValues(r)
		if g == nil || len(xs) == 0 || r.Scenario.Sweep == nil || len(r.Scenario.Sweep.Params) == 0 {
			return Replay{}, fmt.Errorf("this lesson needs its sweep over the arrival rate")
		}
		x := xs[0]
		for _, v := range xs {
			if g.Load(v, r.GPUs()) <= 1.1 {
				x = v
			}
		}
		return Replay{Path: r.Scenario.Sweep.Params[0], Value: x, Label: num(x) + " jobs/h"}, nil
	},
	Moment: func(r *Run) (Moment, error) {
		p, err := r.Labelled("FIFO")
		if err != nil {
			return Moment{}, err
		}
		st, ok := r.Busiest(p)
		if !ok {
			return Moment{}, fmt.Errorf("no job waited in this run")
		}
		rate := ""
		if g := r.SingleGenerator(); g != nil {
			rate = fmt.Sprintf(" with %s jobs arriving per hour (load %s)", num(g.JobsPerHour), pct(g.Load(g.JobsPerHour, r.GPUs())))
		}
		return Moment{Policy: r.Index(p), T: st.T, Text: fmt.Sprintf("At %s%s, %s wait under FIFO and %d of the %d GPUs are busy.",
			dur(st.T), rate, plural(len(st.Waiting), "job"), r.GPUs()-st.FreeGPUs(), r.GPUs())}, nil
	},
	Challenge: Challenge{
		Text:   "Move the knee to the right: change the cluster or the jobs so that at {max} jobs per hour FIFO's average JCT is at most twice what it is at {min} jobs per hour.",
		Hint:   "What sets the load? The arrival rate, but also the GPU-hours each job asks for and the GPUs there are.",
		Fields: []Field{{"cluster.servers[0].count", "Servers"}, {"workload.generator.duration.mean_s", "Mean run time"}},
		Check: func(r *Run) (bool, string) {
			s, err := r.Curve("FIFO")
			if err != nil {
				return false, err.Error()
			}
			if r.Sweep == nil || !r.Sweep.Complete {
				return false, "The curve is not complete yet."
			}
			xs := sweepValues(r)
			if base := (&Run{Scenario: r.Base}); r.Base != nil {
				if bx := sweepValues(base); len(bx) > 0 && (len(xs) == 0 || xs[len(xs)-1] < bx[len(bx)-1] || xs[0] > bx[0]) {
					return false, fmt.Sprintf("Keep the sweep from %s to %s jobs per hour: the challenge is to change what the cluster can take, not the rates.", num(bx[0]), num(bx[len(bx)-1]))
				}
			}
			lo, hi := ends(r, s)
			ratio := hi / lo
			if math.IsNaN(ratio) {
				return false, "A point of the curve is missing (saturated): the cluster cannot keep up there."
			}
			if ratio <= 2 {
				return true, fmt.Sprintf("At %s jobs per hour FIFO's average is %s, %.1f× its %s at %s jobs per hour.", num(xs[len(xs)-1]), dur(hi), ratio, dur(lo), num(xs[0]))
			}
			return false, fmt.Sprintf("At %s jobs per hour FIFO's average is %s, still %.1f× its %s at %s.", num(xs[len(xs)-1]), dur(hi), ratio, dur(lo), num(xs[0]))
		},
	},
}

// sweepValues are the scenario's swept values, in order.
func sweepValues(r *Run) []float64 {
	if r.Scenario == nil || r.Scenario.Sweep == nil {
		return nil
	}
	xs := append([]float64(nil), r.Scenario.Sweep.Values...)
	sort.Float64s(xs)
	return xs
}

// ends are a series' values at the lowest and highest swept value.
func ends(r *Run, s *Series) (lo, hi float64) {
	xs := sweepValues(r)
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	return s.At(xs[0]), s.At(xs[len(xs)-1])
}

// kneeSpan compares the growth of a curve over its first points (those
// below 70 % load) with its growth over its last step.
type kneeSpan struct {
	x0, x1, x2, x3 float64
	early, late    float64
}

// knee finds the early span (lowest rate to the last rate under 70 %
// load) and the last step of the curve.
func knee(r *Run, s *Series) (kneeSpan, bool) {
	g, xs := r.Generator(), sweepValues(r)
	if g == nil || len(xs) < 3 {
		return kneeSpan{}, false
	}
	k := kneeSpan{x0: xs[0], x1: xs[0], x2: xs[len(xs)-2], x3: xs[len(xs)-1]}
	for _, x := range xs[:len(xs)-1] {
		if g.Load(x, r.GPUs()) < 0.7 {
			k.x1 = x
		}
	}
	if k.x1 == k.x0 || k.x1 >= k.x2 {
		return kneeSpan{}, false
	}
	k.early, k.late = s.At(k.x1)-s.At(k.x0), s.At(k.x3)-s.At(k.x2)
	return k, !math.IsNaN(k.early) && !math.IsNaN(k.late)
}

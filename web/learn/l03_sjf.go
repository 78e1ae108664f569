package learn

import (
	"fmt"
	"math"
)

// Lesson 3: shortest job first, the average against the tail.
var lessonSJF = &Lesson{
	ID:       "sjf",
	Title:    "Shortest job first: the average against the tail",
	Minutes:  8,
	Scenario: "learn-sjf",
	Facts:    func(r *Run) map[string]string { return facts(r, nil) },
	Steps: []Step{
		{Title: "Short jobs first", Paras: []string{
			"At a supermarket, an express lane lets people with a few items pass those with full trolleys. Shortest job first (SJF) does the same: whenever GPUs free up, it starts the waiting job that will run for the shortest time. A long job no longer holds up many short ones, so more jobs finish early and the average completion time drops.",
			"SJF has to know in advance how long each job will run. Real clusters rarely do (lesson 5 is about that); here the simulator tells it.",
		}},
		{Title: "The price", Paras: []string{
			"A long job keeps being passed by shorter ones that arrive after it. While short jobs keep coming, it waits, and may starve. So SJF is good for the average and the median, and can be bad for the slowest jobs: the tail, which the p95 measures.",
			"Here {jobs} jobs of {sizes} GPUs arrive at a {gpus}-GPU cluster over about {arrival}, with run times from a few minutes to several hours ({meanrun} on average). FIFO and SJF both backfill, so the only difference is the order in which they pick jobs.",
		}},
	},
	Question: Question{
		Prompt: "How much lower will SJF's average JCT be than FIFO's?",
		Slider: &Slider{Min: 0, Max: 60, Step: 1, Start: 20, Unit: " %", Close: 5},
		Truth: func(r *Run) (float64, error) {
			f, s, err := sjfPair(r)
			if err != nil {
				return 0, err
			}
			return math.Round(100 * (f.Out.Metrics.AvgJCT - s.Out.Metrics.AvgJCT) / f.Out.Metrics.AvgJCT), nil
		},
	},
	Figures: []string{FigureCDF},
	Explain: func(r *Run) ([]string, error) {
		f, s, err := sjfPair(r)
		if err != nil {
			return nil, err
		}
		fm, sm := f.Out.Metrics, s.Out.Metrics
		fs, _ := f.ShareWithin(fm.P50JCT)
		ss, _ := s.ShareWithin(fm.P50JCT)
		out := []string{fmt.Sprintf("FIFO's average JCT is %s and SJF's %s: %s. The median moves more: %s under FIFO, %s under SJF. In the CDF, go up from %s (FIFO's median): %s of the jobs were done by then under FIFO, %s under SJF.",
			dur(fm.AvgJCT), dur(sm.AvgJCT), change(fm.AvgJCT, sm.AvgJCT), dur(fm.P50JCT), dur(sm.P50JCT), dur(fm.P50JCT), pct(fs), pct(ss))}
		if pa, ok := r.LongestPassed(s); ok {
			st, w := s.Out.Jobs[pa.Started], s.Out.Jobs[pa.Waiter]
			out = append(out, fmt.Sprintf("How: under SJF, at %s, %s (%s long) started while %s (%s long), which had arrived earlier, kept waiting; it had waited %s by then.",
				dur(pa.T), st.ID, dur(s.Solo(pa.Started)), w.ID, dur(s.Solo(pa.Waiter)), dur(pa.T-w.ArrivalS)))
		}
		fw, fi := longestWait(f)
		sw, si := longestWait(s)
		tail := "better"
		if sm.P95JCT > fm.P95JCT {
			tail = "worse"
		}
		line := fmt.Sprintf("The tail: the p95 is %s under FIFO and %s under SJF, so here SJF's tail is %s.", dur(fm.P95JCT), dur(sm.P95JCT), tail)
		if fi >= 0 && si >= 0 {
			line += fmt.Sprintf(" The job that waited longest waited %s under FIFO (%s) and %s under SJF (%s: %d GPUs, %s long alone).",
				dur(fw), f.Out.Jobs[fi].ID, dur(sw), s.Out.Jobs[si].ID, s.Out.Jobs[si].GPUs, dur(s.Solo(si)))
		}
		return append(out, line), nil
	},
	Moment: func(r *Run) (Moment, error) {
		_, s, err := sjfPair(r)
		if err != nil {
			return Moment{}, err
		}
		pa, ok := r.LongestPassed(s)
		if !ok {
			return Moment{}, fmt.Errorf("no job passed a longer one in this run")
		}
		st, w := s.Out.Jobs[pa.Started], s.Out.Jobs[pa.Waiter]
		return Moment{Policy: r.Index(s), T: pa.T, Text: fmt.Sprintf("At %s, SJF starts %s (%s alone) while %s (%s alone) has waited %s.",
			dur(pa.T), st.ID, dur(s.Solo(pa.Started)), w.ID, dur(s.Solo(pa.Waiter)), dur(pa.T-w.ArrivalS))}, nil
	},
	Challenge: Challenge{
		Text:   "Change the job mix so that SJF's p95 JCT is worse than FIFO's.",
		Hint:   "Starvation needs a steady stream of short jobs that keep passing the long ones. Try more jobs per hour, more jobs, or run times that differ less or more (σ).",
		Fields: []Field{{"workload.generator.jobs_per_hour", "Jobs per hour"}, {"workload.generator.jobs", "Jobs"}, {"workload.generator.duration.sigma", "Spread of run times (σ)"}},
		Check: func(r *Run) (bool, string) {
			f, s, err := sjfPair(r)
			if err != nil {
				return false, err.Error()
			}
			fp, sp := f.Out.Metrics.P95JCT, s.Out.Metrics.P95JCT
			if sp > fp {
				return true, fmt.Sprintf("SJF's p95 is %s against FIFO's %s, while its average is %s against %s: better on average, worse in the tail.",
					dur(sp), dur(fp), dur(s.Out.Metrics.AvgJCT), dur(f.Out.Metrics.AvgJCT))
			}
			return false, fmt.Sprintf("SJF's p95 is %s, FIFO's %s: SJF still wins the tail.", dur(sp), dur(fp))
		},
	},
}

// sjfPair finds lesson 3's FIFO and SJF.
func sjfPair(r *Run) (fifo, sjf *Policy, err error) {
	if fifo, err = r.Labelled("FIFO"); err != nil {
		return nil, nil, err
	}
	if sjf, err = r.Labelled("SJF"); err != nil {
		return nil, nil, err
	}
	if fifo.Name != "fifo" || sjf.Name != "sjf" {
		return nil, nil, fmt.Errorf("this lesson compares the policies fifo (“FIFO”) and sjf (“SJF”); reset the lesson to get them back")
	}
	return fifo, sjf, nil
}

// longestWait is the longest queuing delay of p's run and its job (-1:
// none started).
func longestWait(p *Policy) (float64, int) {
	best, at := -1.0, -1
	for i := range p.Out.Jobs {
		if q := p.Queue(i); q > best {
			best, at = q, i
		}
	}
	return best, at
}

package learn

import (
	"errors"
	"fmt"
	"math"
)

// Lesson 5: not knowing durations: least attained service, Tiresias,
// and what preemption costs.
var lessonLAS = &Lesson{
	ID:       "las",
	Title:    "Not knowing how long jobs run: Tiresias and preemption",
	Minutes:  9,
	Scenario: "learn-las",
	Facts: func(r *Run) map[string]string {
		m := map[string]string{}
		if p := r.Scenario; p != nil {
			for i, spec := range p.Policies {
				if p.PolicyLabel(i) == "Tiresias" {
					pp := Policy{Params: PolicyParams(spec)}
					m["round"] = about(param(&pp, "round_s", 60))
					m["restart"] = dur(param(&pp, "restart_s", 30))
				}
			}
		}
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "Nobody knows how long a job will run", Paras: []string{
			"SJF needs every job's run time in advance. Real clusters rarely have it: a training run stops when the model is good enough, and people's estimates are poor. What can a scheduler do without it?",
			"Least attained service (LAS) looks only at the past: it runs first the jobs that have received the least GPU time so far. A new job has received nothing, so it starts at once, pausing a job that has already run for a while. Short jobs finish during their first turn; a long job keeps dropping behind the newcomers, as SJF would have ordered it, without knowing.",
		}},
		{Title: "Tiresias, and the price of pausing", Paras: []string{
			"Tiresias (Gu et al., NSDI 2019) is LAS counted in GPU-time, with a few priority queues: a job drops to a lower queue as its GPU-time passes each threshold. Every {round} it decides again.",
			"Pausing a job is preemption, and it is not free: the job saves a checkpoint, and when it resumes it spends time loading its model and data again, here {restart} each time, doing no training.",
			"The {jobs} jobs here need {sizes} GPUs and arrive over about {arrival} at {gpus} GPUs; their run times range from a minute to many hours. FIFO, SJF (told every run time) and Tiresias run the same jobs.",
		}},
	},
	Question: Question{
		Prompt:  "Where will Tiresias' average JCT land, knowing no run times?",
		Choices: []string{"Worse than FIFO's", "Between FIFO's and SJF's", "Better than SJF's, which knows the run times"},
		Truth: func(r *Run) (float64, error) {
			f, s, t, err := lasTrio(r)
			if err != nil {
				return 0, err
			}
			fa, sa, ta := f.Out.Metrics.AvgJCT, s.Out.Metrics.AvgJCT, t.Out.Metrics.AvgJCT
			switch {
			case ta > math.Max(fa, sa):
				return 0, nil
			case ta < math.Min(fa, sa):
				return 2, nil
			}
			return 1, nil
		},
	},
	Figures: []string{FigureCDF},
	Explain: func(r *Run) ([]string, error) {
		f, s, t, err := lasTrio(r)
		if err != nil {
			return nil, err
		}
		fm, sm, tm := f.Out.Metrics, s.Out.Metrics, t.Out.Metrics
		out := []string{
			fmt.Sprintf("Average JCT: FIFO %s, SJF %s, Tiresias %s. Without knowing a single run time, Tiresias' average is %s FIFO's.",
				dur(fm.AvgJCT), dur(sm.AvgJCT), dur(tm.AvgJCT), than(change(fm.AvgJCT, tm.AvgJCT))),
			fmt.Sprintf("Newcomers start at once: the average job waited %s for its first GPUs under Tiresias, %s under FIFO and %s under SJF. So short jobs do well: the median JCT is %s under Tiresias, %s under SJF and %s under FIFO.",
				dur(tm.AvgQueue), dur(fm.AvgQueue), dur(sm.AvgQueue), dur(tm.P50JCT), dur(sm.P50JCT), dur(fm.P50JCT)),
		}
		restart := param(t, "restart_s", 30)
		lost := 0.0
		for _, pr := range r.Preemptions(t) {
			lost += restart * float64(t.Out.Jobs[pr.Job].GPUs)
		}
		out = append(out, fmt.Sprintf("The price: Tiresias preempted jobs %d times. Each restart cost %s of no training on every GPU of the job, %s of GPU time in all. And the long jobs pay for the short ones: the p95 is %s under Tiresias against %s under SJF.",
			tm.Preemptions, dur(restart), gpuHours(lost), dur(tm.P95JCT), dur(sm.P95JCT)))
		return out, nil
	},
	Moment: func(r *Run) (Moment, error) {
		_, _, t, err := lasTrio(r)
		if err != nil {
			return Moment{}, err
		}
		var best Preemption
		found := false
		for _, pr := range r.Preemptions(t) {
			if pr.By >= 0 && (!found || pr.Attained > best.Attained) {
				best, found = pr, true
			}
		}
		if !found {
			return Moment{}, errors.New("no job was preempted by Tiresias in this run")
		}
		j, by := t.Out.Jobs[best.Job], t.Out.Jobs[best.By]
		return Moment{Policy: r.Index(t), T: best.T, Text: fmt.Sprintf("At %s, Tiresias pauses %s, which has had %s, so that %s, which has had less, can run.",
			dur(best.T), j.ID, gpuHours(best.Attained), by.ID)}, nil
	},
	Challenge: Challenge{
		Text:   "Find a load at which Tiresias, knowing no run times, beats SJF's average JCT.",
		Hint:   "Change how many jobs arrive per hour. When does starting newcomers at once pay off most, and when do the restarts cost most?",
		Fields: []Field{{"workload.generator.jobs_per_hour", "Jobs per hour"}},
		Check: func(r *Run) (bool, string) {
			_, s, t, err := lasTrio(r)
			if err != nil {
				return false, err.Error()
			}
			rate := ""
			if g := r.SingleGenerator(); g != nil {
				rate = fmt.Sprintf("At %s jobs per hour, ", num(g.JobsPerHour))
			}
			sa, ta := s.Out.Metrics.AvgJCT, t.Out.Metrics.AvgJCT
			if ta < sa {
				return true, fmt.Sprintf("%sTiresias averages %s and SJF %s: not knowing run times, but able to pause, it wins.", rate, dur(ta), dur(sa))
			}
			return false, fmt.Sprintf("%sTiresias averages %s, SJF %s.", rate, dur(ta), dur(sa))
		},
	},
}

// lasTrio finds lesson 5's FIFO, SJF and Tiresias.
func lasTrio(r *Run) (fifo, sjf, tiresias *Policy, err error) {
	if fifo, err = r.Labelled("FIFO"); err != nil {
		return
	}
	if sjf, err = r.Labelled("SJF"); err != nil {
		return
	}
	tiresias, err = r.Labelled("Tiresias")
	return
}

// param reads a numeric parameter, def when absent.
func param(p *Policy, key string, def float64) float64 {
	if v, ok := p.Params[key].(float64); ok {
		return v
	}
	return def
}

// gpuHours writes GPU-seconds as GPU-hours: "1.73 GPU-hours".
func gpuHours(s float64) string {
	return fmt.Sprintf("%.2f GPU-hours", s/3600)
}

// than turns change's "47 % lower" into "47 % lower than", and "the
// same" into "the same as".
func than(c string) string {
	if c == "the same" {
		return "the same as"
	}
	return c + " than"
}

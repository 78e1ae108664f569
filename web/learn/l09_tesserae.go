package learn

import (
	"errors"
	"fmt"
	"math"
)

// Lesson 9: migration and packing, Tesserae.
var lessonTesserae = &Lesson{
	ID:       "tesserae",
	Title:    "Moving and packing running jobs: Tesserae",
	Minutes:  8,
	Scenario: "learn-tesserae",
	Facts: func(r *Run) map[string]string {
		m := map[string]string{"round": roundOf(r, "Tesserae", 360)}
		if sc := r.Scenario; sc != nil {
			for i, spec := range sc.Policies {
				if sc.PolicyLabel(i) == "Tesserae" {
					m["migration"] = dur(param(&Policy{Params: PolicyParams(spec)}, "migration_s", 30))
				}
			}
		}
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "Moving a running job", Paras: []string{
			"Once a job starts, most schedulers leave it where it is. Over time the cluster gets untidy: jobs end here and there, and the free GPUs no longer suit the jobs that wait.",
			"Migration moves a running job to other GPUs: it saves its state, stops and starts again there, losing {migration} of training here each time. It costs, but it can make room, or bring jobs that run well together onto the same GPUs.",
		}},
		{Title: "Packing, by Tesserae", Paras: []string{
			"Tesserae (Bian et al., 2025) is a placement layer that works on top of a scheduling policy, here Tiresias' order (least attained service), decided every {round}. At each round it packs: jobs that would otherwise wait share the GPUs of placed jobs when the pair runs well together, from measured pair speeds. Then it lays the new plan onto the GPUs so that as few running jobs as possible have to move.",
			"Plain Tiresias, the other policy here, never shares a GPU and never moves a running job. Both run {jobs} jobs that arrive over about {arrival} at {gpus} GPUs.",
		}},
	},
	Question: Question{
		Prompt:  "How many times will Tesserae migrate a job while these {jobs} jobs run?",
		Choices: []string{"Never", "Fewer than 20 times", "20 to 100 times", "More than 100 times"},
		Truth: func(r *Run) (float64, error) {
			_, t, err := tesseraePair(r)
			if err != nil {
				return 0, err
			}
			switch m := t.Out.Metrics.Migrations; {
			case m == 0:
				return 0, nil
			case m < 20:
				return 1, nil
			case m <= 100:
				return 2, nil
			}
			return 3, nil
		},
	},
	Figures: []string{FigureGantt},
	Explain: func(r *Run) ([]string, error) {
		p, t, err := tesseraePair(r)
		if err != nil {
			return nil, err
		}
		pm, tm := p.Out.Metrics, t.Out.Metrics
		mig := param(t, "migration_s", 30)
		out := []string{
			fmt.Sprintf("Tiresias' average JCT is %s; Tesserae's %s, %s. The last job finishes after %s under Tiresias, %s under Tesserae.",
				dur(pm.AvgJCT), dur(tm.AvgJCT), change(pm.AvgJCT, tm.AvgJCT), dur(pm.Makespan), dur(tm.Makespan)),
			fmt.Sprintf("Tesserae migrated jobs %d times, %s of lost training at %s each, and preempted %d times; Tiresias preempted %d times and migrated none.",
				tm.Migrations, dur(float64(tm.Migrations)*mig), dur(mig), tm.Preemptions, pm.Preemptions),
		}
		if at, n, pairs := mostPairs(t); n > 0 {
			a, b := t.Out.Jobs[pairs[0][0]], t.Out.Jobs[pairs[0][1]]
			out = append(out, fmt.Sprintf("At its busiest, %s into the run, Tesserae had %d pairs of jobs sharing GPUs (%s with %s, for one), where Tiresias would have made one of each pair wait.",
				dur(at), n, a.ID, b.ID))
		}
		return out, nil
	},
	Moment: func(r *Run) (Moment, error) {
		_, t, err := tesseraePair(r)
		if err != nil {
			return Moment{}, err
		}
		at, n, pairs := mostPairs(t)
		if n == 0 {
			return Moment{}, errors.New("no GPU was shared by Tesserae in this run")
		}
		a, b := t.Out.Jobs[pairs[0][0]], t.Out.Jobs[pairs[0][1]]
		return Moment{Policy: r.Index(t), T: at, Text: fmt.Sprintf("At %s, Tesserae runs %d pairs of jobs on shared GPUs, %s with %s among them.", dur(at), n, a.ID, b.ID)}, nil
	},
	Challenge: Challenge{
		Text:   "Make migration expensive enough that Tesserae loses its lead: its average JCT at least Tiresias'.",
		Hint:   "Each move costs a pause. Raise the cost of one migration.",
		Fields: []Field{{"policies[1].params.migration_s", "Cost of one migration"}},
		Check: func(r *Run) (bool, string) {
			p, t, err := tesseraePair(r)
			if err != nil {
				return false, err.Error()
			}
			pa, ta := p.Out.Metrics.AvgJCT, t.Out.Metrics.AvgJCT
			cost := dur(param(t, "migration_s", 30))
			if ta >= pa {
				return true, fmt.Sprintf("At %s per move, Tesserae averages %s against Tiresias' %s, after %d migrations.", cost, dur(ta), dur(pa), t.Out.Metrics.Migrations)
			}
			return false, fmt.Sprintf("At %s per move, Tesserae still averages %s against Tiresias' %s.", cost, dur(ta), dur(pa))
		},
	},
}

// tesseraePair finds lesson 9's Tiresias and Tesserae.
func tesseraePair(r *Run) (tiresias, tesserae *Policy, err error) {
	if tiresias, err = r.Labelled("Tiresias"); err != nil {
		return
	}
	tesserae, err = r.Labelled("Tesserae")
	return
}

// mostPairs is the first instant at which policy p runs the most pairs
// of jobs on shared GPUs, their number and the pairs.
func mostPairs(p *Policy) (float64, int, [][2]int) {
	best, at := 0, math.NaN()
	var pairs [][2]int
	for _, t := range p.Events() {
		if _, ps := p.SharedGPUs(t); len(ps) > best {
			best, at, pairs = len(ps), t, ps
		}
	}
	return at, best, pairs
}

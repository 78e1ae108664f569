package learn

import (
	"fmt"
	"math"
)

// Lesson 2: head-of-line blocking, backfilling, and the big job that
// starves.
var lessonBlocking = &Lesson{
	ID:       "blocking",
	Title:    "Head-of-line blocking and backfilling",
	Minutes:  8,
	Scenario: "learn-blocking",
	Facts: func(r *Run) map[string]string {
		return facts(r, map[string]string{"big": fmt.Sprint(biggest(r)), "bigshare": pct(bigShare(r))})
	},
	Steps: []Step{
		{Title: "A big job at the head of the line", Paras: []string{
			"Some jobs need many GPUs. In this lesson's cluster of {servers} servers with {pergpus} GPUs each, a job of {big} GPUs needs the whole cluster. The {jobs} jobs need {sizes} GPUs; about {bigshare} of them need {big}.",
			"When the first job in the queue needs {big} GPUs and fewer are free, strict FIFO waits: nobody may pass the first job, so the free GPUs stay idle even when the jobs behind it would fit in them. This is head-of-line blocking.",
		}},
		{Title: "Backfilling", Paras: []string{
			"Backfilling lets a later job start in GPUs that the first job cannot use yet. Free GPUs no longer sit idle, so most jobs should finish sooner.",
			"There is a catch. The big job needs all its GPUs free at the same moment, and small jobs that keep slipping in keep taking some of them. The big job may starve.",
			"We run both versions of FIFO, strict and with backfilling, on the same {jobs} jobs.",
		}},
	},
	Question: Question{
		Prompt:  "How will the average JCT change with backfilling, compared with strict FIFO?",
		Choices: []string{"It rises", "About the same (within 10 %)", "10 to 30 % lower", "30 to 60 % lower", "More than 60 % lower"},
		Truth: func(r *Run) (float64, error) {
			s, b, err := blockingPair(r)
			if err != nil {
				return 0, err
			}
			d := (s.Out.Metrics.AvgJCT - b.Out.Metrics.AvgJCT) / s.Out.Metrics.AvgJCT
			switch {
			case d < -0.1:
				return 0, nil
			case d <= 0.1:
				return 1, nil
			case d <= 0.3:
				return 2, nil
			case d <= 0.6:
				return 3, nil
			}
			return 4, nil
		},
	},
	Figures: []string{FigureGantt},
	Explain: func(r *Run) ([]string, error) {
		s, b, err := blockingPair(r)
		if err != nil {
			return nil, err
		}
		out := []string{fmt.Sprintf("Strict FIFO's average JCT is %s; with backfilling it is %s, %s. GPU utilization goes from %s to %s: the GPUs that blocking left idle now run jobs.",
			dur(s.Out.Metrics.AvgJCT), dur(b.Out.Metrics.AvgJCT), change(s.Out.Metrics.AvgJCT, b.Out.Metrics.AvgJCT),
			pct(s.Out.Metrics.Utilization), pct(b.Out.Metrics.Utilization))}
		if bl, ok := r.FirstBlocked(s); ok {
			head := s.Out.Jobs[bl.Head]
			out = append(out, fmt.Sprintf("Under strict FIFO, at %s, %s needs %d GPUs and %d are free: it blocks the queue. %s behind it, and %d of them would fit in the free GPUs.",
				dur(bl.T), head.ID, head.GPUs, bl.FreeGPUs(), plural(len(bl.Behind), "job")+waitwaits(len(bl.Behind)), bl.Fit))
		}
		if big := biggest(r); big > 0 {
			qs, qb := meanQueueOf(s, big), meanQueueOf(b, big)
			line := fmt.Sprintf("Now the big jobs: the %d-GPU jobs waited %s on average under strict FIFO and %s with backfilling.", big, dur(qs), dur(qb))
			if id, ws, wb, ok := worstDelayed(s, b, big); ok {
				line += fmt.Sprintf(" %s waited %s under strict FIFO and %s with backfilling: small jobs kept taking the GPUs it needed. That is starvation, the price of backfilling.", id, dur(ws), dur(wb))
			} else {
				line += " Here no big job waited longer with backfilling."
			}
			out = append(out, line)
		}
		return out, nil
	},
	Moment: func(r *Run) (Moment, error) {
		s, _, err := blockingPair(r)
		if err != nil {
			return Moment{}, err
		}
		bl, ok := r.FirstBlocked(s)
		if !ok {
			return Moment{}, fmt.Errorf("no job blocked the queue in this run")
		}
		head := s.Out.Jobs[bl.Head]
		return Moment{Policy: r.Index(s), T: bl.T, Text: fmt.Sprintf("At %s, %s needs %d GPUs and %d are free; %s behind it.",
			dur(bl.T), head.ID, head.GPUs, bl.FreeGPUs(), plural(len(bl.Behind), "job")+waitwaits(len(bl.Behind)))}, nil
	},
	Challenge: Challenge{
		Text:   "Change the job mix so that backfilling no longer helps: bring the two averages within 5 % of each other, keeping at least {jobs} jobs.",
		Hint:   "What must the jobs look like for one of them to block the others? Look at the GPU mix (the weights are relative: a weight of 0 leaves that size out).",
		Fields: []Field{{"workload.generator.gpu_mix[0].weight", "Weight of 1-GPU jobs"}, {"workload.generator.gpu_mix[1].weight", "Weight of 2-GPU jobs"}, {"workload.generator.gpu_mix[2].weight", "Weight of 8-GPU jobs"}},
		Check: func(r *Run) (bool, string) {
			s, b, err := blockingPair(r)
			if err != nil {
				return false, err.Error()
			}
			if n := baseCount(r); r.JobCount() < n {
				return false, fmt.Sprintf("This run has %d jobs; keep at least the lesson's %d.", r.JobCount(), n)
			}
			a1, a2 := s.Out.Metrics.AvgJCT, b.Out.Metrics.AvgJCT
			d := math.Abs(a1-a2) / a1
			if d <= 0.05 {
				return true, fmt.Sprintf("Strict FIFO's average is %s and backfilling's %s: %s apart. Why does the mix matter?", dur(a1), dur(a2), pct(d))
			}
			return false, fmt.Sprintf("Strict FIFO's average is %s and backfilling's %s: still %s apart.", dur(a1), dur(a2), pct(d))
		},
	},
}

// blockingPair finds lesson 2's strict FIFO and FIFO with backfilling.
func blockingPair(r *Run) (strict, back *Policy, err error) {
	if strict, err = r.Labelled("FIFO (strict)"); err != nil {
		return nil, nil, err
	}
	if back, err = r.Labelled("FIFO (backfill)"); err != nil {
		return nil, nil, err
	}
	if strict.Name != "fifo" || strict.Bool("backfill", true) || back.Name != "fifo" || !back.Bool("backfill", true) {
		return nil, nil, fmt.Errorf("this lesson compares FIFO without backfilling (“FIFO (strict)”) and with it (“FIFO (backfill)”); reset the lesson to get them back")
	}
	return strict, back, nil
}

// biggest is the largest GPU count of the scenario's jobs.
func biggest(r *Run) int {
	big := 0
	for _, p := range r.Policies {
		for _, j := range p.Out.Jobs {
			big = max(big, j.GPUs)
		}
	}
	if big == 0 {
		if g := r.Generator(); g != nil {
			for _, m := range g.GPUMix {
				if m.Weight > 0 {
					big = max(big, int(m.GPUs))
				}
			}
		}
	}
	return big
}

// bigShare is the share of the generator's jobs that ask for the most GPUs.
func bigShare(r *Run) float64 {
	g := r.Generator()
	if g == nil {
		return math.NaN()
	}
	big, all := 0.0, 0.0
	for _, m := range g.GPUMix {
		all += m.Weight
		if int(m.GPUs) == biggest(r) {
			big += m.Weight
		}
	}
	return big / all
}

// meanQueueOf is the mean queuing delay of the jobs of exactly gpus GPUs.
func meanQueueOf(p *Policy, gpus int) float64 {
	var qs []float64
	for i, j := range p.Out.Jobs {
		if j.GPUs == gpus {
			qs = append(qs, p.Queue(i))
		}
	}
	return mean(qs)
}

// worstDelayed is the job of gpus GPUs whose queuing delay grew most from
// run a to run b (the same jobs), if any grew.
func worstDelayed(a, b *Policy, gpus int) (id string, qa, qb float64, ok bool) {
	most := 0.0
	for i, j := range a.Out.Jobs {
		k := b.Index(j.ID)
		if j.GPUs != gpus || k < 0 {
			continue
		}
		if d := b.Queue(k) - a.Queue(i); d > most {
			most, id, qa, qb, ok = d, j.ID, a.Queue(i), b.Queue(k), true
		}
	}
	return
}

// waitwaits is " waits" or " wait" after a count.
func waitwaits(n int) string {
	if n == 1 {
		return " waits"
	}
	return " wait"
}

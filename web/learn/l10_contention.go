package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Lesson 10: communication contention, and SJF-BCO.
var lessonContention = &Lesson{
	ID:       "contention",
	Title:    "Jobs that talk over the network: contention and SJF-BCO",
	Minutes:  8,
	Scenario: "learn-contention",
	Facts: func(r *Run) map[string]string {
		m := map[string]string{}
		if b, ok := ringBeta(r); ok {
			m["beta"] = num(b)
		}
		if x, ok := ringR(r); ok {
			m["r"] = num(x)
		}
		listFacts(r, m)
		m["spreadover"], m["atonce"] = spreadFacts(r)
		m["target"] = num(contentionTarget)
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "A training step is also a conversation", Paras: []string{
			"A job on several GPUs trains in steps. Each GPU computes on its part of the data; then all of them combine what they computed, passing it around a ring from GPU to GPU: the all-reduce. Inside a server the ring uses fast links. Between servers it uses the network, {r} times slower here.",
			"When several jobs are spread over the same servers, their rings share each server's network link: each gets a part of its bandwidth, and every step takes longer. That is communication contention.",
		}},
		{Title: "Packed, spread, or balanced", Paras: []string{
			"Here {jobs} {jobsize} jobs wait at the start for {servers} servers of {pergpus} GPUs. Packed, each job runs inside one server when it fits there. Spread, each job is spread over {spreadover} servers, so a server's link carries the rings of up to {atonce} jobs at once. SJF-BCO (Yu et al., 2022) places jobs so that no server's link carries too many rings and big jobs go to the least busy servers.",
			"In this set-up, a job alone spends a fraction β = {beta} of a step's time exchanging over the network (on top of computing); contention multiplies that part.",
		}},
	},
	Question: Question{
		Prompt: "How many times as long will a spread job run as a packed one, once started?",
		Slider: &Slider{Min: 1, Max: 4, Step: 0.1, Start: 1.5, Unit: "×", Close: 0.25},
		Truth: func(r *Run) (float64, error) {
			p, s, _, err := contentionTrio(r)
			if err != nil {
				return 0, err
			}
			return math.Round(s.MeanRunning()/p.MeanRunning()*10) / 10, nil
		},
	},
	Figures: []string{FigureGantt},
	Explain: func(r *Run) ([]string, error) {
		p, s, b, err := contentionTrio(r)
		if err != nil {
			return nil, err
		}
		out := []string{fmt.Sprintf("Packed, a job ran %s once started; spread, %s: %.2f times as long. The average JCT, waiting included: packed %s, spread %s, SJF-BCO %s.",
			dur(p.MeanRunning()), dur(s.MeanRunning()), s.MeanRunning()/p.MeanRunning(), dur(p.Out.Metrics.AvgJCT), dur(s.Out.Metrics.AvgJCT), dur(b.Out.Metrics.AvgJCT))}
		if sp, ok := meanSplit(s); ok {
			line := fmt.Sprintf("Where a spread job's step went: %s computing, %s exchanging over the network at full speed, %s more because the rings share each link (contention), and %s of overhead for spanning several servers",
				ms(sp.Compute), ms(sp.Inter), ms(sp.Contention), ms(sp.Overhead))
			if pp, ok := meanSplit(p); ok {
				line += fmt.Sprintf(". A packed job's step took %s in all, %s of it exchanging inside its server", ms(pp.Compute+pp.Intra+pp.Inter+pp.Contention+pp.Overhead+pp.Rounding), ms(pp.Intra))
			}
			out = append(out, line+".")
		}
		out = append(out, fmt.Sprintf("Jobs spread over several servers: packed %d, spread %d, SJF-BCO %d of %d. Where every job fits in a server, avoiding contention is easy; SJF-BCO earns its keep on mixed sizes, where some rings must cross servers and the question is which links carry them.",
			r.Split(p), r.Split(s), r.Split(b), len(s.Out.Jobs)))
		return out, nil
	},
	Moment: func(r *Run) (Moment, error) {
		_, s, _, err := contentionTrio(r)
		if err != nil {
			return Moment{}, err
		}
		for i, j := range s.Out.Jobs {
			if j.StartS == nil {
				continue
			}
			t := *j.StartS
			sv := r.ServersOf(s, i, t)
			if len(sv) < 2 {
				continue
			}
			names := make([]string, len(sv))
			for k, x := range sv {
				names[k] = fmt.Sprintf("server %d", x)
			}
			running := len(r.At(s, t).Running)
			return Moment{Policy: r.Index(s), T: t, Text: fmt.Sprintf("At %s, %s runs on %s, one GPU each; %s running at once share those servers' links.",
				dur(t), j.ID, strings.Join(names, ", "), plural(running, "job"))}, nil
		}
		return Moment{}, fmt.Errorf("no spread job ran over several servers here")
	},
	Challenge: Challenge{
		Text:   "Give the cluster a faster network: lower the share of a step spent exchanging (β) until a spread job runs at most {target} times as long as a packed one.",
		Hint:   "β is the part of a step a job alone spends on the network; a faster network makes it smaller. Contention multiplies only that part.",
		Fields: []Field{{"perf.params.beta", "Exchange share of a step (β)"}},
		Check: func(r *Run) (bool, string) {
			p, s, _, err := contentionTrio(r)
			if err != nil {
				return false, err.Error()
			}
			ratio := s.MeanRunning() / p.MeanRunning()
			b := ""
			if x, ok := ringBeta(r); ok {
				b = fmt.Sprintf("With β = %s, ", num(x))
			}
			status := fmt.Sprintf("%sa spread job runs %s, %.2f times a packed job's %s.", b, dur(s.MeanRunning()), ratio, dur(p.MeanRunning()))
			return ratio <= contentionTarget, status
		},
	},
}

// contentionTrio finds lesson 10's packed and spread First-Fit, and SJF-BCO.
func contentionTrio(r *Run) (packed, spread, bco *Policy, err error) {
	if packed, err = r.Labelled("Packed"); err != nil {
		return
	}
	if spread, err = r.Labelled("Spread"); err != nil {
		return
	}
	if bco, err = r.Labelled("SJF-BCO"); err != nil {
		return
	}
	if packed.Bool("spread", false) || !spread.Bool("spread", false) {
		return nil, nil, nil, fmt.Errorf("this lesson compares First-Fit packed and spread; reset the lesson to get them back")
	}
	return
}

// ringBeta reads the ring model's exchange share β.
func ringBeta(r *Run) (float64, bool) {
	sc := r.Single
	if sc == nil {
		sc = r.Scenario
	}
	if sc == nil {
		return 0, false
	}
	var p struct {
		Preset string   `json:"preset"`
		Beta   *float64 `json:"beta"`
	}
	if json.Unmarshal(sc.Perf.Params, &p) != nil || p.Preset != "custom" || p.Beta == nil {
		return 0, false
	}
	return *p.Beta, true
}

// ringR reads the ring model's R, intra- over inter-server bandwidth.
func ringR(r *Run) (float64, bool) {
	sc := r.Single
	if sc == nil {
		sc = r.Scenario
	}
	if sc == nil {
		return 0, false
	}
	var p struct {
		Preset string   `json:"preset"`
		R      *float64 `json:"r"`
	}
	if json.Unmarshal(sc.Perf.Params, &p) != nil || p.Preset != "custom" || p.R == nil {
		return 0, false
	}
	return *p.R, true
}

// split is the mean split of a step's time over a policy's jobs.
type split struct {
	Compute, Intra, Inter, Contention, Overhead, Rounding float64
}

// meanSplit averages the jobs' iteration splits.
func meanSplit(p *Policy) (split, bool) {
	var s split
	n := 0
	for _, j := range p.Out.Jobs {
		if x := j.IterSplit; x != nil {
			s.Compute += x.Compute
			s.Intra += x.Intra
			s.Inter += x.Inter
			s.Contention += x.Contention
			s.Overhead += x.Overhead
			s.Rounding += x.Rounding
			n++
		}
	}
	if n == 0 {
		return s, false
	}
	k := float64(n)
	return split{s.Compute / k, s.Intra / k, s.Inter / k, s.Contention / k, s.Overhead / k, s.Rounding / k}, true
}

// ms writes seconds as milliseconds: "29.5 ms".
func ms(s float64) string { return fmt.Sprintf("%.1f ms", 1000*s) }

// spreadFacts are, for jobs all of one size, the servers a spread job
// spans (one GPU on each, as far as the servers go) and how many such
// jobs run at once on the cluster; "–" when the sizes differ.
func spreadFacts(r *Run) (over, atOnce string) {
	if r.Scenario == nil || len(r.Servers) == 0 {
		return "–", "–"
	}
	sizes := sizesOf(r.Scenario.Workload.Jobs)
	if len(sizes) != 1 {
		return "–", "–"
	}
	n := sizes[0]
	return fmt.Sprint(min(n, len(r.Servers))), fmt.Sprint(min(len(r.Scenario.Workload.Jobs), r.GPUs()/n))
}

// contentionTarget is lesson 10's challenge: a spread job's run time at
// most this many times a packed one's.
const contentionTarget = 1.3

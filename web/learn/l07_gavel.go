package learn

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Lesson 7: heterogeneous GPUs and Gavel's effective throughput.
var lessonGavel = &Lesson{
	ID:       "gavel",
	Title:    "Three kinds of GPU: Gavel's effective throughput",
	Minutes:  9,
	Scenario: "learn-gavel",
	Facts: func(r *Run) map[string]string {
		m := map[string]string{"types": strings.Join(gpuTypes(r), ", "), "round": roundOf(r, "Gavel", 360)}
		listFacts(r, m)
		if sp := speedups(r); len(sp) >= 2 {
			hi, lo := sp[0], sp[len(sp)-1]
			m["gain"] = fmt.Sprintf("%s trains %s, while %s trains %s", hi.model, hi.words(), lo.model, lo.words())
		}
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "Not all GPUs are equal", Paras: []string{
			"This cluster has three kinds of GPU: {types}. A newer GPU is faster, but not by the same factor for every model: one that spends its time in large matrix products gains a lot, one that waits on memory or on the processor gains little. From the measured speeds this simulation uses: {gain}.",
			"So the question is not only who runs, but who runs on which kind of GPU. A policy that treats all GPUs alike wastes the fast ones on jobs that barely gain from them.",
		}},
		{Title: "Effective throughput", Paras: []string{
			"Gavel (Narayanan et al., OSDI 2020) gives each job a share of time on each GPU type. A job's effective throughput is its speed on each type weighted by its share of time there. Gavel chooses the shares so that the policy's goal holds in effective throughput; here the goal is least attained service, fairly counted across types. It carries the shares out in rounds of {round}.",
			"The agnostic policy runs the same goal as if every GPU were the same. Both run {jobs} {jobsize} jobs that arrive {every} on {gpus} GPUs.",
		}},
	},
	Question: Question{
		Prompt: "How much lower will Gavel's average JCT be than the agnostic policy's?",
		Slider: &Slider{Min: 0, Max: 60, Step: 1, Start: 10, Unit: " %", Close: 5},
		Truth: func(r *Run) (float64, error) {
			a, g, err := gavelPair(r)
			if err != nil {
				return 0, err
			}
			return math.Round(100 * (a.Out.Metrics.AvgJCT - g.Out.Metrics.AvgJCT) / a.Out.Metrics.AvgJCT), nil
		},
	},
	Figures: []string{FigureGantt},
	Explain: func(r *Run) ([]string, error) {
		a, g, err := gavelPair(r)
		if err != nil {
			return nil, err
		}
		out := []string{fmt.Sprintf("The agnostic policy's average JCT is %s; Gavel's %s, %s. Its makespan goes from %s to %s: the same work finishes sooner when each job runs where it gains most.",
			dur(a.Out.Metrics.AvgJCT), dur(g.Out.Metrics.AvgJCT), change(a.Out.Metrics.AvgJCT, g.Out.Metrics.AvgJCT), dur(a.Out.Metrics.Makespan), dur(g.Out.Metrics.Makespan))}
		sp := speedups(r)
		if len(sp) < 2 {
			return out, nil
		}
		hi, lo := sp[0], sp[len(sp)-1]
		for _, s := range []speedup{hi, lo} {
			i := g.Index(s.job)
			k := a.Index(s.job)
			if i < 0 || k < 0 {
				continue
			}
			gs, as := received(g, i), received(a, k)
			if len(gs) == 0 || len(as) == 0 {
				continue
			}
			out = append(out, fmt.Sprintf("%s (%s, which trains %s) spent %s under Gavel, and %s under the agnostic policy (the rest of its time it waited). While it ran, its effective throughput was %s iterations per second under Gavel against %s.",
				s.job, s.model, s.words(), shareWords(gs), shareWords(as), num(math.Round(effective(s, gs)*100)/100), num(math.Round(effective(s, as)*100)/100)))
		}
		return out, nil
	},
	Moment: func(r *Run) (Moment, error) {
		_, g, err := gavelPair(r)
		if err != nil {
			return Moment{}, err
		}
		sp := speedups(r)
		if len(sp) < 2 {
			return Moment{}, fmt.Errorf("the run's models have no measured speeds")
		}
		types := r.gpuTypeOf()
		ratio := map[string]float64{}
		for _, s := range sp {
			ratio[s.job] = s.ratio
		}
		// The first instant at which Gavel has the job that gains most
		// from a V100, among those running, on a V100 and the one that
		// gains least on a K80.
		for _, t := range g.Events() {
			on := g.gpusAt(t)
			var fast, slow string
			bestFast, bestSlow := 0.0, math.Inf(1)
			for i, gpus := range on {
				id := g.Out.Jobs[i].ID
				switch types[gpus[0]] {
				case "V100":
					if ratio[id] > bestFast {
						fast, bestFast = id, ratio[id]
					}
				case "K80":
					if ratio[id] < bestSlow {
						slow, bestSlow = id, ratio[id]
					}
				}
			}
			if fast != "" && slow != "" && bestFast > 1.5*bestSlow {
				return Moment{Policy: r.Index(g), T: t, Text: fmt.Sprintf("At %s, Gavel runs %s (which trains %s) on a V100, and %s (which trains %s) on a K80.",
					dur(t), fast, speedup{ratio: bestFast}.words(), slow, speedup{ratio: bestSlow}.words())}, nil
			}
		}
		return Moment{}, errors.New("here Gavel never ran a big gainer on a V100 beside a small one on a K80")
	},
	Challenge: Challenge{
		Text:   "Make knowing the GPU types pointless: change the cluster so that Gavel's average JCT is within 3 % of the agnostic policy's, keeping the {jobs} jobs.",
		Hint:   "Gavel's gain comes from differences between the GPUs. The cluster has three server groups: look at their GPU types.",
		Fields: []Field{{"cluster.servers[0].gpu_type", "GPU type of group 1"}, {"cluster.servers[1].gpu_type", "GPU type of group 2"}, {"cluster.servers[2].gpu_type", "GPU type of group 3"}},
		Check: func(r *Run) (bool, string) {
			a, g, err := gavelPair(r)
			if err != nil {
				return false, err.Error()
			}
			if n := baseCount(r); r.JobCount() < n {
				return false, fmt.Sprintf("This run has %d jobs; keep the lesson's %d.", r.JobCount(), n)
			}
			aa, ga := a.Out.Metrics.AvgJCT, g.Out.Metrics.AvgJCT
			d := math.Abs(aa-ga) / aa
			if d <= 0.03 {
				return true, fmt.Sprintf("On %s, the agnostic policy averages %s and Gavel %s: %s apart.", strings.Join(gpuTypes(r), ", "), dur(aa), dur(ga), pct(d))
			}
			return false, fmt.Sprintf("On %s, the agnostic policy averages %s and Gavel %s: still %s apart.", strings.Join(gpuTypes(r), ", "), dur(aa), dur(ga), pct(d))
		},
	},
}

// gavelPair finds lesson 7's agnostic policy and Gavel.
func gavelPair(r *Run) (agnostic, gavel *Policy, err error) {
	if agnostic, err = r.Labelled("LAS (agnostic)"); err != nil {
		return
	}
	if gavel, err = r.Labelled("Gavel"); err != nil {
		return
	}
	if agnostic.Bool("aware", true) || !gavel.Bool("aware", true) {
		return nil, nil, fmt.Errorf("this lesson compares Gavel's policy unaware of GPU types with the aware one; reset the lesson to get them back")
	}
	return
}

// gpuTypes lists the cluster's GPU types, as many as each: "2 V100, 2
// P100, 2 K80".
func gpuTypes(r *Run) []string {
	var order []string
	n := map[string]int{}
	for _, s := range r.Servers {
		if n[s.Type] == 0 {
			order = append(order, s.Type)
		}
		n[s.Type] += s.GPUs
	}
	out := make([]string, len(order))
	for i, t := range order {
		out[i] = fmt.Sprintf("%d %s", n[t], t)
	}
	return out
}

// gpuTypeOf is each GPU's type.
func (r *Run) gpuTypeOf() []string {
	var out []string
	for _, s := range r.Servers {
		for range s.GPUs {
			out = append(out, s.Type)
		}
	}
	return out
}

// speedup is how much faster a job trains on a V100 than on a K80, from
// the measured throughputs the simulation uses.
type speedup struct {
	job, model string
	ratio      float64
	v100, k80  float64
	rate       map[string]float64 // iterations per second by GPU type
}

// words says how a job's speed differs between V100 and K80: "8.8 times
// as fast on a V100 as on a K80", "1.4 times as fast on a K80 as on a
// V100".
func (s speedup) words() string {
	if s.ratio >= 1 {
		return fmt.Sprintf("%.1f times as fast on a V100 as on a K80", s.ratio)
	}
	return fmt.Sprintf("%.1f times as fast on a K80 as on a V100", 1/s.ratio)
}

// speedups ranks the scenario's jobs by their V100 over K80 speed, most
// first; one job per model.
func speedups(r *Run) []speedup {
	sc := r.Single
	if sc == nil {
		sc = r.Scenario
	}
	if sc == nil || len(sc.Workload.Jobs) == 0 {
		return nil
	}
	th, err := perf.NewThroughput(perf.ThroughputParams{})
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []speedup
	for _, j := range sc.Workload.Jobs {
		if seen[j.Model] {
			continue
		}
		seen[j.Model] = true
		job := workload.Job{Model: j.Model, BatchSize: j.BatchSize, GPUs: j.GPUs}
		s := speedup{job: j.Name, model: j.Model, rate: map[string]float64{}}
		for _, t := range []string{"V100", "P100", "K80"} {
			s.rate[t] = th.SoloThroughput(&job, t)
		}
		s.v100, s.k80 = s.rate["V100"], s.rate["K80"]
		if s.v100 <= 0 || s.k80 <= 0 {
			continue
		}
		s.ratio = s.v100 / s.k80
		out = append(out, s)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].ratio > out[b].ratio })
	return out
}

// received is the share of its running time job i got on each GPU type,
// the last value of the policy's series gavel/received/TYPE.
func received(p *Policy, i int) map[string]float64 {
	out := map[string]float64{}
	for _, s := range p.Out.Series {
		t, ok := strings.CutPrefix(s.Name, "gavel/received/")
		if !ok || s.Job != i || len(s.V) == 0 {
			continue
		}
		out[t] = s.V[len(s.V)-1]
	}
	return out
}

// shareWords writes shares by type: "71 % of its time on V100s, 14 % on
// P100s and 14 % on K80s".
func shareWords(sh map[string]float64) string {
	var parts []string
	for _, t := range []string{"V100", "P100", "K80"} {
		if v, ok := sh[t]; ok {
			parts = append(parts, fmt.Sprintf("%s on %ss", pct(v), t))
		}
	}
	if len(parts) == 0 {
		return "–"
	}
	parts[0] = strings.Replace(parts[0], " on ", " of its time on ", 1)
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// effective is a job's effective throughput under shares sh: its speed on
// each type weighted by its share of running time there.
func effective(s speedup, sh map[string]float64) float64 {
	sum, w := 0.0, 0.0
	for t, v := range sh {
		sum += v * s.rate[t]
		w += v
	}
	if w == 0 {
		return math.NaN()
	}
	return sum / w
}

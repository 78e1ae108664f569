package learn

import (
	"fmt"
	"math"
)

// Lesson 6: fragmentation, and placing a job across servers.
var lessonPlacement = &Lesson{
	ID:       "placement",
	Title:    "Fragmentation: enough GPUs, in the wrong places",
	Minutes:  7,
	Scenario: "learn-placement",
	Facts: func(r *Run) map[string]string {
		m := map[string]string{}
		listFacts(r, m)
		m["leaving"] = leftOnEach(r)
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "Where a job runs", Paras: []string{
			"So far a policy only chose who runs next. It must also choose where: on which GPUs of which servers. That is placement.",
			"GPUs inside one server exchange data over fast links; GPUs of different servers talk over the network, which is slower. A job spread over two servers may train more slowly. So many clusters keep a job that fits on one server on one server, and make it wait when no server has room for all of it: strict placement. Consolidated placement also prefers one server, but spreads a job over several when that lets it start now.",
		}},
		{Title: "Scattered free GPUs", Paras: []string{
			"Here {servers} servers of {pergpus} GPUs each start with {startjobs} of {startgpus} GPUs that run long{leaving}. Smaller jobs of {latersizes} GPUs arrive {every}. Free GPUs scattered over servers, too few on any one of them, is fragmentation.",
			"Both policies are FIFO; only the placement differs. In this simulation a job spread over servers runs as fast as on one, so the cost of strict placement shows alone.",
		}},
	},
	Question: Question{
		Prompt:  "How will strict placement change FIFO's average JCT?",
		Choices: []string{"Lower it", "No change (within 5 %)", "5 to 20 % higher", "20 to 50 % higher", "More than 50 % higher"},
		Truth: func(r *Run) (float64, error) {
			c, s, err := placementPair(r)
			if err != nil {
				return 0, err
			}
			d := (s.Out.Metrics.AvgJCT - c.Out.Metrics.AvgJCT) / c.Out.Metrics.AvgJCT
			switch {
			case d < -0.05:
				return 0, nil
			case d <= 0.05:
				return 1, nil
			case d <= 0.2:
				return 2, nil
			case d <= 0.5:
				return 3, nil
			}
			return 4, nil
		},
	},
	Figures: []string{FigureGantt},
	Explain: func(r *Run) ([]string, error) {
		c, s, err := placementPair(r)
		if err != nil {
			return nil, err
		}
		cm, sm := c.Out.Metrics, s.Out.Metrics
		out := []string{fmt.Sprintf("Consolidated placement: average JCT %s, average wait %s, utilization %s. Strict placement: %s, %s and %s. The average is %s.",
			dur(cm.AvgJCT), dur(cm.AvgQueue), pct(cm.Utilization), dur(sm.AvgJCT), dur(sm.AvgQueue), pct(sm.Utilization), change(cm.AvgJCT, sm.AvgJCT))}
		if sc, ok := r.FirstScattered(s); ok {
			head := s.Out.Jobs[sc.Head]
			out = append(out, fmt.Sprintf("Why: under strict placement, at %s, %s needs %d GPUs and %d are free, but no server has more than %d free, so it waits. Consolidated placement would have spread it over %d servers at once. In the Gantt charts, look for GPUs left idle under strict placement while jobs wait.",
				dur(sc.T), head.ID, head.GPUs, sc.FreeGPUs(), sc.MostOnOne, int(math.Ceil(float64(head.GPUs)/float64(max(sc.MostOnOne, 1))))))
		}
		out = append(out, "Strict placement is not wrong: on a real cluster a job spread over servers exchanges data over the network at every step and runs slower. Which placement wins depends on that slowdown and on how well job sizes fit server sizes; lesson 10 measures the network's cost.")
		return out, nil
	},
	Moment: func(r *Run) (Moment, error) {
		_, s, err := placementPair(r)
		if err != nil {
			return Moment{}, err
		}
		sc, ok := r.FirstScattered(s)
		if !ok {
			return Moment{}, fmt.Errorf("no job waited on scattered GPUs in this run")
		}
		head := s.Out.Jobs[sc.Head]
		return Moment{Policy: r.Index(s), T: sc.T, Text: fmt.Sprintf("At %s, %s needs %d GPUs; %d are free, but no server has more than %d.",
			dur(sc.T), head.ID, head.GPUs, sc.FreeGPUs(), sc.MostOnOne)}, nil
	},
	Challenge: Challenge{
		Text:   "Keep the {gpus} GPUs, but arrange them in other servers so that strict placement costs (almost) nothing: bring the two averages within 2 % of each other.",
		Hint:   "Fragmentation comes from how job sizes fit server sizes. Try fewer, bigger servers, or more, smaller ones (servers × GPUs per server must stay {gpus}).",
		Fields: []Field{{"cluster.servers[0].count", "Servers"}, {"cluster.servers[0].gpus", "GPUs per server"}},
		Check: func(r *Run) (bool, string) {
			c, s, err := placementPair(r)
			if err != nil {
				return false, err.Error()
			}
			if base := (&Run{Scenario: r.Base}); r.Base != nil {
				if n := baseGPUs(base); r.GPUs() != n {
					return false, fmt.Sprintf("This cluster has %d GPUs; keep %d, arranged differently.", r.GPUs(), n)
				}
			}
			ca, sa := c.Out.Metrics.AvgJCT, s.Out.Metrics.AvgJCT
			d := math.Abs(sa-ca) / ca
			shape := fmt.Sprintf("With %d servers of %d GPUs", len(r.Servers), r.Servers[0].GPUs)
			if d <= 0.02 {
				return true, fmt.Sprintf("%s, consolidated averages %s and strict %s: %s apart.", shape, dur(ca), dur(sa), pct(d))
			}
			return false, fmt.Sprintf("%s, consolidated averages %s and strict %s: %s apart.", shape, dur(ca), dur(sa), pct(d))
		},
	},
}

// placementPair finds lesson 6's FIFO with consolidated and with strict
// placement.
func placementPair(r *Run) (cons, strict *Policy, err error) {
	if cons, err = r.Labelled("FIFO, consolidated"); err != nil {
		return
	}
	if strict, err = r.Labelled("FIFO, strict"); err != nil {
		return
	}
	if cons.String("placement", "consolidated") != "consolidated" || strict.String("placement", "consolidated") != "strict" {
		return nil, nil, fmt.Errorf("this lesson compares FIFO with consolidated and with strict placement; reset the lesson to get them back")
	}
	return
}

// baseGPUs counts the GPUs of a scenario's cluster as written.
func baseGPUs(r *Run) int {
	n := 0
	for _, g := range r.Scenario.Cluster.Servers {
		n += g.Count * g.GPUs
	}
	return n
}

// leftOnEach says what the jobs that arrive at the start leave free when
// there is one on each server, all of one size: ", one on each server,
// leaving 1 GPU free on each: 4 GPUs free in all, but only 1 on any one
// server"; "" otherwise.
func leftOnEach(r *Run) string {
	if r.Scenario == nil || len(r.Servers) == 0 {
		return ""
	}
	var first []int
	for _, j := range r.Scenario.Workload.Jobs {
		if j.ArrivalS == 0 {
			first = append(first, j.GPUs)
		}
	}
	if len(first) != len(r.Servers) {
		return ""
	}
	free := r.Servers[0].GPUs - first[0]
	for i, s := range r.Servers {
		if s.GPUs != r.Servers[0].GPUs || first[i] != first[0] {
			return ""
		}
	}
	if free <= 0 || 2*first[0] <= r.Servers[0].GPUs { // two would fit on one server

		return ""
	}
	return fmt.Sprintf(", one on each server, leaving %s free on each: %s free in all, but only %d on any one server",
		plural(free, "GPU"), plural(free*len(r.Servers), "GPU"), free)
}

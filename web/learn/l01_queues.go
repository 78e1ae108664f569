package learn

import "fmt"

// Lesson 1: what a job's completion time is, FIFO and the queue, and how
// to read a CDF.
var lessonQueues = &Lesson{
	ID:       "queues",
	Title:    "Waiting in line: completion time, FIFO and the CDF",
	Minutes:  7,
	Scenario: "learn-queues",
	Facts:    func(r *Run) map[string]string { return facts(r, map[string]string{"within": about(queuesWithin)}) },
	Steps: []Step{
		{Title: "Jobs, GPUs and waiting", Paras: []string{
			"A GPU cluster is shared by many people, each submitting training jobs. A job asks for a number of GPUs and runs on them, without a break, until it is done. A scheduling policy decides which waiting job starts whenever GPUs become free.",
			"In this lesson the cluster has {servers} servers of {pergpus} GPUs, {gpus} GPUs in all, and {jobs} jobs of {sizes} GPUs arrive over about {arrival}. Their run times are drawn at random, about {meanrun} on average, some much longer, some shorter. The policy is FIFO, first in, first out: jobs start strictly in the order they arrived, like people at a counter.",
			"What the people who submitted the jobs care about is each job's completion time (JCT): from the moment it arrives to the moment it finishes. It is the time the job waited in the queue plus the time it ran.",
		}},
		{Title: "Reading a CDF", Paras: []string{
			"With many jobs there are many completion times, and an average hides how they spread. So schedlab draws a CDF: for each time on the x axis, the share of jobs that finished within that time. The curve starts at 0 % and climbs to 100 % at the slowest job.",
			"To read it, go up from a time on the x axis to the curve, then across to the y axis: that is the share of jobs done within that time. Or go across from 50 % to the curve and down: that is the median completion time. A curve further left is faster.",
		}},
	},
	Question: Question{
		Prompt: "A job runs about {meanrun} on average once it starts. What share of the {jobs} jobs will finish within {within} of arriving?",
		Slider: &Slider{Min: 0, Max: 100, Step: 5, Start: 50, Unit: " %", Close: 10},
		Truth: func(r *Run) (float64, error) {
			p, err := r.Labelled("FIFO")
			if err != nil {
				return 0, err
			}
			share, _ := p.ShareWithin(queuesWithin)
			return 100 * share, nil
		},
	},
	Figures: []string{FigureCDF},
	Explain: func(r *Run) ([]string, error) {
		p, err := r.Labelled("FIFO")
		if err != nil {
			return nil, err
		}
		m := p.Out.Metrics
		share, n := p.ShareWithin(queuesWithin)
		out := []string{
			fmt.Sprintf("The %d jobs ran for %s on average once started, but their average JCT was %s: on top of running, they waited %s on average in the queue. A job's JCT is its waiting plus its running.",
				len(p.Out.Jobs), dur(p.MeanRunning()), dur(m.AvgJCT), dur(m.AvgQueue)),
			fmt.Sprintf("%d of the %d jobs (%s) finished within %s of arriving. In the CDF below, go up from %s on the x axis: the curve is at %s there.",
				n, len(p.Out.Jobs), pct(share), about(queuesWithin), dur(queuesWithin), pct(share)),
			fmt.Sprintf("Across from 50 %%: the median JCT is %s, so half the jobs took longer than that. Across from 95 %%: the p95 is %s; only one job in twenty took longer.",
				dur(m.P50JCT), dur(m.P95JCT)),
		}
		if st, ok := r.Busiest(p); ok {
			line := fmt.Sprintf("Why so long? The busiest moment came %s into the run: %s waiting while %d of the %d GPUs were busy. FIFO serves them one after another, and every minute a job waits adds a minute to its JCT.",
				dur(st.T), plural(len(st.Waiting), "job")+werewas(len(st.Waiting)), r.GPUs()-st.FreeGPUs(), r.GPUs())
			if free, head := st.FreeGPUs(), p.Out.Jobs[st.Waiting[0]]; free > 0 && head.GPUs > free {
				line += fmt.Sprintf(" (Why an idle GPU then? The first job in line, %s, needs %d GPUs and only %d%s free; nobody may pass it. Lesson 2 is about that.)", head.ID, head.GPUs, free, werewas(free))
			}
			out = append(out, line)
		}
		return out, nil
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
		old := p.Out.Jobs[st.Waiting[0]]
		return Moment{Policy: r.Index(p), T: st.T, Text: fmt.Sprintf("At %s, %s wait while %d of the %d GPUs are busy; the oldest, %s, has waited %s.",
			dur(st.T), plural(len(st.Waiting), "job"), r.GPUs()-st.FreeGPUs(), r.GPUs(), old.ID, dur(st.T-old.ArrivalS))}, nil
	},
	Challenge: Challenge{
		Text:   "Give the cluster more servers until the average job waits less than one minute in the queue. How few servers are enough?",
		Hint:   "Change the number of servers, then run. Keep the {jobs} jobs: the challenge is about the cluster, not about fewer jobs.",
		Fields: []Field{{"cluster.servers[0].count", "Servers"}},
		Check: func(r *Run) (bool, string) {
			p, err := r.Labelled("FIFO")
			if err != nil {
				return false, err.Error()
			}
			if n := baseCount(r); r.JobCount() < n {
				return false, fmt.Sprintf("This run has %d jobs; keep at least the lesson's %d.", r.JobCount(), n)
			}
			q := p.Out.Metrics.AvgQueue
			if q < 60 {
				return true, fmt.Sprintf("With %d GPUs, the average job waits %s in the queue. Does one server fewer still do it?", r.GPUs(), dur(q))
			}
			return false, fmt.Sprintf("With %d GPUs, the average job still waits %s.", r.GPUs(), dur(q))
		},
	},
}

// werewas is " were" or " was" after a count.
func werewas(n int) string {
	if n == 1 {
		return " was"
	}
	return " were"
}

// queuesWithin is the time lesson 1 asks about: the share of jobs that
// finish within it of arriving.
const queuesWithin = 30 * 60

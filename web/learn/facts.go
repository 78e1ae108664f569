package learn

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/workload"
)

// What the lessons' texts say about a scenario with a list of jobs, read
// from the list so that an edited scenario reads right.

// listFacts adds to m the facts of the scenario's job list: {startjobs}
// jobs of {startgpus} GPUs arrive at the start; the later ones ask for
// {latersizes} GPUs and arrive {every}; {sizes} lists every job's size;
// {jobsize} is the jobs' size as an
// adjective ("single-GPU", "4-GPU").
func listFacts(r *Run, m map[string]string) {
	if r.Scenario == nil || len(r.Scenario.Workload.Jobs) == 0 {
		return
	}
	var first, later []workload.Job
	for _, j := range r.Scenario.Workload.Jobs {
		if j.ArrivalS == 0 {
			first = append(first, j)
		} else {
			later = append(later, j)
		}
	}
	all := r.Scenario.Workload.Jobs
	m["sizes"] = orList(sizesOf(all))
	m["jobsize"] = sizeAdjective(sizesOf(all))
	m["startjobs"] = plural(len(first), "job")
	m["startgpus"] = orList(sizesOf(first))
	m["latersizes"] = orList(sizesOf(later))
	m["every"] = every(all)
}

// sizesOf are the jobs' GPU counts, each once, smallest first.
func sizesOf(jobs []workload.Job) []int {
	seen := map[int]bool{}
	var out []int
	for _, j := range jobs {
		if !seen[j.GPUs] {
			seen[j.GPUs] = true
			out = append(out, j.GPUs)
		}
	}
	sort.Ints(out)
	return out
}

// orList writes numbers as "4", "1 or 2", "1, 2 or 4".
func orList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return orWords(s)
}

// orWords joins words as "a", "a or b", "a, b or c".
func orWords(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// sizeAdjective writes job sizes before "jobs": "single-GPU", "4-GPU",
// "1- or 2-GPU".
func sizeAdjective(ns []int) string {
	if len(ns) == 1 && ns[0] == 1 {
		return "single-GPU"
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprintf("%d-", n)
	}
	return orWords(s) + "GPU"
}

// every says how often the jobs that arrive after the start arrive:
// "every 15 minutes" when they come at a steady pace, "about every 12
// minutes" on average otherwise, "" when fewer than two do.
func every(jobs []workload.Job) string {
	var ts []float64
	for _, j := range jobs {
		if j.ArrivalS > 0 {
			ts = append(ts, j.ArrivalS)
		}
	}
	sort.Float64s(ts)
	if len(ts) < 2 {
		return ""
	}
	gap := (ts[len(ts)-1] - ts[0]) / float64(len(ts)-1)
	for i := 1; i < len(ts); i++ {
		if math.Abs(ts[i]-ts[i-1]-gap) > 1 {
			return "about every " + about(gap)
		}
	}
	return "every " + about(gap)
}

// roundOf is the round length of the run's policy of this label, in
// words ("6 minutes"), def when the policy has no round_s.
func roundOf(r *Run, label string, def float64) string {
	if p := PolicyParamsOf(r.Scenario, label); p != nil {
		return about(param(p, "round_s", def))
	}
	return about(def)
}

package app

import (
	"fmt"
	"github.com/schedlab/schedlab/sim/metrics"

	"github.com/schedlab/schedlab/sim/results"
)

// streamedNotices says in words which policies' runs streamed (more jobs
// than metrics.DefaultStreamAbove, the size above which the engine
// worker keeps no job records) and what the results then leave out.
func streamedNotices(ps []*PolicyResult) []string {
	var out []string
	for _, p := range ps {
		if !p.Out.Streamed {
			continue
		}
		out = append(out, fmt.Sprintf("%s streamed: its %s jobs are more than the %s above which the page keeps no record per job, "+
			"so the metrics, the per-model summaries and the JCT CDF (drawn from %s points) were summarised as the run ended. "+
			"The Jobs CSV and the timeline's jobs and GPU grid are not shown for it.",
			p.Label, results.Thousands(p.Out.Metrics.Jobs), results.Thousands(metrics.DefaultStreamAbove), results.Thousands(metrics.StreamCDFPoints)))
	}
	return out
}

// streamedGridNote is the timeline's note for a streamed run.
const streamedGridNote = "This run streamed: the page kept no record per job, so the grid and the waiting jobs stay empty; the decision log is still shown."

// JobCount is the number of jobs of the policy's run: its records, or
// for a streamed run, which sends none, its metrics' count.
func (p *PolicyResult) JobCount() int {
	if p.Out.Streamed {
		return p.Out.Metrics.Jobs
	}
	return len(p.Out.Jobs)
}

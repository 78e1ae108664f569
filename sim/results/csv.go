package results

import "strconv"

// SummaryHeader is the header of a metrics CSV file: one row per run,
// written by `schedlab run --out` and by the page's "metrics CSV" download.
var SummaryHeader = []string{"policy", "seed", "jobs", "finished", "avg_jct_s", "p50_jct_s", "p95_jct_s", "p99_jct_s",
	"avg_queue_s", "makespan_s", "utilization", "error"}

// SummaryRow is the metrics CSV row of one run; errText is the run's error
// ("" for none).
func SummaryRow(policy string, seed uint64, s Summary, errText string) []string {
	return []string{policy, strconv.FormatUint(seed, 10), strconv.Itoa(s.Jobs), strconv.Itoa(s.Finished),
		Num(s.AvgJCT), Num(s.P50JCT), Num(s.P95JCT), Num(s.P99JCT), Num(s.AvgQueue), Num(s.Makespan), Num(s.Utilization), errText}
}

package reproduce

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
)

// Numbers in prose come from the record. Each quote below is a number
// that docs/*.md or a scenario's description states about our results;
// the test reads it from the committed record (reproduction/report.json),
// prints it as the prose does and fails when the prose says otherwise.
// Whoever writes a result into prose adds its quote here; when `make
// reproduce` changes a number, this test names every sentence to update.
//
// A quote is the file ("docs/x.md", or "scenarios/NAME.json" for that
// scenario's description), the text with {} where the number stands, the
// number's source in the record and how it is printed:
//
//	value SCENARIO|POLICY|METRIC|GROUP|X   a value's mean (X "" without a sweep)
//	ratio SCENARIO|NUM|DEN|METRIC|GROUP|X  the ratio of two policies' means
//	check SCENARIO|ID|ours (or paper)      a check's number
//	stretch SCENARIO|NUM|DEN|GROUP|X       NUM's running time (average JCT
//	                                       less average queuing) over DEN's
//	paper-stretch SCENARIO|NUM|DEN|GROUP   the same from the paper's table
//	figures                                how many figures the record has
//	claims NAME                            how many claims a paper (or one figure, by its scenario) has
//	passed NAME                            how many of them pass
//	wall-min / cpu-s                       the record's time
//
// and the format: a fmt verb, after "pct:" multiplied by 100, after
// "change:" (x − 1) × 100, after "cut:" (1 − x) × 100, after "xN:"
// multiplied by N (e.g. "x3600:" for hours in seconds), after "sep:" with
// thousands separators. A text with several {} takes as many sources,
// separated by "; ", and one format for all or one each.
type quote struct {
	file, text, source, format string
}

var quotes = []quote{
	{"docs/cross-paper.md", "| 8 | {} | {} | {} | {} | {} | {} |",
		"value compare-memshare|FIFO|avg_jct_s|all|8; value compare-memshare|SJF-BSBF|avg_jct_s|all|8; value compare-memshare|Gavel (LAS) w/ SS|avg_jct_s|all|8; value compare-memshare|Tesserae-T|avg_jct_s|all|8; value compare-memshare|Tesserae-T (Blox table)|avg_jct_s|all|8; value compare-memshare|OJPP|avg_jct_s|all|8", "%#.3g"},
	{"docs/cross-paper.md", "| 16 | {} | {} | {} | {} | {} | {} |",
		"value compare-memshare|FIFO|avg_jct_s|all|16; value compare-memshare|SJF-BSBF|avg_jct_s|all|16; value compare-memshare|Gavel (LAS) w/ SS|avg_jct_s|all|16; value compare-memshare|Tesserae-T|avg_jct_s|all|16; value compare-memshare|Tesserae-T (Blox table)|avg_jct_s|all|16; value compare-memshare|OJPP|avg_jct_s|all|16", "%#.3g"},
	{"docs/cross-paper.md", "| 24 | {} | {} | {} | {} | {} | {} |",
		"value compare-memshare|FIFO|avg_jct_s|all|24; value compare-memshare|SJF-BSBF|avg_jct_s|all|24; value compare-memshare|Gavel (LAS) w/ SS|avg_jct_s|all|24; value compare-memshare|Tesserae-T|avg_jct_s|all|24; value compare-memshare|Tesserae-T (Blox table)|avg_jct_s|all|24; value compare-memshare|OJPP|avg_jct_s|all|24", "%#.3g"},
	{"docs/cross-paper.md", "| 32 | {} | {} | {} | {} | {} | {} |",
		"value compare-memshare|FIFO|avg_jct_s|all|32; value compare-memshare|SJF-BSBF|avg_jct_s|all|32; value compare-memshare|Gavel (LAS) w/ SS|avg_jct_s|all|32; value compare-memshare|Tesserae-T|avg_jct_s|all|32; value compare-memshare|Tesserae-T (Blox table)|avg_jct_s|all|32; value compare-memshare|OJPP|avg_jct_s|all|32", "%#.3g"},
	{"docs/cross-paper.md", "| 40 | {} | {} | {} | {} | {} | {} |",
		"value compare-memshare|FIFO|avg_jct_s|all|40; value compare-memshare|SJF-BSBF|avg_jct_s|all|40; value compare-memshare|Gavel (LAS) w/ SS|avg_jct_s|all|40; value compare-memshare|Tesserae-T|avg_jct_s|all|40; value compare-memshare|Tesserae-T (Blox table)|avg_jct_s|all|40; value compare-memshare|OJPP|avg_jct_s|all|40", "%#.3g"},
	{"docs/cross-paper.md", "({} GPUs at its peak against FIFO's {}, {}% slowdown)",
		"value compare-memshare|OJPP|gpus_used|all|8; value compare-memshare|FIFO|gpus_used|all|8; ratio compare-memshare|OJPP|FIFO|avg_jct_s|all|8", "%.0f; %.0f; change:%.0f"},
	{"docs/cross-paper.md", "scale 2: SJF-BSBF {} h, Gavel w/ SS {} h, Tesserae-T {} h, FIFO {} h, Gavel without SS {} h",
		"value compare-analytic|SJF-BSBF|avg_jct_s|all|2; value compare-analytic|Gavel (LAS) w/ SS|avg_jct_s|all|2; value compare-analytic|Tesserae-T|avg_jct_s|all|2; value compare-analytic|FIFO|avg_jct_s|all|2; value compare-analytic|Gavel (LAS)|avg_jct_s|all|2", "%.2f"},
	{"docs/cross-paper.md", "(measured jobs): Tesserae-T {} h, Gavel w/ SS {} h, Gavel {} h, FIFO {} h",
		"value compare-throughput|Tesserae-T|avg_jct_s|all|2; value compare-throughput|Gavel (LAS) w/ SS|avg_jct_s|all|2; value compare-throughput|Gavel (LAS)|avg_jct_s|all|2; value compare-throughput|FIFO|avg_jct_s|all|2", "%.1f"},
	{"docs/gavel.md", "FTF / Gavel in average JCT at 2.6 jobs/h is {}",
		"ratio gavel-fig10-ftf-multi|FTF|Gavel|avg_jct_s|all|2.6", "%.2f"},
	{"docs/gavel.md", "(LAS / Gavel {} against the paper's 1.9; LAS / Gavel with space sharing {} against 2.3; Gandiva / Gavel with space sharing {} against 2)",
		"ratio gavel-fig9-las-multi|LAS|Gavel|avg_jct_s|all|2.6; ratio gavel-fig9-las-multi|LAS|Gavel w/ SS|avg_jct_s|all|2.6; ratio gavel-fig9-las-multi|LAS w/ Gandiva SS|Gavel w/ SS|avg_jct_s|all|2.6", "%.2f"},
	{"docs/gavel.md", "our LAS is close to the paper's up to 2.6 jobs/h ({} h against 70.5 h there), but our Gavel stays faster at high load than the paper's ({} h against 36.4 h)",
		"value gavel-fig9-las-multi|LAS|avg_jct_s|all|2.6; value gavel-fig9-las-multi|Gavel|avg_jct_s|all|2.6", "%.1f"},
	{"docs/ojpp.md", "| `ojpp-fig4` | {} of {} |",
		"passed ojpp-fig4; claims ojpp-fig4", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-fig5-8` | {} of {} |",
		"passed ojpp-fig5-8; claims ojpp-fig5-8", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-fig7` | {} of {} |",
		"passed ojpp-fig7; claims ojpp-fig7", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-table5` | {} of {} |",
		"passed ojpp-table5; claims ojpp-table5", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-fig9` | {} of {} |",
		"passed ojpp-fig9; claims ojpp-fig9", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-fig11` | {} of {} |",
		"passed ojpp-fig11; claims ojpp-fig11", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-predict` | {} of {} |",
		"passed ojpp-predict; claims ojpp-predict", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-online` | {} of {} |",
		"passed ojpp-online; claims ojpp-online", "%.0f"},
	{"docs/ojpp.md", "| `ojpp-fig10` | {} of {} |",
		"passed ojpp-fig10; claims ojpp-fig10", "%.0f"},
	{"docs/ojpp.md", "Best-fit {} GPUs and {}% degradation, OJPP {} GPUs and {}% with ResNet alone",
		"value ojpp-fig4|Best-fit|gpus_used|all|; value ojpp-fig4|Best-fit|degradation|all|; value ojpp-fig4|OJPP|gpus_used|all|; value ojpp-fig4|OJPP|degradation|all|", "%.0f; pct:%.1f; %.0f; pct:%.1f"},
	{"docs/ojpp.md", "(Mixed: OJPP +{}% GPUs over Best-fit, paper 82.9%, and {}% improvement, paper 202.9%;",
		"check ojpp-fig5-8|f8-extra-gpus|ours; check ojpp-fig5-8|f6-improvement|ours", "change:%.0f"},
	{"docs/ojpp.md", "trade-off monotone, {}% GPUs saved at the default (paper 46%) but guaranteed performance {}%, not ≥ 92.97%",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.1)|gpu_reduction|all|; value ojpp-table5|OJPP (0.1, 0.2, 0.1)|guaranteed_perf|all|", "pct:%.1f"},
	{"docs/ojpp.md", "Algorithm 2 read literally keeps {}% but saves only {}%",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.1), Algorithm 2 literally|guaranteed_perf|all|; value ojpp-table5|OJPP (0.1, 0.2, 0.1), Algorithm 2 literally|gpu_reduction|all|", "pct:%.1f"},
	{"docs/ojpp.md", "{}% against {}% without balance at ω = 10 (on more GPUs); `separate_gpus` {}% against {}% at ω = 10",
		"value ojpp-fig9|OJPP (Algorithm 2 literally)|degradation|all|10; value ojpp-fig9|OJPP w/o balance|degradation|all|10; value ojpp-fig9|OJPP (separate GPUs)|degradation|all|10; value ojpp-fig9|OJPP w/o balance (separate GPUs)|degradation|all|10", "pct:%.1f"},
	{"docs/ojpp.md", "moves OJPP's guaranteed performance from {}% to {}% (paper: −7.8%)",
		"value ojpp-fig11|OJPP|guaranteed_perf|all|; value ojpp-fig11|OJPP (predicted)|guaranteed_perf|all|", "pct:%.1f"},
	{"docs/ojpp.md", "predicted matrices off by {} (ridge) / {} (k-NN, fails the 7% check) / {} (SVR) / {} (tree) / {} (AIP's pick, usually the tree)",
		"value ojpp-predict|OJPP (linear)|belief_mae|all|; value ojpp-predict|OJPP (k-NN)|belief_mae|all|; value ojpp-predict|OJPP (SVR)|belief_mae|all|; value ojpp-predict|OJPP (tree)|belief_mae|all|; value ojpp-predict|OJPP (AIP: lowest leave-one-out error)|belief_mae|all|", "%.3f"},
	{"docs/ojpp.md", "OJPAP repairs a plan made with a noisy matrix ({}% → {}%, {}% downtime)",
		"value ojpp-online|OJPP (noisy 0.2)|degradation|all|; value ojpp-online|OJPAP (noisy 0.2)|degradation|all|; value ojpp-online|OJPAP (noisy 0.2)|migration_overhead|all|", "pct:%.1f; pct:%.1f; pct:%.2f"},
	{"docs/ojpp.md", "{} adjustments per run, {}% downtime, {}% against OJPP's {}%; fails: an adjustment lowers the triggering GPUs' interference by {}%, not ≥ 30%, because θ′ blocks most moves (relaxed for moves: {}%)",
		"value ojpp-fig10|OJPAP|adjustments|all|; value ojpp-fig10|OJPAP|migration_overhead|all|; value ojpp-fig10|OJPAP|degradation|all|; value ojpp-fig10|OJPP|degradation|all|; value ojpp-fig10|OJPAP|adjust_drop_hot|all|; value ojpp-fig10|OJPAP (moves may break θ′)|adjust_drop_hot|all|", "%.1f; pct:%.1f; pct:%.1f; pct:%.1f; pct:%.1f; pct:%.0f"},
	{"docs/papers.md", "the full record over all {} figures",
		"figures", "%.0f"},
	{"docs/papers.md", "Making it took {} minutes of wall time and {} s of CPU time.",
		"wall-min; cpu-s", "%.0f; sep:%.0f"},
	{"docs/sjf-bsbf.md", "they wait about {} s (the next round) in the Table III scenario, against the paper's 1.00 h; at 480 jobs, {} h against 4.41 h",
		"value sjf-bsbf-table3|Pollux|avg_wait_s|all|; value sjf-bsbf-table4|Pollux|avg_wait_s|all|2", "x3600:%.0f; %.2f"},
	{"docs/sjf-bsbf.md", "{} of {} claims hold (Table II {} of {}, Fig. 4 {} of {}, Table III {} of {}, Table IV {} of {}, Fig. 6(a) {} of {}, Fig. 6(b) {} of {}, the Theorem-1 explorer {} of {})",
		"passed sjf-bsbf; claims sjf-bsbf; passed sjf-bsbf-table2; claims sjf-bsbf-table2; passed sjf-bsbf-fig4; claims sjf-bsbf-fig4; passed sjf-bsbf-table3; claims sjf-bsbf-table3; passed sjf-bsbf-table4; claims sjf-bsbf-table4; passed sjf-bsbf-fig6a; claims sjf-bsbf-fig6a; passed sjf-bsbf-fig6b; claims sjf-bsbf-fig6b; passed sjf-bsbf-pair; claims sjf-bsbf-pair", "%.0f"},
	{"docs/sjf-bsbf.md", "SJF-BSBF has the lowest average JCT ({} s; SJF {} s, SJF-FFS {} s, FIFO {} s, Tiresias {} s)",
		"value sjf-bsbf-table2|SJF-BSBF|avg_jct_s|all|; value sjf-bsbf-table2|SJF|avg_jct_s|all|; value sjf-bsbf-table2|SJF-FFS|avg_jct_s|all|; value sjf-bsbf-table2|FIFO|avg_jct_s|all|; value sjf-bsbf-table2|Tiresias|avg_jct_s|all|", "%.0f"},
	{"docs/sjf-bsbf.md", "backfilling SJF beats SJF-BSBF**: {} h against {} h at 240 jobs, {} h against {} h at 480",
		"value sjf-bsbf-table3|SJF|avg_jct_s|all|; value sjf-bsbf-table3|SJF-BSBF|avg_jct_s|all|; value sjf-bsbf-table4|SJF|avg_jct_s|all|2; value sjf-bsbf-table4|SJF-BSBF|avg_jct_s|all|2", "%.2f"},
	{"docs/sjf-bsbf.md", "over strict FIFO ({} h); strict SJF ({} h) is level",
		"value sjf-bsbf-table3|FIFO (strict)|avg_jct_s|all|; value sjf-bsbf-table3|SJF (strict)|avg_jct_s|all|", "%.2f"},
	{"docs/sjf-bsbf.md", "SJF-BSBF equals SJF-FFS for ξ ≤ 1.25 ({}, {}) and is level with it from ξ = 1.5 to 2 ({}, {}, {})",
		"ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1.25; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1.5; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1.75; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|2", "%.2f"},
	{"docs/tesserae.md", "noted; each description says what it asks and finds), {} of {} claims hold:",
		"passed tesserae; claims tesserae", "%.0f"},
	{"docs/tesserae.md", "| `tesserae-fig11-migrations` (80 GPUs as 20×4, Shockwave-style, 900 jobs) | {}/{} |",
		"passed tesserae-fig11-migrations; claims tesserae-fig11-migrations", "%.0f"},
	{"docs/tesserae.md", "| `tesserae-fig17-gavel-trace` (Gavel-style trace) | {}/{} |",
		"passed tesserae-fig17-gavel-trace; claims tesserae-fig17-gavel-trace", "%.0f"},
	{"docs/tesserae.md", "| `tesserae-fig9-physical` (8×4 GPUs, 120 jobs, 5 seeds) | {}/{} |",
		"passed tesserae-fig9-physical; claims tesserae-fig9-physical", "%.0f"},
	{"docs/tesserae.md", "| `tesserae-fig13-ftf` | {}/{} |",
		"passed tesserae-fig13-ftf; claims tesserae-fig13-ftf", "%.0f"},
	{"docs/tesserae.md", "| `tesserae-ablations` | {}/{} |",
		"passed tesserae-ablations; claims tesserae-ablations", "%.0f"},
	{"docs/tesserae.md", "| `tesserae-fig16-noise` | {}/{} |",
		"passed tesserae-fig16-noise; claims tesserae-fig16-noise", "%.0f"},
	{"docs/tesserae.md", "| `tesserae-fig18-estimators` | {}/{} |",
		"passed tesserae-fig18-estimators; claims tesserae-fig18-estimators", "%.0f"},
	{"docs/tesserae.md", "Tesserae-T {} h < Tiresias (Single) {} h < Tiresias {} h; Gavel {} h. Migrations: {} against {} with Gavel's rule, only {}% fewer",
		"value tesserae-fig11-migrations|Tesserae-T|avg_jct_s|all|; value tesserae-fig11-migrations|Tiresias (Single)|avg_jct_s|all|; value tesserae-fig11-migrations|Tiresias (rounds)|avg_jct_s|all|; value tesserae-fig11-migrations|Gavel|avg_jct_s|all|; value tesserae-fig11-migrations|Tesserae-T|migrations|all|; value tesserae-fig11-migrations|Tesserae-T + Gavel migration|migrations|all|; check tesserae-fig11-migrations|fig11-migrations|ours", "%.2f; %.2f; %.2f; %.2f; sep:%.0f; sep:%.0f; cut:%.0f"},
	{"docs/tesserae.md", "Gains over Tiresias {}× JCT and {}× makespan",
		"check tesserae-fig11-migrations|jct-up-to-1.62|ours; check tesserae-fig11-migrations|makespan-up-to-1.15|ours", "%.2f"},
	{"docs/tesserae.md", "the matching cuts moves by {}% against Gavel's rule",
		"check tesserae-fig11-migrations|nopack-migrations|ours", "cut:%.0f"},
	{"docs/tesserae.md", "(×{} at min_combined 1.2, ×{} at 1.4, ×{} at 1.6); flat matching ×{} with the paper's packing",
		"ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|1.2; ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|1.4; ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|1.6; ratio tesserae-fig11-sensitivity|Tesserae-T (flat migration)|Tesserae-T + Gavel migration|migrations|all|0", "%.2f"},
	{"docs/tesserae.md", "Tesserae-T best JCT ({} h; Gavel {} h, Tiresias {} h); {}% fewer migrations than Gavel's rule ({} against {}). Gavel's makespan {} h, {}% below Tesserae-T's {} h",
		"value tesserae-fig17-gavel-trace|Tesserae-T|avg_jct_s|all|; value tesserae-fig17-gavel-trace|Gavel|avg_jct_s|all|; value tesserae-fig17-gavel-trace|Tiresias (rounds)|avg_jct_s|all|; check tesserae-fig17-gavel-trace|fig17-migrations|ours; value tesserae-fig17-gavel-trace|Tesserae-T|migrations|all|; value tesserae-fig17-gavel-trace|Tesserae-T + Gavel migration|migrations|all|; value tesserae-fig17-gavel-trace|Gavel|makespan_s|all|; ratio tesserae-fig17-gavel-trace|Gavel|Tesserae-T|makespan_s|all|; value tesserae-fig17-gavel-trace|Tesserae-T|makespan_s|all|", "%.1f; %.1f; %.1f; cut:%.0f; sep:%.0f; sep:%.0f; %.0f; cut:%.0f; %.0f"},
	{"docs/tesserae.md", "JCT {} h against Tiresias {} h ({}×), shortest half {}×; makespan gain {}×",
		"value tesserae-fig9-physical|Tesserae-T|avg_jct_s|all|; value tesserae-fig9-physical|Tiresias|avg_jct_s|all|; check tesserae-fig9-physical|fig9-jct-up-to|ours; check tesserae-fig9-physical|fig9-short-gain|ours; check tesserae-fig9-physical|fig9-makespan-up-to|ours", "%.2f"},
	{"docs/tesserae.md", "worst finish-time fairness ρ {} against {}, p95 {} against {}, JCT {} h against {} h",
		"value tesserae-fig13-ftf|Tesserae-FTF|ftf_fair_max|all|; value tesserae-fig13-ftf|Gavel-FTF|ftf_fair_max|all|; value tesserae-fig13-ftf|Tesserae-FTF|ftf_fair_p95|all|; value tesserae-fig13-ftf|Gavel-FTF|ftf_fair_p95|all|; value tesserae-fig13-ftf|Tesserae-FTF|avg_jct_s|all|; value tesserae-fig13-ftf|Gavel-FTF|avg_jct_s|all|", "%.2f"},
	{"docs/tesserae.md", "Migrations: flat {} < guarded {} < two-level {} < sticky {} < no migration step {}; without the step {} h JCT against {} h",
		"value tesserae-ablations|Tesserae-T (flat migration)|migrations|all|; value tesserae-ablations|Tesserae-T (guarded migration)|migrations|all|; value tesserae-ablations|Tesserae-T|migrations|all|; value tesserae-ablations|Tesserae-T (sticky migration)|migrations|all|; value tesserae-ablations|Tesserae-T (no migration step)|migrations|all|; value tesserae-ablations|Tesserae-T (no migration step)|avg_jct_s|all|; value tesserae-ablations|Tesserae-T|avg_jct_s|all|", "sep:%.0f; sep:%.0f; sep:%.0f; sep:%.0f; sep:%.0f; %.2f; %.2f"},
	{"docs/tesserae.md", "Profiling noise: JCT {} h → {} h at 100% noise",
		"value tesserae-fig16-noise|Tesserae-T|avg_jct_s|all|0; value tesserae-fig16-noise|Tesserae-T|avg_jct_s|all|1", "%.2f"},
	{"docs/tesserae.md", "Oracle {} h, linear model {} h, matrix completion {} h",
		"value tesserae-fig18-estimators|Oracle|avg_jct_s|all|; value tesserae-fig18-estimators|Linear model|avg_jct_s|all|; value tesserae-fig18-estimators|Matrix completion|avg_jct_s|all|", "%.2f"},
	{"docs/tesserae.md", "at 3,000 jobs a round of Tesserae took {} ms and Gavel's per-job LP {} times as long",
		"check tesserae-fig2-decision-time|under-1s|ours; check tesserae-fig2-decision-time|faster-than-gavel|ours", "%.1f; %.0f"},
	{"scenarios/compare-analytic.json", "at scale 2, SJF-BSBF finishes jobs in {} h on average, Gavel with space sharing in {} h, Tesserae-T in {} h, FIFO in {} h and Gavel without space sharing in {} h",
		"value compare-analytic|SJF-BSBF|avg_jct_s|all|2; value compare-analytic|Gavel (LAS) w/ SS|avg_jct_s|all|2; value compare-analytic|Tesserae-T|avg_jct_s|all|2; value compare-analytic|FIFO|avg_jct_s|all|2; value compare-analytic|Gavel (LAS)|avg_jct_s|all|2", "%.2f"},
	{"scenarios/compare-memshare.json", "FIFO and SJF-BSBF (which then never shares) finish jobs in {} h on average; Gavel and Tesserae, which start jobs only at their 6-minute rounds, take {} and {} h; OJPP is slowest ({} h)",
		"value compare-memshare|FIFO|avg_jct_s|all|8; value compare-memshare|Gavel (LAS) w/ SS|avg_jct_s|all|8; value compare-memshare|Tesserae-T|avg_jct_s|all|8; value compare-memshare|OJPP|avg_jct_s|all|8", "%.2f"},
	{"scenarios/compare-memshare.json", "{} GPUs in use at the peak against {}, for an {}% slowdown",
		"value compare-memshare|OJPP|gpus_used|all|8; value compare-memshare|FIFO|gpus_used|all|8; ratio compare-memshare|OJPP|FIFO|avg_jct_s|all|8", "%.0f; %.0f; change:%.0f"},
	{"scenarios/compare-memshare.json", "At 40 jobs an hour the order turns around: OJPP {} h, SJF-BSBF {} h, Gavel {} h, Tesserae-T {} h, FIFO {} h, and Tesserae-T with the Blox table {} h",
		"value compare-memshare|OJPP|avg_jct_s|all|40; value compare-memshare|SJF-BSBF|avg_jct_s|all|40; value compare-memshare|Gavel (LAS) w/ SS|avg_jct_s|all|40; value compare-memshare|Tesserae-T|avg_jct_s|all|40; value compare-memshare|FIFO|avg_jct_s|all|40; value compare-memshare|Tesserae-T (Blox table)|avg_jct_s|all|40", "%.2f"},
	{"scenarios/compare-throughput.json", "at 2 jobs an hour the measured jobs finish in {} h on average with Tesserae-T, {} h with Gavel with space sharing, {} h with Gavel without it and {} h with FIFO",
		"value compare-throughput|Tesserae-T|avg_jct_s|all|2; value compare-throughput|Gavel (LAS) w/ SS|avg_jct_s|all|2; value compare-throughput|Gavel (LAS)|avg_jct_s|all|2; value compare-throughput|FIFO|avg_jct_s|all|2", "%.1f"},
	{"scenarios/compare-throughput.json", "so space sharing saves Gavel {}%",
		"ratio compare-throughput|Gavel (LAS) w/ SS|Gavel (LAS)|avg_jct_s|all|2", "cut:%.0f"},
	{"scenarios/ojpp-fig10.json", "raw interference passes θ̄ at {} ticks per run without an adjustment then (the paper's t2), OJPAP adjusts {} times per run, its downtime is {}% of ΣJCT (the paper: about 5%) and it degrades jobs by {}% against OJPP's {}%",
		"value ojpp-fig10|OJPAP|quiet_crossings|all|; value ojpp-fig10|OJPAP|adjustments|all|; value ojpp-fig10|OJPAP|migration_overhead|all|; value ojpp-fig10|OJPAP|degradation|all|; value ojpp-fig10|OJPP|degradation|all|", "%.0f; %.1f; pct:%.1f; pct:%.1f; pct:%.1f"},
	{"scenarios/ojpp-fig10.json", "lowers the observed interference of the GPUs that triggered it by only {}%, not ≥ 30%",
		"value ojpp-fig10|OJPAP|adjust_drop_hot|all|", "pct:%.1f"},
	{"scenarios/ojpp-fig10.json", "cuts the triggering GPUs' interference by {}% and degrades jobs by {}%",
		"value ojpp-fig10|OJPAP (moves may break θ′)|adjust_drop_hot|all|; value ojpp-fig10|OJPAP (moves may break θ′)|degradation|all|", "pct:%.0f; pct:%.1f"},
	{"scenarios/ojpp-fig10.json", "passes at {}%, but a control that triggers the same way and moves nothing already sees {}%",
		"value ojpp-fig10|OJPAP|adjust_drop_10|all|; value ojpp-fig10|OJPAP (watch only)|adjust_drop_10|all|", "pct:%.0f"},
	{"scenarios/ojpp-fig11.json", "(OJPP {}% → {}%, I-Greedy {}% → {}%, B-Greedy {}% → {}%)",
		"value ojpp-fig11|OJPP|guaranteed_perf|all|; value ojpp-fig11|OJPP (predicted)|guaranteed_perf|all|; value ojpp-fig11|I-Greedy|guaranteed_perf|all|; value ojpp-fig11|I-Greedy (predicted)|guaranteed_perf|all|; value ojpp-fig11|B-Greedy|guaranteed_perf|all|; value ojpp-fig11|B-Greedy (predicted)|guaranteed_perf|all|", "pct:%.1f"},
	{"scenarios/ojpp-fig4.json", "CNN on a second: {} GPUs",
		"value ojpp-fig4|Best-fit|gpus_used|all|", "%.0f"},
	{"scenarios/ojpp-fig4.json", "the jobs take {}% longer in all than alone (Case I)",
		"value ojpp-fig4|Best-fit|degradation|all|", "pct:%.1f"},
	{"scenarios/ojpp-fig4.json", "{} GPUs and {}% (Case II)",
		"value ojpp-fig4|OJPP|gpus_used|all|; value ojpp-fig4|OJPP|degradation|all|", "%.0f; pct:%.1f"},
	{"scenarios/ojpp-fig5-8.json", "(Best-fit on Mixed {}% against 73.5% in our earlier static prototype)",
		"value ojpp-fig5-8|Best-fit|degradation|all|1", "pct:%.0f"},
	{"scenarios/ojpp-fig5-8.json", "on Mixed OJPP uses {}% more GPUs than Best-fit (the paper: 82.9%) and improves on it by {}% (D_BF / D_OJPP − 1; the paper: 202.9%)",
		"check ojpp-fig5-8|f8-extra-gpus|ours; check ojpp-fig5-8|f6-improvement|ours", "change:%.0f"},
	{"scenarios/ojpp-fig5-8.json", "averaged over the four queues Best-fit degrades {}% (the paper: 54.39%) and OJPP improves on it by {}% (the paper: over 228.34%)",
		"check ojpp-fig5-8|f5-bf-avg|ours; check ojpp-fig5-8|f6-improvement-avg|ours", "pct:%.0f; change:%.0f"},
	{"scenarios/ojpp-fig7.json", "ResNet (the most interference-sensitive victim) degrades {}% under Best-fit, {}% under B-Greedy, {}% under C-Greedy and {}% under I-Greedy and OJPP",
		"value ojpp-fig7|Best-fit|degradation|model:ResNet|; value ojpp-fig7|B-Greedy|degradation|model:ResNet|; value ojpp-fig7|C-Greedy|degradation|model:ResNet|; value ojpp-fig7|OJPP|degradation|model:ResNet|", "pct:%.0f"},
	{"scenarios/ojpp-fig7.json", "degrade {}% and {}% under Best-fit, {}% and {}% under B-Greedy, but {}% and {}% under C-Greedy and {}% and {}% under OJPP",
		"value ojpp-fig7|Best-fit|degradation|model:LeNet|; value ojpp-fig7|Best-fit|degradation|model:LSTM|; value ojpp-fig7|B-Greedy|degradation|model:LeNet|; value ojpp-fig7|B-Greedy|degradation|model:LSTM|; value ojpp-fig7|C-Greedy|degradation|model:LeNet|; value ojpp-fig7|C-Greedy|degradation|model:LSTM|; value ojpp-fig7|OJPP|degradation|model:LeNet|; value ojpp-fig7|OJPP|degradation|model:LSTM|", "pct:%.0f"},
	{"scenarios/ojpp-fig9.json", "(at ω = 8 and 10: {}% and {}% with balance, against {}% and {}% without)",
		"value ojpp-fig9|OJPP|degradation|all|8; value ojpp-fig9|OJPP|degradation|all|10; value ojpp-fig9|OJPP w/o balance|degradation|all|8; value ojpp-fig9|OJPP w/o balance|degradation|all|10", "pct:%.1f"},
	{"scenarios/ojpp-fig9.json", "at {}% at ω = 10 against {}% without balance, a {}× gap",
		"value ojpp-fig9|OJPP (Algorithm 2 literally)|degradation|all|10; value ojpp-fig9|OJPP w/o balance|degradation|all|10; check ojpp-fig9|f9-strict-bal-helps-10|ours", "pct:%.1f; pct:%.1f; %.1f"},
	{"scenarios/ojpp-fig9.json", "at ω = 10, {}% without it against {}% with it",
		"value ojpp-fig9|OJPP w/o balance (separate GPUs)|degradation|all|10; value ojpp-fig9|OJPP (separate GPUs)|degradation|all|10", "pct:%.1f"},
	{"scenarios/ojpp-online.json", "Over 10 seeds the noisy plan degrades jobs by {}% (the true one {}%); OJPAP brings it to {}% with {} migrations per run, costing {}% of ΣJCT in downtime",
		"value ojpp-online|OJPP (noisy 0.2)|degradation|all|; value ojpp-online|OJPP|degradation|all|; value ojpp-online|OJPAP (noisy 0.2)|degradation|all|; value ojpp-online|OJPAP (noisy 0.2)|migrations|all|; value ojpp-online|OJPAP (noisy 0.2)|migration_overhead|all|", "pct:%.1f; pct:%.1f; pct:%.1f; %.1f; pct:%.2f"},
	{"scenarios/ojpp-predict.json", "off by {} (linear), {} (k-NN), {} (SVR), {} (tree) and {} (AIP's pick) in mean absolute slowdown",
		"value ojpp-predict|OJPP (linear)|belief_mae|all|; value ojpp-predict|OJPP (k-NN)|belief_mae|all|; value ojpp-predict|OJPP (SVR)|belief_mae|all|; value ojpp-predict|OJPP (tree)|belief_mae|all|; value ojpp-predict|OJPP (AIP: lowest leave-one-out error)|belief_mae|all|", "%.3f"},
	{"scenarios/ojpp-predict.json", "OJPP's guaranteed performance is {}% with the true matrix and {}% with k-NN's, the least accurate model, and I-Greedy's {}% and {}%",
		"value ojpp-predict|OJPP|guaranteed_perf|all|; value ojpp-predict|OJPP (k-NN)|guaranteed_perf|all|; value ojpp-predict|I-Greedy|guaranteed_perf|all|; value ojpp-predict|I-Greedy (k-NN)|guaranteed_perf|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "(0.05, 0.1, 0.1) {}% / {}% [99.96 / 17]",
		"value ojpp-table5|OJPP (0.05, 0.1, 0.1)|guaranteed_perf|all|; value ojpp-table5|OJPP (0.05, 0.1, 0.1)|gpu_reduction|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "(0.05, 0.2, 0.1) {}% / {}% [94.23 / 39]",
		"value ojpp-table5|OJPP (0.05, 0.2, 0.1)|guaranteed_perf|all|; value ojpp-table5|OJPP (0.05, 0.2, 0.1)|gpu_reduction|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "(0.05, 0.4, 0.1) {}% / {}% [84.37 / 57]",
		"value ojpp-table5|OJPP (0.05, 0.4, 0.1)|guaranteed_perf|all|; value ojpp-table5|OJPP (0.05, 0.4, 0.1)|gpu_reduction|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "(0.1, 0.2, 0.1) {}% / {}% [92.97 / 46]",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.1)|guaranteed_perf|all|; value ojpp-table5|OJPP (0.1, 0.2, 0.1)|gpu_reduction|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "(0.1, 0.2, 0.2) {}% / {}% [87.96 / 52]",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.2)|guaranteed_perf|all|; value ojpp-table5|OJPP (0.1, 0.2, 0.2)|gpu_reduction|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "(0.1, 0.4, 0.2) {}% / {}% [83.17 / 61]",
		"value ojpp-table5|OJPP (0.1, 0.4, 0.2)|guaranteed_perf|all|; value ojpp-table5|OJPP (0.1, 0.4, 0.2)|gpu_reduction|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "the default saves {}% of the GPUs, as in the paper",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.1)|gpu_reduction|all|", "pct:%.0f"},
	{"scenarios/ojpp-table5.json", "at the default the guaranteed performance is {}%, not ≥ 92.97%",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.1)|guaranteed_perf|all|", "pct:%.0f"},
	{"scenarios/ojpp-table5.json", "Our {}% sits with Figs. 5/6",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.1)|guaranteed_perf|all|", "pct:%.1f"},
	{"scenarios/ojpp-table5.json", "the default column keeps {}% of performance but saves only {}% of the GPUs. The default reading saves {}% at {}%.",
		"value ojpp-table5|OJPP (0.1, 0.2, 0.1), Algorithm 2 literally|guaranteed_perf|all|; value ojpp-table5|OJPP (0.1, 0.2, 0.1), Algorithm 2 literally|gpu_reduction|all|; value ojpp-table5|OJPP (0.1, 0.2, 0.1)|gpu_reduction|all|; value ojpp-table5|OJPP (0.1, 0.2, 0.1)|guaranteed_perf|all|", "pct:%.1f"},
	{"scenarios/sjf-bsbf-fig4.json", "FIFO's makespan comes out near the paper's ({} s against 2,317 s)",
		"value sjf-bsbf-table2|FIFO|makespan_s|all|", "sep:%.0f"},
	{"scenarios/sjf-bsbf-fig4.json", "at the 80th percentile SJF-BSBF's jobs finish first ({} min against {} for SJF and {} for SJF-FFS)",
		"value sjf-bsbf-fig4|SJF-BSBF|p80_jct_s|all|; value sjf-bsbf-fig4|SJF|p80_jct_s|all|; value sjf-bsbf-fig4|SJF-FFS|p80_jct_s|all|", "%.1f"},
	{"scenarios/sjf-bsbf-fig4.json", "at the median ({} min against {} for backfilling SJF)",
		"value sjf-bsbf-fig4|SJF-BSBF|p50_jct_s|all|; value sjf-bsbf-fig4|SJF|p50_jct_s|all|", "%.1f"},
	{"scenarios/sjf-bsbf-fig6a.json", "backfilling SJF is ahead of it at every load ({} against {} h at 0.5×, {} against {} h at 1.5×, {} against {} h at 2×)",
		"value sjf-bsbf-fig6a|SJF|avg_jct_s|all|0.5; value sjf-bsbf-fig6a|SJF-BSBF|avg_jct_s|all|0.5; value sjf-bsbf-fig6a|SJF|avg_jct_s|all|1.5; value sjf-bsbf-fig6a|SJF-BSBF|avg_jct_s|all|1.5; value sjf-bsbf-fig6a|SJF|avg_jct_s|all|2; value sjf-bsbf-fig6a|SJF-BSBF|avg_jct_s|all|2", "%.2f"},
	{"scenarios/sjf-bsbf-fig6b.json", "SJF-BSBF / SJF-FFS is {} at ξ = 1 and {} at 1.25, against {} and {} for SJF-FFS (accumulation)",
		"ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1.25; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS (accumulation)|avg_jct_s|all|1; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS (accumulation)|avg_jct_s|all|1.25", "%.2f"},
	{"scenarios/sjf-bsbf-fig6b.json", "level with SJF-FFS ({}, {}, {}), not 8–13% ahead",
		"ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1.5; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|1.75; ratio sjf-bsbf-fig6b|SJF-BSBF|SJF-FFS|avg_jct_s|all|2", "%.2f"},
	{"scenarios/sjf-bsbf-table2.json", "FIFO's makespan comes out near the paper's ({} s against 2,317 s)",
		"value sjf-bsbf-table2|FIFO|makespan_s|all|", "sep:%.0f"},
	{"scenarios/sjf-bsbf-table2.json", "SJF-BSBF has the lowest average JCT, {} s, against {} s for SJF, {} s for SJF-FFS, {} s for FIFO and {} s for Tiresias (strict FIFO {} s, strict SJF {} s)",
		"value sjf-bsbf-table2|SJF-BSBF|avg_jct_s|all|; value sjf-bsbf-table2|SJF|avg_jct_s|all|; value sjf-bsbf-table2|SJF-FFS|avg_jct_s|all|; value sjf-bsbf-table2|FIFO|avg_jct_s|all|; value sjf-bsbf-table2|Tiresias|avg_jct_s|all|; value sjf-bsbf-table2|FIFO (strict)|avg_jct_s|all|; value sjf-bsbf-table2|SJF (strict)|avg_jct_s|all|", "%.0f"},
	{"scenarios/sjf-bsbf-table2.json", "SJF-BSBF is {} of Tiresias (paper 0.73) and {} of SJF-FFS (paper 0.91)",
		"check sjf-bsbf-table2|t2-vs-tiresias|ours; check sjf-bsbf-table2|t2-vs-ffs|ours", "%.2f"},
	{"scenarios/sjf-bsbf-table3.json", "to {} times backfilling SJF's over all jobs, as in the paper's table ({}), though not evenly: {} for small jobs against the paper's {}, and {} for large ones against {}.",
		"stretch sjf-bsbf-table3|SJF-BSBF|SJF|all|; paper-stretch sjf-bsbf-table3|SJF-BSBF|SJF|all; stretch sjf-bsbf-table3|SJF-BSBF|SJF|small|; paper-stretch sjf-bsbf-table3|SJF-BSBF|SJF|small; stretch sjf-bsbf-table3|SJF-BSBF|SJF|large|; paper-stretch sjf-bsbf-table3|SJF-BSBF|SJF|large", "%.2f"},
	{"docs/sjf-bsbf.md", "to {}× backfilling SJF's, as in the paper's table ({}×), though not evenly (small jobs {}× against the paper's {}×, large ones {}× against {}×)",
		"stretch sjf-bsbf-table3|SJF-BSBF|SJF|all|; paper-stretch sjf-bsbf-table3|SJF-BSBF|SJF|all; stretch sjf-bsbf-table3|SJF-BSBF|SJF|small|; paper-stretch sjf-bsbf-table3|SJF-BSBF|SJF|small; stretch sjf-bsbf-table3|SJF-BSBF|SJF|large|; paper-stretch sjf-bsbf-table3|SJF-BSBF|SJF|large", "%.2f"},
	{"scenarios/sjf-bsbf-table3.json", "SJF-BSBF beats Tiresias ({} h against {} h) and strict FIFO ({} h)",
		"value sjf-bsbf-table3|SJF-BSBF|avg_jct_s|all|; value sjf-bsbf-table3|Tiresias|avg_jct_s|all|; value sjf-bsbf-table3|FIFO (strict)|avg_jct_s|all|", "%.2f"},
	{"scenarios/sjf-bsbf-table3.json", "and strict SJF ({} h) is level with it",
		"value sjf-bsbf-table3|SJF (strict)|avg_jct_s|all|", "%.2f"},
	{"scenarios/sjf-bsbf-table3.json", "backfilling SJF beats SJF-BSBF, {} h against {} h, and so does SJF-FFS ({} h); backfilling FIFO ({} h) is slightly ahead of SJF-BSBF",
		"value sjf-bsbf-table3|SJF|avg_jct_s|all|; value sjf-bsbf-table3|SJF-BSBF|avg_jct_s|all|; value sjf-bsbf-table3|SJF-FFS|avg_jct_s|all|; value sjf-bsbf-table3|FIFO|avg_jct_s|all|", "%.2f"},
	{"scenarios/sjf-bsbf-table3.json", "({} h against backfilling SJF's {} h)",
		"value sjf-bsbf-table3|SJF-BSBF|avg_wait_s|all|; value sjf-bsbf-table3|SJF|avg_wait_s|all|", "%.2f"},
	{"scenarios/sjf-bsbf-table3.json", "the other reading of the paper's SJF-FFS: {} h",
		"value sjf-bsbf-table3|SJF-FFS (accumulation)|avg_jct_s|all|", "%.2f"},
	{"scenarios/sjf-bsbf-table4.json", "(Tiresias / SJF-BSBF {} at 240 jobs, {} at 480)",
		"ratio sjf-bsbf-table4|Tiresias|SJF-BSBF|avg_jct_s|all|1; ratio sjf-bsbf-table4|Tiresias|SJF-BSBF|avg_jct_s|all|2", "%.2f"},
	{"scenarios/sjf-bsbf-table4.json", "at 480 jobs backfilling SJF ({} h) and SJF-FFS ({} h) are both ahead of SJF-BSBF ({} h)",
		"value sjf-bsbf-table4|SJF|avg_jct_s|all|2; value sjf-bsbf-table4|SJF-FFS|avg_jct_s|all|2; value sjf-bsbf-table4|SJF-BSBF|avg_jct_s|all|2", "%.2f"},
	{"scenarios/sjf-bsbf-table4.json", "strict SJF ({} h) and strict FIFO ({} h) are far behind",
		"value sjf-bsbf-table4|SJF (strict)|avg_jct_s|all|2; value sjf-bsbf-table4|FIFO (strict)|avg_jct_s|all|2", "%.2f"},
	{"scenarios/sjfbco-fig2.json", "the {} % comes from the slower link and the overhead; at ξ1 = 1, k = 2, f = 2.5 and they take {} % longer",
		"ratio sjfbco-fig2|(b) split|(a) packed|makespan_s|all|0.5; ratio sjfbco-fig2|(b) split|(a) packed|makespan_s|all|1", "change:%.0f; change:%.1f"},
	{"scenarios/sjfbco-fig4-mild.json", "({} slots against LS {}, FF {} and RAND {}, less than one seed's spread)",
		"value sjfbco-fig4-mild|SJF-BCO|makespan_s|all|; value sjfbco-fig4-mild|LS|makespan_s|all|; value sjfbco-fig4-mild|FF|makespan_s|all|; value sjfbco-fig4-mild|RAND|makespan_s|all|", "%.0f"},
	{"scenarios/sjfbco-fig4-mild.json", "its lead in average JCT ({} against FF {}, RAND {} and LS {})",
		"value sjfbco-fig4-mild|SJF-BCO|avg_jct_s|all|; value sjfbco-fig4-mild|FF|avg_jct_s|all|; value sjfbco-fig4-mild|RAND|avg_jct_s|all|; value sjfbco-fig4-mild|LS|avg_jct_s|all|", "%.0f"},
	{"scenarios/sjfbco-fig4-mild.json", "SJF-BCO's the highest ({} %)",
		"value sjfbco-fig4-mild|SJF-BCO|rar_extra_share|all|", "pct:%.1f"},
	{"scenarios/sjfbco-fig4.json", "({} slots against FF {}, RAND {}, LS {})",
		"value sjfbco-fig4|SJF-BCO|makespan_s|all|; value sjfbco-fig4|FF|makespan_s|all|; value sjfbco-fig4|RAND|makespan_s|all|; value sjfbco-fig4|LS|makespan_s|all|", "%.0f"},
	{"scenarios/sjfbco-fig4.json", "({} against FF {}, RAND {}, LS {})",
		"value sjfbco-fig4|SJF-BCO|avg_jct_s|all|; value sjfbco-fig4|FF|avg_jct_s|all|; value sjfbco-fig4|RAND|avg_jct_s|all|; value sjfbco-fig4|LS|avg_jct_s|all|", "%.0f"},
	{"scenarios/sjfbco-fig4.json", "is {} % for SJF-BCO against {} % for FF, {} % for RAND and {} % for LS",
		"value sjfbco-fig4|SJF-BCO|rar_extra_share|all|; value sjfbco-fig4|FF|rar_extra_share|all|; value sjfbco-fig4|RAND|rar_extra_share|all|; value sjfbco-fig4|LS|rar_extra_share|all|", "pct:%.0f"},
	{"scenarios/sjfbco-fig5-mild.json", "What this model gives (10 seeds, full run): κ = 1: {}, 2: {}, 4: {}, 8: {}, 16: {}, 32: {} slots",
		"value sjfbco-fig5-mild|κ=1|makespan_s|all|; value sjfbco-fig5-mild|κ=2|makespan_s|all|; value sjfbco-fig5-mild|κ=4|makespan_s|all|; value sjfbco-fig5-mild|κ=8|makespan_s|all|; value sjfbco-fig5-mild|κ=16|makespan_s|all|; value sjfbco-fig5-mild|κ=32|makespan_s|all|", "%.0f"},
	{"scenarios/sjfbco-fig5.json", "What this model gives (10 seeds, full run): κ = 1: {}, 2: {}, 4: {}, 8: {}, 16: {}, 32: {} slots",
		"value sjfbco-fig5|κ=1|makespan_s|all|; value sjfbco-fig5|κ=2|makespan_s|all|; value sjfbco-fig5|κ=4|makespan_s|all|; value sjfbco-fig5|κ=8|makespan_s|all|; value sjfbco-fig5|κ=16|makespan_s|all|; value sjfbco-fig5|κ=32|makespan_s|all|", "%.0f"},
	{"scenarios/sjfbco-fig6-mild.json", "at 10 servers FF ({} slots), RAND ({}) and LS ({}) all edge SJF-BCO ({})",
		"value sjfbco-fig6-mild|FF|makespan_s|all|10; value sjfbco-fig6-mild|RAND|makespan_s|all|10; value sjfbco-fig6-mild|LS|makespan_s|all|10; value sjfbco-fig6-mild|SJF-BCO|makespan_s|all|10", "%.0f"},
	{"scenarios/sjfbco-fig6.json", "(SJF-BCO {} → {}, LS {} → {}, FF {} → {} slots)",
		"value sjfbco-fig6|SJF-BCO|makespan_s|all|10; value sjfbco-fig6|SJF-BCO|makespan_s|all|20; value sjfbco-fig6|LS|makespan_s|all|10; value sjfbco-fig6|LS|makespan_s|all|20; value sjfbco-fig6|FF|makespan_s|all|10; value sjfbco-fig6|FF|makespan_s|all|20", "%.0f"},
	{"scenarios/sjfbco-fig6.json", "(SJF-BCO / LS {}), as our check asks, but does not shrink steadily ({} at 16, {} at 18)",
		"ratio sjfbco-fig6|SJF-BCO|LS|makespan_s|all|10; ratio sjfbco-fig6|SJF-BCO|LS|makespan_s|all|16; ratio sjfbco-fig6|SJF-BCO|LS|makespan_s|all|18", "%.2f"},
	{"scenarios/sjfbco-fig7-mild.json", "λ = 1: {}, 2: {}, 4: {}, 8: {} slots, decreasing monotonically",
		"value sjfbco-fig7-mild|SJF-BCO|makespan_s|all|1; value sjfbco-fig7-mild|SJF-BCO|makespan_s|all|2; value sjfbco-fig7-mild|SJF-BCO|makespan_s|all|4; value sjfbco-fig7-mild|SJF-BCO|makespan_s|all|8", "%.0f"},
	{"scenarios/sjfbco-fig7.json", "λ = 1: {}, 2: {}, 4: {}, 8: {} slots: λ = 1 is clearly the worst",
		"value sjfbco-fig7|SJF-BCO|makespan_s|all|1; value sjfbco-fig7|SJF-BCO|makespan_s|all|2; value sjfbco-fig7|SJF-BCO|makespan_s|all|4; value sjfbco-fig7|SJF-BCO|makespan_s|all|8", "%.0f"},
	{"scenarios/tesserae-ablations.json", "migrations fall from {} (none) to {} (sticky), {} (two-level), {} (guarded) and {} (flat)",
		"value tesserae-ablations|Tesserae-T (no migration step)|migrations|all|; value tesserae-ablations|Tesserae-T (sticky migration)|migrations|all|; value tesserae-ablations|Tesserae-T|migrations|all|; value tesserae-ablations|Tesserae-T (guarded migration)|migrations|all|; value tesserae-ablations|Tesserae-T (flat migration)|migrations|all|", "sep:%.0f"},
	{"scenarios/tesserae-ablations.json", "landing the plan with no migration step costs {}% in average JCT",
		"ratio tesserae-ablations|Tesserae-T (no migration step)|Tesserae-T|avg_jct_s|all|", "change:%.0f"},
	{"scenarios/tesserae-fig11-migrations.json", "Tesserae-T's average JCT is {}x lower than Gavel's ({} h against {} h) and it moves fewer jobs than Gavel ({} against {})",
		"ratio tesserae-fig11-migrations|Gavel|Tesserae-T|avg_jct_s|all|; value tesserae-fig11-migrations|Tesserae-T|avg_jct_s|all|; value tesserae-fig11-migrations|Gavel|avg_jct_s|all|; value tesserae-fig11-migrations|Tesserae-T|migrations|all|; value tesserae-fig11-migrations|Gavel|migrations|all|", "%.2f; %.2f; %.2f; sep:%.0f; sep:%.0f"},
	{"scenarios/tesserae-fig11-migrations.json", "the matching cuts migrations by only about {}%, not the paper's 36%",
		"check tesserae-fig11-migrations|fig11-migrations|ours", "cut:%.0f"},
	{"scenarios/tesserae-fig11-migrations.json", "without packing the same swap cuts migrations by about {}%",
		"check tesserae-fig11-migrations|nopack-migrations|ours", "cut:%.0f"},
	{"scenarios/tesserae-fig11-migrations.json", "our gains over Tiresias (about {}x in JCT, {}x in makespan)",
		"check tesserae-fig11-migrations|jct-up-to-1.62|ours; check tesserae-fig11-migrations|makespan-up-to-1.15|ours", "%.2f"},
	{"scenarios/tesserae-fig11-sensitivity.json", "Why does tesserae-fig11-migrations find only about {}% migrations where the paper reports -36%?",
		"ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|0", "change:%.0f"},
	{"scenarios/tesserae-fig11-sensitivity.json", "the cut grows as packing gets selective: {}% at 0, {}% at 1.2, {}% at 1.4 (the paper's band), {}% at 1.6 and {}% at 1.8",
		"ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|0; ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|1.2; ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|1.4; ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|1.6; ratio tesserae-fig11-sensitivity|Tesserae-T|Tesserae-T + Gavel migration|migrations|all|1.8", "change:%.0f"},
	{"scenarios/tesserae-fig11-sensitivity.json", "The flat matching cuts {}% even with the paper's packing",
		"ratio tesserae-fig11-sensitivity|Tesserae-T (flat migration)|Tesserae-T + Gavel migration|migrations|all|0", "change:%.0f"},
	{"scenarios/tesserae-fig13-ftf.json", "Tesserae-FTF's worst and 95th-percentile rho are lower than Gavel-FTF's ({} against {}, and {} against {}), and its average JCT is about half of Gavel-FTF's ({} h against {} h)",
		"value tesserae-fig13-ftf|Tesserae-FTF|ftf_fair_max|all|; value tesserae-fig13-ftf|Gavel-FTF|ftf_fair_max|all|; value tesserae-fig13-ftf|Tesserae-FTF|ftf_fair_p95|all|; value tesserae-fig13-ftf|Gavel-FTF|ftf_fair_p95|all|; value tesserae-fig13-ftf|Tesserae-FTF|avg_jct_s|all|; value tesserae-fig13-ftf|Gavel-FTF|avg_jct_s|all|", "%.1f"},
	{"scenarios/tesserae-fig13-ftf.json", "lowers the worst rho against Tesserae-T's LAS order ({} against {})",
		"value tesserae-fig13-ftf|Tesserae-FTF|ftf_fair_max|all|; value tesserae-fig13-ftf|Tesserae-T|ftf_fair_max|all|", "%.1f"},
	{"scenarios/tesserae-fig16-noise.json", "from {} h exact to {} h at 100% noise, and the makespan hardly moves ({} h to {} h)",
		"value tesserae-fig16-noise|Tesserae-T|avg_jct_s|all|0; value tesserae-fig16-noise|Tesserae-T|avg_jct_s|all|1; value tesserae-fig16-noise|Tesserae-T|makespan_s|all|0; value tesserae-fig16-noise|Tesserae-T|makespan_s|all|1", "%.2f; %.2f; %.1f; %.1f"},
	{"scenarios/tesserae-fig17-gavel-trace.json", "Tesserae-T has the lowest average JCT ({} h; Gavel {} h, Tiresias (Single) {} h, Tiresias {} h)",
		"value tesserae-fig17-gavel-trace|Tesserae-T|avg_jct_s|all|; value tesserae-fig17-gavel-trace|Gavel|avg_jct_s|all|; value tesserae-fig17-gavel-trace|Tiresias (Single)|avg_jct_s|all|; value tesserae-fig17-gavel-trace|Tiresias (rounds)|avg_jct_s|all|", "%.1f"},
	{"scenarios/tesserae-fig17-gavel-trace.json", "Gavel's makespan is {}% lower than Tesserae-T's ({} h against {} h)",
		"ratio tesserae-fig17-gavel-trace|Gavel|Tesserae-T|makespan_s|all|; value tesserae-fig17-gavel-trace|Gavel|makespan_s|all|; value tesserae-fig17-gavel-trace|Tesserae-T|makespan_s|all|", "cut:%.0f; %.0f; %.0f"},
	{"scenarios/tesserae-fig17-gavel-trace.json", "the migration matching moves about {}% fewer jobs than Gavel's rule",
		"check tesserae-fig17-gavel-trace|fig17-migrations|ours", "cut:%.0f"},
	{"scenarios/tesserae-fig18-estimators.json", "({} h against the Oracle's {} h: the Blox DP pairs hardly change with the GPU count), and matrix completion costs about {}% ({} h)",
		"value tesserae-fig18-estimators|Linear model|avg_jct_s|all|; value tesserae-fig18-estimators|Oracle|avg_jct_s|all|; ratio tesserae-fig18-estimators|Matrix completion|Oracle|avg_jct_s|all|; value tesserae-fig18-estimators|Matrix completion|avg_jct_s|all|", "%.2f; %.2f; change:%.1f; %.2f"},
	{"scenarios/tesserae-fig18-estimators.json", "the linear model comes out {}% ahead of the Oracle",
		"ratio tesserae-fig18-estimators|Linear model|Oracle|avg_jct_s|all|", "cut:%.1f"},
	{"scenarios/tesserae-fig9-physical.json", "(average JCT {} h against {} h, {}x; makespan {} h against {} h, {}x, a little above the abstract's 'up to 1.15x'), and the shortest half of the jobs gains more than the average ({}x)",
		"value tesserae-fig9-physical|Tesserae-T|avg_jct_s|all|; value tesserae-fig9-physical|Tiresias|avg_jct_s|all|; check tesserae-fig9-physical|fig9-jct-up-to|ours; value tesserae-fig9-physical|Tesserae-T|makespan_s|all|; value tesserae-fig9-physical|Tiresias|makespan_s|all|; check tesserae-fig9-physical|fig9-makespan-up-to|ours; check tesserae-fig9-physical|fig9-short-gain|ours", "%.1f; %.1f; %.2f; %.1f; %.1f; %.2f; %.2f"},
}

func TestProseQuotesTheRecord(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "reproduction", "report.json"))
	if err != nil {
		t.Fatalf("%v (run make reproduce)", err)
	}
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, q := range quotes {
		text, ok := texts[q.file]
		if !ok {
			text, err = proseOf(q.file)
			if err != nil {
				t.Fatal(err)
			}
			texts[q.file] = text
		}
		want, err := renderQuote(rep, q)
		if err != nil {
			t.Errorf("%s: %q: %v", q.file, q.text, err)
			continue
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s should say %q (from the record: %s); the prose is stale or the quote moved", q.file, want, q.source)
		}
	}
}

// renderQuote is a quote's text with the record's numbers in it.
func renderQuote(rep results.Reproduction, q quote) (string, error) {
	sources := strings.Split(q.source, "; ")
	formats := strings.Split(q.format, "; ")
	if strings.Count(q.text, "{}") != len(sources) || (len(formats) != 1 && len(formats) != len(sources)) {
		return "", fmt.Errorf("%d {} for %d sources and %d formats", strings.Count(q.text, "{}"), len(sources), len(formats))
	}
	out := q.text
	for i, src := range sources {
		x, err := fromRecord(rep, src)
		if err != nil {
			return "", err
		}
		out = strings.Replace(out, "{}", formatQuote(formats[min(i, len(formats)-1)], x), 1)
	}
	return out, nil
}

// proseOf is a doc's text, or a scenario's description.
func proseOf(file string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		return "", err
	}
	if !strings.HasSuffix(file, ".json") {
		return strings.Join(strings.Fields(string(data)), " "), nil
	}
	var sc struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(data, &sc); err != nil {
		return "", fmt.Errorf("%s: %v", file, err)
	}
	return sc.Description, nil
}

// fromRecord reads a quote's number from the record.
func fromRecord(rep results.Reproduction, source string) (float64, error) {
	kind, arg, _ := strings.Cut(source, " ")
	f := strings.Split(arg, "|")
	figure := func(name string) (*results.FigureRepro, error) {
		for pi := range rep.Papers {
			for fi := range rep.Papers[pi].Figures {
				if fig := &rep.Papers[pi].Figures[fi]; fig.Scenario == name {
					return fig, nil
				}
			}
		}
		return nil, fmt.Errorf("no figure %s in the record", name)
	}
	value := func(fig *results.FigureRepro, policy, metric, group, x string) (float64, error) {
		for _, v := range fig.Values {
			vx := ""
			if v.X != nil {
				vx = strconv.FormatFloat(*v.X, 'g', -1, 64)
			}
			if v.Policy == policy && v.Metric == metric && v.Group == group && vx == x {
				if v.Mean == nil {
					return 0, fmt.Errorf("%s %s has no value (%s)", policy, metric, v.Error)
				}
				return *v.Mean, nil
			}
		}
		return 0, fmt.Errorf("no value %s %s %s at %q in %s", policy, metric, group, x, fig.Scenario)
	}
	switch kind {
	case "figures":
		n := 0
		for _, p := range rep.Papers {
			n += len(p.Figures)
		}
		return float64(n), nil
	case "claims", "passed":
		var t Tally
		found := false
		for _, p := range rep.Papers {
			if p.Paper == arg {
				t, found = Count(p.Figures...), true
			}
			for _, fig := range p.Figures {
				if fig.Scenario == arg {
					t, found = Count(fig), true
				}
			}
		}
		if !found {
			return 0, fmt.Errorf("no paper or figure %s in the record", arg)
		}
		if kind == "passed" {
			return float64(t.Pass), nil
		}
		return float64(t.Claims), nil
	case "wall-min":
		if rep.Run == nil {
			return 0, fmt.Errorf("the record has no run time")
		}
		return rep.Run.WallS / 60, nil
	case "cpu-s":
		if rep.Run == nil {
			return 0, fmt.Errorf("the record has no run time")
		}
		return rep.Run.CPUS, nil
	case "value":
		if len(f) != 5 {
			return 0, fmt.Errorf("value needs SCENARIO|POLICY|METRIC|GROUP|X")
		}
		fig, err := figure(f[0])
		if err != nil {
			return 0, err
		}
		return value(fig, f[1], f[2], f[3], f[4])
	case "ratio":
		if len(f) != 6 {
			return 0, fmt.Errorf("ratio needs SCENARIO|NUM|DEN|METRIC|GROUP|X")
		}
		fig, err := figure(f[0])
		if err != nil {
			return 0, err
		}
		n, err := value(fig, f[1], f[3], f[4], f[5])
		if err != nil {
			return 0, err
		}
		d, err := value(fig, f[2], f[3], f[4], f[5])
		if err != nil {
			return 0, err
		}
		return n / d, nil
	case "stretch", "paper-stretch":
		if (kind == "stretch" && len(f) != 5) || (kind == "paper-stretch" && len(f) != 4) {
			return 0, fmt.Errorf("%s needs SCENARIO|NUM|DEN|GROUP and, for ours, |X", kind)
		}
		fig, err := figure(f[0])
		if err != nil {
			return 0, err
		}
		read := func(policy, metric string) (float64, error) {
			if kind == "stretch" {
				return value(fig, policy, metric, f[3], f[4])
			}
			for _, r := range fig.Reference {
				if r.Policy == policy && r.Metric == metric && r.Group == f[3] {
					return r.Paper, nil
				}
			}
			return 0, fmt.Errorf("the paper gives no %s %s %s in %s", policy, metric, f[3], f[0])
		}
		running := func(policy string) (float64, error) {
			jct, err := read(policy, "avg_jct_s")
			if err != nil {
				return 0, err
			}
			wait, err := read(policy, "avg_wait_s")
			return jct - wait, err
		}
		n, err := running(f[1])
		if err != nil {
			return 0, err
		}
		d, err := running(f[2])
		if err != nil {
			return 0, err
		}
		return n / d, nil
	case "check":
		if len(f) != 3 {
			return 0, fmt.Errorf("check needs SCENARIO|ID|ours or paper")
		}
		fig, err := figure(f[0])
		if err != nil {
			return 0, err
		}
		for _, c := range fig.Checks {
			if c.ID != f[1] {
				continue
			}
			x := c.Ours
			if f[2] == "paper" {
				x = c.Paper
			}
			if x == nil {
				return 0, fmt.Errorf("check %s has no %s number", c.ID, f[2])
			}
			return *x, nil
		}
		return 0, fmt.Errorf("no check %s in %s", f[1], f[0])
	}
	return 0, fmt.Errorf("unknown source %q", source)
}

// formatQuote prints x as the prose does.
func formatQuote(format string, x float64) string {
	sep := false
	for {
		switch {
		case strings.HasPrefix(format, "pct:"):
			x, format = 100*x, strings.TrimPrefix(format, "pct:")
			continue
		case strings.HasPrefix(format, "change:"):
			x, format = 100*(x-1), strings.TrimPrefix(format, "change:")
			continue
		case strings.HasPrefix(format, "cut:"):
			x, format = 100*(1-x), strings.TrimPrefix(format, "cut:")
			continue
		case strings.HasPrefix(format, "x") && strings.Contains(format, ":"):
			factor, rest, _ := strings.Cut(format[1:], ":")
			if f, err := strconv.ParseFloat(factor, 64); err == nil {
				x, format = f*x, rest
				continue
			}
		case strings.HasPrefix(format, "sep:"):
			sep, format = true, strings.TrimPrefix(format, "sep:")
			continue
		}
		break
	}
	s := fmt.Sprintf(format, x)
	if s == "-0" {
		s = "0"
	}
	if sep && math.Abs(x) >= 1000 {
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		whole, frac, _ := strings.Cut(s, ".")
		var b strings.Builder
		for i, r := range whole {
			if i > 0 && (len(whole)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(r)
		}
		s = b.String()
		if frac != "" {
			s += "." + frac
		}
		if neg {
			s = "-" + s
		}
	}
	return s
}

// The quote check can fail: a number the record does not give, a quote
// whose source is unknown, and the formats by hand.
func TestQuoteFormats(t *testing.T) {
	for _, tc := range []struct {
		format string
		x      float64
		want   string
	}{
		{"%.1f", 2.345, "2.3"}, {"pct:%.0f", 0.462, "46"}, {"change:%+.0f", 0.88, "-12"},
		{"sep:%.0f", 6500.4, "6,500"}, {"sep:%.0f", 22701, "22,701"}, {"change:%.0f", 1.0001, "0"},
		{"cut:%.0f", 0.69, "31"}, {"x3600:%.0f", 0.0075, "27"}, {"x60:sep:%.0f", 1000, "60,000"}, {"%#.3g", 1.0, "1.00"},
	} {
		if got := formatQuote(tc.format, tc.x); got != tc.want {
			t.Errorf("%s of %g: %q, want %q", tc.format, tc.x, got, tc.want)
		}
	}
	x := 2.0
	rep := results.Reproduction{Papers: []results.PaperRepro{{Paper: "p", Figures: []results.FigureRepro{{Scenario: "s",
		Values: []results.ValueRepro{{Policy: "A", Metric: "m", Group: "all", Mean: &x}}}}}}}
	if v, err := fromRecord(rep, "value s|A|m|all|"); err != nil || v != 2 {
		t.Errorf("value: %v %v", v, err)
	}
	if _, err := fromRecord(rep, "value s|B|m|all|"); err == nil {
		t.Error("a value the record lacks was found")
	}
	rep.Papers[0].Figures[0].Checks = []results.CheckRepro{{ID: "c1", Verdict: "pass"}, {ID: "c2", Verdict: "fail"}, {ID: "c3", Verdict: "pass", Class: "exploration"}}
	for src, want := range map[string]float64{"claims p": 2, "passed p": 1, "claims s": 2, "passed s": 1} {
		if v, err := fromRecord(rep, src); err != nil || v != want {
			t.Errorf("%s: %v %v, want %v", src, v, err, want)
		}
	}
	if _, err := fromRecord(rep, "passed q"); err == nil {
		t.Error("a paper the record lacks was counted")
	}
	if _, err := fromRecord(rep, "median s"); err == nil {
		t.Error("an unknown source was accepted")
	}
	got, err := renderQuote(rep, quote{text: "A {} and {}%", source: "value s|A|m|all|; figures", format: "%.1f; pct:%.0f"})
	if err != nil || got != "A 2.0 and 100%" {
		t.Errorf("two numbers: %q %v", got, err)
	}
	if _, err := renderQuote(rep, quote{text: "A {} and {}", source: "figures", format: "%.0f"}); err == nil {
		t.Error("two {} with one source were accepted")
	}
}

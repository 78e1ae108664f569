package reproduce

import (
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
)

// Benchmark is a figure of measured wall times rather than a simulation:
// it has no scenario, and its checks judge this machine's times. Name
// stands where a scenario's name stands in the report; Checks are its
// check ids, every one a counted claim of the paper.
type Benchmark struct {
	Paper, Name, Figure, Title string
	Checks                     []string
}

// DecisionTime is the Tesserae paper's Figs. 2 and 14(a): how long one
// round's decision takes as the active jobs grow, against Gavel's LP.
var DecisionTime = Benchmark{Paper: "tesserae", Name: "tesserae-fig2-decision-time", Figure: "Figs. 2 and 14(a)",
	Title:  "Tesserae Figs. 2 and 14(a): decision time per round against the number of active jobs, Tesserae's matching against Gavel's LP, on 256 GPUs",
	Checks: []string{"under-1s", "faster-than-gavel"}}

var benchmarks = []Benchmark{DecisionTime}

// Benchmarks are the benchmark figures, in report order.
func Benchmarks() []Benchmark { return slices.Clone(benchmarks) }

// SelectBenchmarks keeps the benchmarks of one paper and one figure
// (either may be empty for all), matched as Select matches scenarios: by
// name, by the name without its paper's prefix, or by label.
func SelectBenchmarks(paper, figure string) []Benchmark {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	var out []Benchmark
	for _, b := range benchmarks {
		short := strings.TrimPrefix(strings.TrimPrefix(b.Name, b.Paper), "-")
		f := norm(figure)
		if (paper == "" || paper == b.Paper) && (figure == "" || f == norm(b.Name) || f == norm(short) || f == norm(b.Figure)) {
			out = append(out, b)
		}
	}
	return out
}

// AddFigure puts a benchmark's figure after its paper's other figures,
// adding the paper (in the order of Papers, with its figures that cannot
// be reproduced) when the report has none of its figures yet.
func AddFigure(rep *results.Reproduction, paper string, f results.FigureRepro) {
	for i := range rep.Papers {
		if rep.Papers[i].Paper == paper {
			rep.Papers[i].Figures = append(rep.Papers[i].Figures, f)
			return
		}
	}
	at := len(rep.Papers)
	for i, p := range rep.Papers {
		if paperRank(p.Paper) > paperRank(paper) {
			at = i
			break
		}
	}
	p := results.PaperRepro{Paper: paper, Title: PaperTitle(paper), CannotReproduce: CannotReproduce(paper), Figures: []results.FigureRepro{f}}
	rep.Papers = slices.Insert(rep.Papers, at, p)
}

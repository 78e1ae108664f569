// Package reproduce turns the paper scenarios into the reproduction
// report: which scenario reproduces which figure of which paper, each
// figure's checks with the paper's number beside ours and a verdict
// (results.Reproduction), the figure drawn as the paper draws it, and the
// report as Markdown. It is plain Go that compiles to WebAssembly, so that
// the page's gallery computes verdicts with the same code as the command
// line's `schedlab reproduce`.
package reproduce

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/scenario"
)

// Compare is the paper name of cross-paper scenarios: comparisons no
// paper ran, tagged "compare".
const Compare = "compare"

// Papers are the papers in report order, with their titles.
var Papers = []struct{ Name, Title string }{
	{"sjf-bsbf", "SJF-BSBF: Scheduling Deep Learning Jobs in Multi-Tenant GPU Clusters via Wise Resource Sharing"},
	{"gavel", "Gavel: Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads (OSDI 2020)"},
	{"ojpp", "OJPP: Interference-aware opportunistic job placement for shared distributed deep learning clusters (JPDC 2023)"},
	{"tesserae", "Tesserae: Scalable Placement Policies for Deep Learning Workloads (2025)"},
	{"sjf-bco", "SJF-BCO: On Scheduling Ring-All-Reduce Learning Jobs in Multi-Tenant GPU Clusters with Communication Contention (MobiHoc 2022)"},
	{Compare, "Cross-paper comparisons no paper ran: policies of several papers on one trace, cluster and perf model; their checks are our own findings from the full runs, not a paper's claims"},
}

// Entry is one figure: the scenario that reproduces it.
type Entry struct {
	Paper    string // e.g. "gavel", or Compare
	Figure   string // e.g. "Figure 8", from the scenario's title
	Scenario *scenario.Scenario
}

// Entries lists the figures among scs: every scenario tagged paper:NAME
// that has checks, and every scenario tagged "compare"; papers in the
// order of Papers (unknown ones after, by name), scenarios by name.
func Entries(scs []*scenario.Scenario) []Entry {
	var out []Entry
	for _, sc := range scs {
		paper := ""
		for _, t := range sc.Tags {
			if p, ok := strings.CutPrefix(t, "paper:"); ok && len(sc.Checks) > 0 {
				paper = p
			}
		}
		if hasTag(sc, Compare) {
			paper = Compare
		}
		if paper != "" {
			out = append(out, Entry{Paper: paper, Figure: FigureLabel(sc), Scenario: sc})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := paperRank(out[i].Paper), paperRank(out[j].Paper)
		if pi != pj {
			return pi < pj
		}
		if out[i].Paper != out[j].Paper {
			return out[i].Paper < out[j].Paper
		}
		return out[i].Scenario.Name < out[j].Scenario.Name
	})
	return out
}

func hasTag(sc *scenario.Scenario, tag string) bool {
	for _, t := range sc.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

func paperRank(p string) int {
	for i, q := range Papers {
		if q.Name == p {
			return i
		}
	}
	return len(Papers)
}

// PaperTitle is a paper's title, or its name when unknown.
func PaperTitle(p string) string {
	if i := paperRank(p); i < len(Papers) {
		return Papers[i].Title
	}
	return p
}

// figureHeadWords start what a title's head (the part before its colon)
// says it reproduces: "Figure 8", "Fig. 6(a)", "Figs. 5, 6 and 8", "Table
// III and Fig. 5", "§4".
var figureHeadWords = [...]string{"Figure", "Fig.", "Figs.", "Table", "Theorem", "§"}

// figureInHead is the rest of head from the first of figureHeadWords, or
// "": what the regular expression `(Figures?|Figs?\.|Tables?|Theorem|§)\s*[^:]*`
// finds in a head, which has no colon. The two matchers are written by
// hand because they were the last use of package regexp in the command
// line and the page: linking regexp makes every start in WebAssembly
// build unicode's tables of scripts and categories, whose run-once
// functions V8's optimising compiler then compiles (docs/development.md,
// issue 37). TestFigureMatchersAsRegexps checks them against the
// expressions.
func figureInHead(head string) string {
	first := -1
	for _, w := range figureHeadWords {
		if i := strings.Index(head, w); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	if first < 0 {
		return ""
	}
	return head[first:]
}

// figureInTitle finds a figure named later in a title: "SJF-BCO teaching:
// Fig. 2, two rings ..." gives "Fig. 2". It is the leftmost match of
// `(Figure|Fig\.|Table) [0-9IVX]+(\([a-z]\))?`, or "".
func figureInTitle(title string) string {
	for i := range len(title) {
		rest := title[i:]
		var n int
		switch {
		case strings.HasPrefix(rest, "Figure "):
			n = len("Figure ")
		case strings.HasPrefix(rest, "Fig. "):
			n = len("Fig. ")
		case strings.HasPrefix(rest, "Table "):
			n = len("Table ")
		default:
			continue
		}
		end := n
		for end < len(rest) && strings.IndexByte("0123456789IVX", rest[end]) >= 0 {
			end++
		}
		if end == n {
			continue
		}
		if end+2 < len(rest) && rest[end] == '(' && 'a' <= rest[end+1] && rest[end+1] <= 'z' && rest[end+2] == ')' {
			end += 3
		}
		return rest[:end]
	}
	return ""
}

// FigureLabel names the figure a scenario reproduces, from its title
// ("Gavel Figure 8: LAS ..." gives "Figure 8"); a title that names none
// gives the part after the paper's name ("Gavel: minimum cost ..." gives
// "minimum cost ...").
func FigureLabel(sc *scenario.Scenario) string {
	title := sc.Title
	if title == "" {
		return sc.Name
	}
	head, rest, found := strings.Cut(title, ":")
	if m := figureInHead(head); found && m != "" {
		return strings.TrimSpace(m)
	}
	if m := figureInTitle(title); m != "" {
		return m
	}
	if found && !strings.Contains(strings.TrimSpace(head), " ") {
		return strings.TrimSpace(rest)
	}
	return title
}

// Select keeps the entries of one paper and one figure (either may be
// empty for all). A figure matches by scenario name, by the name without
// its paper's prefix ("fig8-las-single"), or by label ("Figure 8",
// case and spaces ignored).
func Select(entries []Entry, paper, figure string) ([]Entry, error) {
	var papers []string
	var out []Entry
	for _, e := range entries {
		if len(papers) == 0 || papers[len(papers)-1] != e.Paper {
			papers = append(papers, e.Paper)
		}
		if paper != "" && e.Paper != paper {
			continue
		}
		if figure != "" && !matches(e, figure) {
			continue
		}
		out = append(out, e)
	}
	if paper != "" && !contains(papers, paper) {
		return nil, fmt.Errorf("--paper: no paper %q; the papers are %s", paper, strings.Join(papers, ", "))
	}
	if len(out) == 0 {
		var names []string
		for _, e := range entries {
			if paper == "" || e.Paper == paper {
				names = append(names, fmt.Sprintf("%s (%s)", e.Scenario.Name, e.Figure))
			}
		}
		for _, b := range SelectBenchmarks(paper, "") {
			names = append(names, fmt.Sprintf("%s (%s, timed on this machine)", b.Name, b.Figure))
		}
		where := "any paper"
		if paper != "" {
			where = "paper " + paper
		}
		return nil, fmt.Errorf("--figure: no figure %q in %s; the figures are the scenarios %s", figure, where, strings.Join(names, ", "))
	}
	return out, nil
}

func matches(e Entry, figure string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	f := norm(figure)
	name := e.Scenario.Name
	short := strings.TrimPrefix(strings.TrimPrefix(name, e.Paper), "-")
	return f == norm(name) || f == norm(short) || f == norm(e.Figure)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

package main

import (
	"fmt"
	"strings"
)

// docFile is where -docs writes the table, between beginMark and endMark.
const (
	docFile   = "docs/development.md"
	beginMark = "<!-- bench: written by make bench (build/benchreport) -->"
	endMark   = "<!-- end of bench -->"
)

// A row is one measurement beside its target and a peer's figure or a
// limit, where there is one.
type row struct {
	Measure string
	Value   string
	Target  string
	Peer    string
	Verdict string // "met", "not met", or "" when there is no target or no value
}

// skipped is a row not measured in this run, saying why.
func skipped(measure, target, why string) row {
	return row{Measure: measure, Value: "not measured: " + why, Target: target}
}

// failed is a row whose measurement failed, with the reason.
func failed(measure, target string, err error) row {
	return row{Measure: measure, Value: "failed: " + oneLine(err.Error(), 160), Target: target}
}

// verdict says whether a value meets its target: at most limit when
// lowerIsBetter, else at least limit.
func verdict(value, limit float64, lowerIsBetter bool) string {
	if lowerIsBetter == (value <= limit) {
		return "met"
	}
	return "not met"
}

// render writes the rows and the Philly rows as Markdown tables.
func render(rows, philly []row) string {
	var b strings.Builder
	b.WriteString("| measure | schedlab | target | peer or limit | |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell(r.Measure), cell(r.Value), cell(r.Target), cell(r.Peer), r.Verdict)
	}
	if len(philly) > 0 {
		b.WriteString("\nEvery policy on the whole Philly log (74,426 jobs), 64 GPUs, at most 60 s of CPU each:\n\n")
		b.WriteString("| policy | CPU (user + system) | target | |\n|---|---|---|---|\n")
		for _, r := range philly {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(r.Measure), cell(r.Value), cell(r.Target), r.Verdict)
		}
	}
	return b.String()
}

// cell escapes what would break a Markdown table's cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// splice puts the table between the markers of doc.
func splice(doc, table string) (string, error) {
	i := strings.Index(doc, beginMark)
	j := strings.Index(doc, endMark)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s has no %q … %q section for the table", docFile, beginMark, endMark)
	}
	return doc[:i+len(beginMark)] + "\n" + table + doc[j:], nil
}

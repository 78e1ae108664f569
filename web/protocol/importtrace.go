package protocol

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/trace"
)

// Importing a trace in a worker: parsing the whole Philly log (74,426
// jobs) froze the page's tab for seconds on its main thread, so the page
// sends the file's text to an engine worker instead.
//
//	{type: "import", id, json: ImportRequest,   page to worker: the text
//	 bin: {"trace": text}}                      in bin TraceKey
//	{type: "imported", id, json: Imported}      worker to page
const (
	TypeImport   = "import"
	TypeImported = "imported"
	TraceKey     = "trace"
)

// ImportRequest asks for a trace file to be read as a scenario.
type ImportRequest struct {
	Name    string        `json:"name"`   // the file's name, for messages
	Format  string        `json:"format"` // a trace.Formats name
	Options trace.Options `json:"options"`
	// Scenario is the name the scenario gets.
	Scenario string `json:"scenario"`
}

// Imported is what reading a trace gave: the import panel's summary,
// notes and first warnings, and the scenario document, or Err.
type Imported struct {
	Summary  string   `json:"summary,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Warned counts every warning; Warnings lists the first
	// MaxShownWarnings and a line counting the rest.
	Warned   int    `json:"warned,omitempty"`
	Document string `json:"document,omitempty"`
	Err      string `json:"err,omitempty"`
}

// MaxShownWarnings bounds the warnings an Imported lists.
const MaxShownWarnings = 20

// PageOptions name the import options in messages as the import panel
// labels them; the panel offers no window, duration filters or jobs CSV.
var PageOptions = map[string]string{"sample": "Sample (jobs)", "busiest": "Busiest window (h)", "seed": "Seed", "scale": "Time scale", "cluster": "Cluster",
	"max-gpus": "At most GPUs per job", "at-zero": "Every job at time 0"}

// maxChecked is the most jobs of an import the worker checks as a
// scenario, naming a problem by its line: checking the whole Philly log
// (74,426 jobs) takes seconds. Reading already checks every job's
// fields, so a larger import that still fails shows its problems in the
// editor, by their place in the scenario.
const maxChecked = 20_000

// ImportTrace reads text as the trace req describes.
func ImportTrace(req ImportRequest, text []byte) Imported {
	var out Imported
	req.Options.Labels = PageOptions
	res, err := trace.Import(req.Format, bytes.NewReader(text), req.Options)
	if err != nil {
		out.Err = fmt.Sprintf("%s could not be read as %s: %v", req.Name, req.Format, firstLines(err.Error(), 10))
		return out
	}
	out.Summary, out.Notes, out.Warned = res.Summary(), res.Notes, res.Warned
	for _, w := range res.Warnings[:min(len(res.Warnings), MaxShownWarnings)] {
		out.Warnings = append(out.Warnings, w.String())
	}
	if more := res.Warned - len(out.Warnings); more > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("… and %d more", more))
	}
	if err := res.NoJobs(); err != nil {
		out.Err = fmt.Sprintf("%s gives nothing to simulate: %v", req.Name, err)
		return out
	}
	doc, err := res.Scenario(trace.ScenarioInfo{Name: req.Scenario, Source: req.Name})
	if err == nil && (len(res.Jobs) <= maxChecked || req.Format == "jobs") {
		if err = res.Check(doc); err != nil {
			err = fmt.Errorf("the jobs of %s make no valid scenario: %s", req.Name, firstLines(err.Error(), 10))
		}
	}
	if err != nil {
		out.Err = err.Error()
		return out
	}
	out.Document = string(doc)
	return out
}

// firstLines keeps the first n lines of s, joined by "; ".
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines[n] = "…"
	}
	return strings.Join(lines, "; ")
}

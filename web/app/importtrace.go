package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/trace"
)

// TraceImport is the trace file last opened and what importing it gave:
// the import panel shows it, with the options to import it again.
type TraceImport struct {
	Name string
	text string
	// The options as typed.
	Format, Busiest, Sample, Seed, Scale, Cluster string
	Summary                                       string
	Notes, Warnings                               []string
	Err                                           string
	// Warned counts every warning; Warnings lists the first ones.
	Warned int
}

// maxShownWarnings bounds the warnings the panel lists.
const maxShownWarnings = 20

// OpenFile loads a file picked or dropped: a JSON document as a
// scenario, anything else as a trace.
func (a *App) OpenFile(name, text string) {
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		a.Import(name, text)
		return
	}
	a.ImportTrace(name, text)
}

// ImportTrace reads a trace with the options its format suggests and
// opens the scenario it gives.
func (a *App) ImportTrace(name, text string) {
	t := &TraceImport{Name: name, text: text, Seed: "1", Scale: "1"}
	t.Format = trace.Detect(name, []byte(text[:min(len(text), 4096)]))
	a.Trace = t
	a.ImportErr = ""
	if t.Format == "" {
		t.Err = "Could not tell the format of " + name + " from its first line; choose one and import again."
		return
	}
	a.ReimportTrace()
}

// ReimportTrace imports the trace again with the options of the panel.
func (a *App) ReimportTrace() {
	t := a.Trace
	if t == nil {
		return
	}
	t.Summary, t.Notes, t.Warnings, t.Warned, t.Err = "", nil, nil, 0, ""
	opt, err := t.options()
	if err != nil {
		t.Err = err.Error()
		return
	}
	res, err := trace.Import(t.Format, strings.NewReader(t.text), opt)
	if err != nil {
		t.Err = fmt.Sprintf("%s could not be read as %s: %v", t.Name, t.Format, firstLines(err.Error(), 10))
		return
	}
	t.Summary, t.Notes, t.Warned = res.Summary(), res.Notes, res.Warned
	for _, w := range res.Warnings[:min(len(res.Warnings), maxShownWarnings)] {
		t.Warnings = append(t.Warnings, w.String())
	}
	if more := res.Warned - len(t.Warnings); more > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("… and %d more", more))
	}
	if len(res.Jobs) == 0 {
		t.Err = "No job was left to simulate; see the reasons above."
		return
	}
	base := t.Name
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	doc, err := res.Scenario(trace.ScenarioInfo{Name: slug(base), Source: t.Name})
	if err != nil {
		t.Err = err.Error()
		return
	}
	a.Import(t.Name, string(doc))
}

// CloseTrace hides the import panel.
func (a *App) CloseTrace() { a.Trace = nil }

// options reads the panel's fields; a bad one names itself.
func (t *TraceImport) options() (trace.Options, error) {
	var o trace.Options
	num := func(label, s string, dst *float64) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 {
			return fmt.Errorf("%s: must be a number of at least 0, got %q", label, s)
		}
		*dst = v
		return nil
	}
	var sample, seed float64
	for _, f := range []struct {
		label, s string
		dst      *float64
	}{{"Busiest hours", t.Busiest, &o.BusiestH}, {"Sample", t.Sample, &sample}, {"Seed", t.Seed, &seed}, {"Time scale", t.Scale, &o.Scale}} {
		if err := num(f.label, f.s, f.dst); err != nil {
			return o, err
		}
	}
	if sample != float64(int(sample)) || seed != float64(uint64(seed)) {
		return o, fmt.Errorf("sample and seed must be whole numbers")
	}
	o.Sample, o.Seed, o.Cluster = int(sample), uint64(seed), t.Cluster
	return o, nil
}

// TraceFormats are the formats the panel offers.
func TraceFormats() []trace.Format {
	var out []trace.Format
	for _, f := range trace.Formats() {
		if f.Name != "scenario" {
			out = append(out, f)
		}
	}
	return out
}

// TraceClusters are the cluster presets the panel offers.
func TraceClusters() []trace.Cluster { return trace.Clusters() }

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines[n] = "…"
	}
	return strings.Join(lines, "; ")
}

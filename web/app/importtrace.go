package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/trace"
	"github.com/schedlab/schedlab/web/protocol"
)

// TraceImport is the trace file last opened and what importing it gave:
// the import panel shows it, with the options to import it again.
type TraceImport struct {
	Name string
	text string
	// The options as typed.
	Format, Busiest, Sample, Seed, Scale, Cluster, MaxGPUs string
	// AtZero submits every job at time 0, the offline batch the SJF-BCO
	// policies plan.
	AtZero          bool
	Summary         string
	Notes, Warnings []string
	Err             string
	// Warned counts every warning; Warnings lists the first ones.
	Warned int
	// Reading is set while an engine worker reads the file; seq tells
	// its reply from that of an earlier import.
	Reading bool
	seq     int
}

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
// An engine worker reads it (the whole Philly log froze the tab for
// seconds on the page's main thread); the panel says so meanwhile, and
// the reply fills it (traceImported). Without a working engine the page
// reads it itself.
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
	base := t.Name
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	req := protocol.ImportRequest{Name: t.Name, Format: t.Format, Options: opt, Scenario: slug(base)}
	if a.pool.loadErr != "" {
		a.traceImported(t, protocol.ImportTrace(req, []byte(t.text)))
		return
	}
	t.Reading = true
	t.seq++
	seq := t.seq
	a.pool.importTrace(req, []byte(t.text), func(m protocol.Message) {
		if a.Trace != t || t.seq != seq {
			return // closed, replaced or imported again since
		}
		t.Reading = false
		var im protocol.Imported
		var err error
		if m.Type == protocol.TypeImported {
			err = json.Unmarshal(m.JSON, &im)
		} else {
			var e protocol.Error
			err = json.Unmarshal(m.JSON, &e)
			if err == nil {
				err = errors.New(e.Message)
			}
		}
		if err != nil {
			im = protocol.Imported{Err: fmt.Sprintf("%s could not be read: %v", t.Name, err)}
		}
		a.traceImported(t, im)
	})
}

// traceImported fills the panel with what reading the trace gave and
// opens its scenario.
func (a *App) traceImported(t *TraceImport, im protocol.Imported) {
	t.Summary, t.Notes, t.Warnings, t.Warned, t.Err = im.Summary, im.Notes, im.Warnings, im.Warned, im.Err
	if t.Err == "" {
		a.Import(t.Name, im.Document)
	}
}

// CloseTrace hides the import panel.
func (a *App) CloseTrace() { a.Trace = nil }

// options reads the panel's fields; a bad one names itself.
func (t *TraceImport) options() (trace.Options, error) {
	var o trace.Options
	shown := func(s string) string {
		if r := []rune(s); len(r) > 40 {
			return string(r[:40]) + "…"
		}
		return s
	}
	num := func(label, s string, dst *float64) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || !(v >= 0 && v <= 1e6) { // NaN and Inf too
			return fmt.Errorf("%s: must be a number from 0 to 1,000,000, got %q", label, shown(s))
		}
		*dst = v
		return nil
	}
	whole := func(label, s string, hi uint64, dst *uint64) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil || v > hi {
			return fmt.Errorf("%s: must be a whole number from 0 to %d, got %q", label, hi, shown(s))
		}
		*dst = v
		return nil
	}
	var sample uint64
	if err := num("Busiest window (h)", t.Busiest, &o.BusiestH); err != nil {
		return o, err
	}
	if err := whole("Sample (jobs)", t.Sample, uint64(trace.Limits.MaxJobs), &sample); err != nil {
		return o, err
	}
	if err := whole("Seed", t.Seed, math.MaxUint64, &o.Seed); err != nil {
		return o, err
	}
	if err := num("Time scale", t.Scale, &o.Scale); err != nil {
		return o, err
	}
	var maxGPUs uint64
	if err := whole("At most GPUs per job", t.MaxGPUs, 4096, &maxGPUs); err != nil {
		return o, err
	}
	if maxGPUs > 0 {
		f := trace.PolluxFilters
		if format, ok := trace.Lookup(t.Format); ok {
			f = format.Filters
		}
		f.MaxGPUs = int(maxGPUs)
		o.Filters = &f
	}
	if o.AtZero = t.AtZero; o.AtZero && o.Scale != 0 && o.Scale != 1 {
		return o, fmt.Errorf("%s: with every job at time 0 there are no arrival times to scale; set it to 1, or clear \"Every job at time 0\"", "Time scale")
	}
	o.Sample, o.Cluster = int(sample), t.Cluster
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

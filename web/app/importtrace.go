package app

import (
	"encoding/json"
	"errors"
	"fmt"
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
	Format, Busiest, Sample, Seed, Scale, Cluster string
	Summary                                       string
	Notes, Warnings                               []string
	Err                                           string
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

package trace

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// Options choose what part of a trace becomes the job list.
type Options struct {
	// Window keeps jobs submitted in [Window[0], Window[1]) hours after
	// the first submission of the file (after filters); nil keeps all.
	Window *[2]float64 `json:"window_h,omitempty"`
	// BusiestH, when above 0, keeps the BusiestH-hour window with the
	// most submissions (the earliest of equals) instead of Window.
	BusiestH float64 `json:"busiest_h,omitempty"`
	// Sample keeps this many jobs drawn uniformly without replacement
	// (0 keeps all); Seed seeds it and the model mapping.
	Sample int    `json:"sample,omitempty"`
	Seed   uint64 `json:"seed,omitempty"`
	// Scale multiplies every arrival time (0 means 1): below 1 the same
	// jobs arrive closer together, a heavier load.
	Scale float64 `json:"scale,omitempty"`
	// Cluster names a preset (see Clusters); "" takes the format's.
	Cluster string `json:"cluster,omitempty"`
	// Filters drop jobs by duration and GPU time; nil takes the format's
	// defaults (Philly: Pollux's, see PolluxFilters).
	Filters *Filters `json:"filters,omitempty"`
	// BertShare is the share of 1–10 GPU-hour jobs mapped to BERT rather
	// than DeepSpeech2 where the trace names no model (Pollux: 0.5);
	// nil means 0.5.
	BertShare *float64 `json:"bert_share,omitempty"`
}

// Filters drop jobs outside bounds; a zero bound is no bound.
type Filters struct {
	MinDurationS float64 `json:"min_duration_s,omitempty"`
	MaxGPUHours  float64 `json:"max_gpu_hours,omitempty"`
}

// PolluxFilters are the filters of Pollux's workload generator (spec 000
// §5.3): jobs of at least 60 s and below 1000 GPU-hours.
var PolluxFilters = Filters{MinDurationS: 60, MaxGPUHours: 1000}

// Issue is one line-numbered problem; Line 0 concerns the whole file.
type Issue struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

func (i Issue) String() string {
	if i.Line == 0 {
		return i.Msg
	}
	return fmt.Sprintf("line %d: %s", i.Line, i.Msg)
}

// Errors are the rows that could not be read; the import failed.
type Errors []Issue

func (e Errors) Error() string {
	parts := make([]string, len(e))
	for i, x := range e {
		parts[i] = x.String()
	}
	return strings.Join(parts, "\n")
}

// maxIssues bounds the errors and the listed warnings of one import; the
// counts in the summary stay exact.
const maxIssues = 100

// Drop counts the jobs left out for one reason.
type Drop struct {
	Reason string `json:"reason"`
	Jobs   int    `json:"jobs"`
}

// Result is an imported job list with what it took to get it.
type Result struct {
	Format   string         `json:"format"`
	Rows     int            `json:"rows"` // data rows read
	Jobs     []workload.Job `json:"-"`
	Drops    []Drop         `json:"drops,omitempty"`
	Warnings []Issue        `json:"warnings,omitempty"` // the first maxIssues
	Warned   int            `json:"warned"`             // all warnings
	Cluster  Cluster        `json:"cluster"`
	Perf     Perf           `json:"-"`
	Notes    []string       `json:"notes,omitempty"` // how fields were mapped
}

// Summary is one line: rows read, jobs kept and every drop reason.
func (r *Result) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d rows read, %d jobs kept", r.Format, r.Rows, len(r.Jobs))
	for _, d := range r.Drops {
		fmt.Fprintf(&b, "; %d %s", d.Jobs, d.Reason)
	}
	switch {
	case r.Warned == 1:
		b.WriteString(" (1 warning)")
	case r.Warned > 1:
		fmt.Fprintf(&b, " (%d warnings)", r.Warned)
	}
	return b.String()
}

// row is one job read from a trace, before the pipeline.
type row struct {
	line    int
	job     workload.Job
	submitS float64 // absolute submission time, s
	// noModel asks for Pollux's GPU-time buckets.
	noModel bool
}

// Format is one trace layout.
type Format struct {
	Name    string
	Title   string
	Columns string // the layout, for help texts
	Cluster string // default cluster preset
	Filters Filters
	// absolute: arrivals are already schedlab's seconds (jobs CSV,
	// scenario JSON) and stay as they are unless a window moves them.
	absolute bool
	read     func(r io.Reader, b *builder) error
}

// Formats lists the importable formats in a fixed order.
func Formats() []Format { return formats }

// Lookup returns the format called name.
func Lookup(name string) (Format, bool) {
	for _, f := range formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// FormatNames are the formats' names, comma-separated.
func FormatNames() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// builder collects rows and issues while a format reads.
type builder struct {
	rows   []row
	errs   Errors
	nerr   int
	warn   []Issue
	warned int
	drops  map[string]int
	order  []string // drop reasons in first-seen order
	notes  []string
	rowsIn int
	// start is the first submission after filters; busiestFrom the
	// start of the busiest window.
	start, busiestFrom float64
}

func (b *builder) errorf(line int, format string, args ...any) {
	b.nerr++
	if len(b.errs) < maxIssues {
		b.errs = append(b.errs, Issue{line, fmt.Sprintf(format, args...)})
	}
}

// drop leaves a job out with a warning and counts it under reason.
func (b *builder) drop(line int, reason, format string, args ...any) {
	b.warned++
	if len(b.warn) < maxIssues {
		b.warn = append(b.warn, Issue{line, fmt.Sprintf(format, args...)})
	}
	b.count(reason, 1)
}

// count records n jobs dropped for reason without a warning each (a
// filter the user asked for).
func (b *builder) count(reason string, n int) {
	if n == 0 {
		return
	}
	if b.drops == nil {
		b.drops = map[string]int{}
	}
	if _, ok := b.drops[reason]; !ok {
		b.order = append(b.order, reason)
	}
	b.drops[reason] += n
}

func (b *builder) note(s string) { b.notes = append(b.notes, s) }

// Import reads a trace of the named format and applies the options.
func Import(format string, r io.Reader, opt Options) (*Result, error) {
	f, ok := Lookup(format)
	if !ok {
		return nil, fmt.Errorf("unknown trace format %q; known formats: %s", format, FormatNames())
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	preset := opt.Cluster
	if preset == "" {
		preset = f.Cluster
	}
	cl, ok := LookupCluster(preset)
	if !ok {
		return nil, fmt.Errorf("unknown cluster %q; known clusters: %s", preset, ClusterNames())
	}
	b := &builder{}
	if err := f.read(r, b); err != nil {
		return nil, err
	}
	if len(b.errs) > 0 {
		if b.nerr > len(b.errs) {
			b.errs = append(b.errs, Issue{0, fmt.Sprintf("… and %d more errors", b.nerr-len(b.errs))})
		}
		return nil, b.errs
	}
	filters := f.Filters
	if opt.Filters != nil {
		filters = *opt.Filters
	}
	jobs, err := b.pipeline(opt, filters, cl, f.absolute)
	if err != nil {
		return nil, err
	}
	res := &Result{Format: f.Name, Rows: b.rowsIn, Jobs: jobs, Warnings: b.warn, Warned: b.warned, Cluster: cl, Perf: cl.Perf, Notes: b.notes}
	for _, reason := range b.order {
		res.Drops = append(res.Drops, Drop{reason, b.drops[reason]})
	}
	return res, nil
}

func (o *Options) check() error {
	switch {
	case o.Window != nil && !(o.Window[0] >= 0 && o.Window[1] > o.Window[0]):
		return fmt.Errorf("window: must be two hours A,B with 0 ≤ A < B, got %v,%v", o.Window[0], o.Window[1])
	case o.Window != nil && o.BusiestH > 0:
		return fmt.Errorf("window and busiest: give one of them, not both")
	case o.BusiestH < 0:
		return fmt.Errorf("busiest: must be a positive number of hours, got %v", o.BusiestH)
	case o.Sample < 0:
		return fmt.Errorf("sample: must be a positive number of jobs, got %d", o.Sample)
	case o.Scale < 0 || o.Scale > 1e6:
		return fmt.Errorf("scale: must be above 0 and at most 1e6, got %v", o.Scale)
	case o.BertShare != nil && !(*o.BertShare >= 0 && *o.BertShare <= 1):
		return fmt.Errorf("bert_share: must be between 0 and 1, got %v", *o.BertShare)
	}
	return nil
}

// sortRows orders rows by submission, then line, so that every later
// step sees one order. It sorts small keys and moves each row once: rows
// are large, and swapping them dominated a sort of the whole Philly log.
func sortRows(rows []row) {
	type key struct {
		t    float64
		line int
		i    int32
	}
	keys := make([]key, len(rows))
	sorted := true
	for i := range rows {
		keys[i] = key{rows[i].submitS, rows[i].line, int32(i)}
		if i > 0 && (keys[i].t < keys[i-1].t || keys[i].t == keys[i-1].t && keys[i].line < keys[i-1].line) {
			sorted = false
		}
	}
	if sorted {
		return
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].t != keys[b].t {
			return keys[a].t < keys[b].t
		}
		return keys[a].line < keys[b].line
	})
	tmp := make([]row, len(rows))
	for i, k := range keys {
		tmp[i] = rows[k.i]
	}
	copy(rows, tmp)
}

// checkFit drops the rows whose jobs could never run on the cluster.
func (b *builder) checkFit(rows []row, c *cluster.Cluster) []row {
	out := rows[:0]
	for _, r := range rows {
		if ok, reason := c.Fit(r.job.GPUs, 0, r.job.GPUType); !ok {
			b.drop(r.line, "larger than the cluster", "job %s asks for %d GPUs: %s; left out", r.job.Name, r.job.GPUs, reason)
			continue
		}
		out = append(out, r)
	}
	return out
}

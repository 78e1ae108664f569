package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
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
	// AtZero submits every kept job at time 0, an offline batch (the
	// SJF-BCO policies plan only such a batch). The window, the busiest
	// window and the sample still choose jobs by their submission times,
	// and the jobs keep their order. Scale must then be 0 or 1.
	AtZero bool `json:"at_zero,omitempty"`
	// Cluster names a preset (see Clusters); "" takes the format's.
	Cluster string `json:"cluster,omitempty"`
	// Filters drop jobs by duration and GPU time; nil takes the format's
	// defaults (Philly: Pollux's, see PolluxFilters).
	Filters *Filters `json:"filters,omitempty"`
	// BertShare is the share of 1–10 GPU-hour jobs mapped to BERT rather
	// than DeepSpeech2 where the trace names no model (Pollux: 0.5);
	// nil means 0.5.
	BertShare *float64 `json:"bert_share,omitempty"`
	// JobsCSV: the jobs become a jobs CSV, not a scenario, and may be
	// up to Limits.MaxJobsCSV.
	JobsCSV bool `json:"-"`
	// Labels name the options in messages as the user gives them
	// ("sample" -> "Sample"), "" for one the user cannot give; nil
	// names schedlab import's flags ("--sample N").
	Labels map[string]string `json:"-"`
}

// Filters drop jobs outside bounds; a zero bound is no bound.
type Filters struct {
	MinDurationS float64 `json:"min_duration_s,omitempty"`
	MaxGPUHours  float64 `json:"max_gpu_hours,omitempty"`
	// MaxGPUs drops jobs of more GPUs than this (e.g. 1 for policies of
	// single-GPU jobs such as AlloX); 0: no bound.
	MaxGPUs int `json:"max_gpus,omitempty"`
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
	// Option is the option that changes it ("min-duration"), if any.
	Option string `json:"option,omitempty"`
}

// Result is an imported job list with what it took to get it.
type Result struct {
	Format   string            `json:"format"`
	Rows     int               `json:"rows"` // data rows read
	Jobs     []workload.Job    `json:"-"`
	Lines    []int             `json:"-"` // the line each job was read from
	Drops    []Drop            `json:"drops,omitempty"`
	Warnings []Issue           `json:"warnings,omitempty"` // the first maxIssues
	Warned   int               `json:"warned"`             // all warnings
	Cluster  Cluster           `json:"cluster"`
	Perf     Perf              `json:"-"`
	Notes    []string          `json:"notes,omitempty"`   // how fields were mapped
	AtZero   bool              `json:"at_zero,omitempty"` // every job arrives at time 0 (Options.AtZero)
	names    map[string]string // option labels
	columns  map[string]string // job field -> the column it was read from
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

// NoJobs says why no job is left, or returns nil when some are: a file of
// no data rows, or one whose every job was left out, with the reasons and
// the options that change them.
func (r *Result) NoJobs() error {
	if len(r.Jobs) > 0 {
		return nil
	}
	if r.Rows == 0 {
		return Errors{{0, "no data rows: the file holds no job (only a header line, or blank lines)"}}
	}
	parts := make([]string, len(r.Drops))
	for i, d := range r.Drops {
		parts[i] = fmt.Sprintf("%s %s", results.Thousands(d.Jobs), d.Reason)
		if d.Option != "" {
			parts[i] += " (" + optionName(r.names, d.Option) + ")"
		}
	}
	return Errors{{0, fmt.Sprintf("every job was left out, none is left to simulate: %s", strings.Join(parts, "; "))}}
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
	// document: the file is one document (a scenario), not lines of
	// rows, so no line-length limit applies.
	document bool
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
	rows   chunked[row]
	more   chunked[workload.Job] // the other fields of rows that have them
	strs   map[string]string     // interned models, entities, GPU types
	errs   Errors
	nerr   int
	warn   []Issue
	warned int
	drops  map[string]*Drop
	order  []string // drop reasons in first-seen order
	notes  []string
	rowsIn int
	// namePrefix names the jobs of a format that names them by line.
	namePrefix string
	// columns name, for messages, the column each job field was read
	// from ("iterations" -> "total_steps").
	columns map[string]string

	lim     LimitSet
	opt     Options
	filters Filters
	cl      *cluster.Cluster
	models  string // the cluster preset's Models
	// selecting: a window, the busiest window or a sample chooses the
	// jobs, so every row is kept until they have chosen; otherwise a
	// job that passes the filters and fits is kept, and counted.
	selecting  bool
	candidates int
	short      int // left out by the filters while reading
	long       int
	wide       int
	// stop is the limit that ended reading.
	stop error
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
	b.count(reason, "", 1)
}

// count records n jobs dropped for reason without a warning each (a
// filter the user asked for); option names the option that changes it.
func (b *builder) count(reason, option string, n int) {
	if n == 0 {
		return
	}
	if b.drops == nil {
		b.drops = map[string]*Drop{}
	}
	d, ok := b.drops[reason]
	if !ok {
		d = &Drop{Reason: reason, Option: option}
		b.drops[reason] = d
		b.order = append(b.order, reason)
	}
	d.Jobs += n
}

func (b *builder) note(s string) { b.notes = append(b.notes, s) }

// maxJobs is the most jobs the import may keep.
func (b *builder) maxJobs() int {
	if b.opt.JobsCSV {
		return b.lim.MaxJobsCSV
	}
	return b.lim.MaxJobs
}

// nextRow counts a data row; false once the row limit is passed or a
// limit stopped reading.
func (b *builder) nextRow(line int) bool {
	if b.stop != nil {
		return false
	}
	if b.rowsIn >= b.lim.MaxRows {
		b.stop = &LimitError{fmt.Sprintf("line %s: the file has more than %s data rows, the most one import reads; split it (e.g. by time) and import a part",
			results.Thousands(line), results.Thousands(b.lim.MaxRows))}
		return false
	}
	b.rowsIn++
	return true
}

// add keeps a parsed job. Its fields must lie within a scenario's bounds
// (otherwise the row is an error naming its line and column); the
// filters count it out; without a window or a sample, the job limit is
// checked at once, so that a file of too many jobs stops being read.
func (b *builder) add(p parsed) {
	if col, msg := b.checkFields(&p.job); msg != "" {
		b.errorf(p.line, "column %s: %s", col, msg)
		return
	}
	d, f := p.job.DurationS, b.filters
	switch {
	case f.MinDurationS > 0 && d > 0 && d < f.MinDurationS:
		b.short++
		return
	case f.MaxGPUHours > 0 && d > 0 && float64(p.job.GPUs)*d/3600 >= f.MaxGPUHours:
		b.long++
		return
	case f.MaxGPUs > 0 && p.job.GPUs > f.MaxGPUs:
		b.wide++
		return
	}
	if !b.selecting {
		if ok, _ := b.cl.Fit(p.job.GPUs, 0, p.job.GPUType); ok {
			if b.candidates++; b.candidates > b.maxJobs() {
				b.stop = b.tooManyJobs(p.line, 0)
				return
			}
		}
	}
	b.rows.add(b.pack(&p))
}

// tooManyJobs is the job limit's error, with the options that help: at
// line, while reading (n is 0), or after the window and the sample, which
// left n jobs.
func (b *builder) tooManyJobs(line, n int) error {
	limit := results.Thousands(b.maxJobs())
	holder := "a scenario may list"
	if b.opt.JobsCSV {
		holder = "one run may have"
	}
	msg := fmt.Sprintf("the file has more than %s jobs (by line %s), the most %s", limit, results.Thousands(line), holder)
	if n > 0 {
		msg = fmt.Sprintf("the options leave %s jobs, more than the %s %s", results.Thousands(n), limit, holder)
	}
	msg += "; keep fewer with " + b.options("sample", "window", "busiest") + ", or leave some out with " + b.options("min-duration", "max-gpu-hours")
	if csv := optionName(b.opt.Labels, "jobs-csv"); csv != "" && !b.opt.JobsCSV {
		msg += fmt.Sprintf(", or write them as a jobs CSV (%s, up to %s jobs)", csv, results.Thousands(b.lim.MaxJobsCSV))
	}
	return &LimitError{msg}
}

// options lists the named options as the user gives them, "A, B or C",
// leaving out those the user cannot give (the page offers no window).
func (b *builder) options(keys ...string) string {
	var names []string
	for _, k := range keys {
		if n := optionName(b.opt.Labels, k); n != "" {
			names = append(names, n)
		}
	}
	switch len(names) {
	case 0:
		return "other options"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// cliOptions are the options as schedlab import takes them.
var cliOptions = map[string]string{
	"window": "--window A,B", "busiest": "--busiest H", "sample": "--sample N", "seed": "--seed S", "scale": "--scale X",
	"cluster": "--cluster NAME", "min-duration": "--min-duration S", "max-gpu-hours": "--max-gpu-hours H", "jobs-csv": "--jobs-csv",
	"max-gpus": "--max-gpus N", "at-zero": "--at-zero",
}

// optionName is how the user gives an option: labels (the page's), or
// schedlab import's flags; "" when it cannot be given.
func optionName(labels map[string]string, key string) string {
	if labels != nil {
		return labels[key]
	}
	return cliOptions[key]
}

// Import reads a trace of the named format and applies the options.
func Import(format string, r io.Reader, opt Options) (*Result, error) {
	return importWith(Limits, format, r, opt)
}

func importWith(lim LimitSet, format string, r io.Reader, opt Options) (*Result, error) {
	f, ok := Lookup(format)
	if !ok {
		return nil, fmt.Errorf("unknown trace format %s; known formats: %s", quote(format), FormatNames())
	}
	if err := opt.check(lim); err != nil {
		return nil, err
	}
	preset := opt.Cluster
	if preset == "" {
		preset = f.Cluster
	}
	cl, ok := LookupCluster(preset)
	if !ok {
		return nil, fmt.Errorf("unknown cluster %s; known clusters: %s", quote(preset), ClusterNames())
	}
	c, err := cluster.New(cl.Spec)
	if err != nil {
		return nil, err
	}
	if f.document {
		lim.MaxBytes, lim.MaxLineBytes = min(lim.MaxBytes, lim.MaxScenarioBytes), int(lim.MaxScenarioBytes)+1
	}
	in, err := newInput(r, lim)
	if err != nil {
		return nil, err
	}
	b := &builder{lim: lim, opt: opt, filters: f.Filters, cl: c, models: cl.Models, selecting: opt.Window != nil || opt.BusiestH > 0 || opt.Sample > 0}
	if opt.Filters != nil {
		b.filters = *opt.Filters
	}
	err = f.read(in, b)
	if le := (*LimitError)(nil); errors.As(in.err, &le) && b.stop == nil && err == nil {
		b.stop = le // a limit of the input a reader took for the end
	}
	switch {
	case b.stop != nil:
		return nil, b.stop
	case err != nil:
		return nil, err
	}
	if len(b.errs) > 0 {
		if b.nerr > len(b.errs) {
			b.errs = append(b.errs, Issue{0, fmt.Sprintf("… and %d more errors", b.nerr-len(b.errs))})
		}
		return nil, b.errs
	}
	res := &Result{Format: f.Name, Rows: b.rowsIn, Cluster: cl, Perf: cl.Perf, AtZero: opt.AtZero, names: opt.Labels, columns: b.columns}
	res.Jobs, res.Lines, err = b.pipeline(opt, c, f.absolute)
	if err != nil {
		return nil, err
	}
	res.Warnings, res.Warned, res.Notes = b.warn, b.warned, b.notes
	for _, reason := range b.order {
		res.Drops = append(res.Drops, *b.drops[reason])
	}
	return res, nil
}

// maxHours bounds hours given as options (about 114 years).
const maxHours = 1e6

// maxJobGPUs is the most GPUs a job may ask for (workload.Job's bound).
const maxJobGPUs = 4096

func (o *Options) check(lim LimitSet) error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	maxJobs := lim.MaxJobs
	if o.JobsCSV {
		maxJobs = lim.MaxJobsCSV
	}
	switch {
	case o.Window != nil && !(finite(o.Window[0]) && finite(o.Window[1]) && o.Window[0] >= 0 && o.Window[1] > o.Window[0] && o.Window[1] <= maxHours):
		return fmt.Errorf("window: must be two hours A,B with 0 ≤ A < B ≤ %g, got %v,%v", maxHours, o.Window[0], o.Window[1])
	case o.Window != nil && o.BusiestH != 0:
		return fmt.Errorf("window and busiest: give one of them, not both")
	case !(o.BusiestH >= 0 && o.BusiestH <= maxHours):
		return fmt.Errorf("busiest: must be a number of hours above 0 and at most %g, got %v", maxHours, o.BusiestH)
	case o.Sample < 0 || o.Sample > maxJobs:
		return fmt.Errorf("sample: must be a number of jobs from 1 to %s, got %d", results.Thousands(maxJobs), o.Sample)
	case !(o.Scale >= 0 && o.Scale <= 1e6):
		return fmt.Errorf("scale: must be above 0 and at most 1e6, got %v", o.Scale)
	case o.AtZero && o.Scale != 0 && o.Scale != 1:
		return fmt.Errorf("scale and at_zero: at_zero submits every job at time 0, so no scale of arrival times applies; give one of them, not both (scale %v)", o.Scale)
	case o.BertShare != nil && !(*o.BertShare >= 0 && *o.BertShare <= 1):
		return fmt.Errorf("bert_share: must be between 0 and 1, got %v", *o.BertShare)
	case o.Filters != nil && !(o.Filters.MinDurationS >= 0 && o.Filters.MinDurationS <= workload.MaxTimeS):
		return fmt.Errorf("min_duration_s: must be a number of seconds from 0 to %g, got %v", workload.MaxTimeS, o.Filters.MinDurationS)
	case o.Filters != nil && !(o.Filters.MaxGPUHours >= 0 && o.Filters.MaxGPUHours <= 1e12):
		return fmt.Errorf("max_gpu_hours: must be a number of GPU-hours from 0 (no bound) to 1e12, got %v", o.Filters.MaxGPUHours)
	case o.Filters != nil && !(o.Filters.MaxGPUs >= 0 && o.Filters.MaxGPUs <= maxJobGPUs):
		return fmt.Errorf("max_gpus: must be a number of GPUs from 0 (no bound) to %d, got %d", maxJobGPUs, o.Filters.MaxGPUs)
	}
	return nil
}

// sortKey orders a kept row: by submission, then line. i is the row.
type sortKey struct {
	t    float64
	line int32
	i    int32
}

// sortedKeys orders the kept rows by submission, then line, so that every
// later step sees one order. It sorts small keys and leaves the rows
// where they are.
func (b *builder) sortedKeys() []sortKey {
	keys := make([]sortKey, b.rows.n)
	sorted := true
	for i := range keys {
		r := b.rows.at(i)
		keys[i] = sortKey{r.submitS, r.line, int32(i)}
		if i > 0 && (keys[i].t < keys[i-1].t || keys[i].t == keys[i-1].t && keys[i].line < keys[i-1].line) {
			sorted = false
		}
	}
	if !sorted {
		sort.Slice(keys, func(x, y int) bool {
			if keys[x].t != keys[y].t {
				return keys[x].t < keys[y].t
			}
			return keys[x].line < keys[y].line
		})
	}
	return keys
}

// checkFit drops the rows whose jobs could never run on the cluster.
func (b *builder) checkFit(rows []parsed, c *cluster.Cluster) []parsed {
	out := rows[:0]
	for _, r := range rows {
		if ok, reason := c.Fit(r.job.GPUs, 0, r.job.GPUType); !ok {
			b.drop(r.line, "larger than the cluster", "job %s asks for %d GPUs: %s; left out", short(r.job.Name), r.job.GPUs, reason)
			b.drops["larger than the cluster"].Option = "cluster"
			continue
		}
		out = append(out, r)
	}
	return out
}

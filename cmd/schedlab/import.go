package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/trace"
)

// cmdImport reads a public trace and writes a scenario (or a jobs CSV)
// built from it; the summary and the warnings go to stderr.
func cmdImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // its messages are Go's; importFlagError says them plainly
	// Numbers are read as text and checked here, so that a bad one is
	// named with its flag and the bounds (NaN, Inf, a negative count).
	window := fs.String("window", "", "keep jobs submitted between A and B hours after the first submission, as A,B")
	busiest := fs.String("busiest", "", "keep the window of this many hours with the most submissions")
	sample := fs.String("sample", "", "keep this many jobs drawn at random (with --seed)")
	seed := fs.String("seed", "1", "seed of the sample and of the model mapping")
	scale := fs.String("scale", "1", "multiply every arrival time by this (below 1: a heavier load)")
	clusterName := fs.String("cluster", "", "cluster preset: "+trace.ClusterNames()+" (default: the format's)")
	minDur := fs.String("min-duration", "", "drop jobs shorter than this many seconds (default: the format's; Philly 60; 0: none)")
	maxGPUH := fs.String("max-gpu-hours", "", "drop jobs of this many GPU-hours or more (default: the format's; Philly 1000; 0: no bound)")
	maxGPUs := fs.String("max-gpus", "", "drop jobs of more than this many GPUs (1: single-GPU jobs only, as AlloX schedules; default: no bound)")
	atZero := fs.Bool("at-zero", false, "submit every job at time 0, an offline batch (as the SJF-BCO policies plan), in the trace's order")
	out := fs.String("out", "", "write the scenario to this file instead of stdout")
	jobsCSV := fs.Bool("jobs-csv", false, fmt.Sprintf("write the jobs as schedlab's jobs CSV instead of a scenario (up to %s jobs instead of %s)",
		results.Thousands(trace.Limits.MaxJobsCSV), results.Thousands(trace.Limits.MaxJobs)))
	name := fs.String("name", "", "the scenario's name (default imported-FORMAT)")
	fs.Usage = func() {} // printed below when asked, not after every error
	usage := func() {
		fmt.Fprintln(stderr, "usage: schedlab import FORMAT FILE|- [--window A,B | --busiest H] [--sample N --seed S] [--scale X] [--cluster NAME] [--min-duration S] [--max-gpu-hours H] [--max-gpus N] [--at-zero] [--out F] [--jobs-csv]")
		fmt.Fprintln(stderr, "formats:")
		for _, f := range trace.Formats() {
			fmt.Fprintf(stderr, "  %-9s %s\n            %s\n", f.Name, f.Title, f.Columns)
		}
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		l := trace.Limits
		fmt.Fprintf(stderr, "limits: a trace of at most %s, lines of at most %s, %s data rows; a scenario of at most %s jobs (a jobs CSV %s)\n",
			mib(l.MaxBytes), mib(int64(l.MaxLineBytes)), results.Thousands(l.MaxRows), results.Thousands(l.MaxJobs), results.Thousands(l.MaxJobsCSV))
	}
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
			} else {
				fmt.Fprintf(stderr, "schedlab import: %s; see schedlab import --help\n", importFlagError(err))
			}
			return exitInvalid
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	if len(pos) == 0 {
		usage()
		return exitInvalid
	}
	if len(pos) != 2 {
		fmt.Fprintf(stderr, "schedlab import: give a format and one file (schedlab import FORMAT FILE), got %d arguments; see schedlab import --help\n", len(pos))
		return exitInvalid
	}
	format, ok := trace.Lookup(pos[0])
	if !ok {
		fmt.Fprintf(stderr, "schedlab import: unknown trace format %q; known formats: %s\n", cut(pos[0]), trace.FormatNames())
		return exitInvalid
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	opt, err := importOptions(format, set, *jobsCSV, importFlags{*window, *busiest, *sample, *seed, *scale, *minDur, *maxGPUH, *maxGPUs})
	if err != nil {
		fmt.Fprintln(stderr, "schedlab import:", err)
		return exitInvalid
	}
	if _, ok := trace.LookupCluster(*clusterName); *clusterName != "" && !ok {
		fmt.Fprintf(stderr, "schedlab import: --cluster: unknown cluster %q; known clusters: %s\n", cut(*clusterName), trace.ClusterNames())
		return exitInvalid
	}
	opt.Cluster = *clusterName
	if opt.AtZero = *atZero; opt.AtZero && set["scale"] {
		fmt.Fprintln(stderr, "schedlab import: --at-zero and --scale both set arrival times; give one of them")
		return exitInvalid
	}
	return importFile(pos[0], pos[1], opt, *name, *out, stdout, stderr)
}

// importFlags are the numeric flags as typed.
type importFlags struct {
	window, busiest, sample, seed, scale, minDur, maxGPUH, maxGPUs string
}

// importOptions checks every numeric flag and names the one that is
// wrong; set holds the flags given (an unset one takes the default).
func importOptions(format trace.Format, set map[string]bool, jobsCSV bool, f importFlags) (trace.Options, error) {
	opt := trace.Options{JobsCSV: jobsCSV}
	maxJobs := trace.Limits.MaxJobs
	if jobsCSV {
		maxJobs = trace.Limits.MaxJobsCSV
	}
	var err error
	if set["window"] {
		if opt.Window, err = parseWindow(f.window); err != nil {
			return opt, fmt.Errorf("--window: %w", err)
		}
	}
	if set["busiest"] {
		if opt.BusiestH, err = flagNumber("busiest", f.busiest, "a number of hours", 0, 1e6, true, false); err != nil {
			return opt, err
		}
		if opt.Window != nil {
			return opt, fmt.Errorf("--window and --busiest both choose a window; give one of them")
		}
	}
	if set["sample"] {
		n, err := flagNumber("sample", f.sample, "a whole number of jobs", 1, float64(maxJobs), false, true)
		if err != nil {
			return opt, err
		}
		opt.Sample = int(n)
	}
	if opt.Seed, err = strconv.ParseUint(strings.TrimSpace(f.seed), 10, 64); err != nil {
		return opt, fmt.Errorf("--seed: must be a whole number from 0 to %d, got %q", uint64(math.MaxUint64), cut(f.seed))
	}
	if opt.Scale, err = flagNumber("scale", f.scale, "a number", 0, 1e6, true, false); err != nil {
		return opt, err
	}
	if set["min-duration"] || set["max-gpu-hours"] || set["max-gpus"] {
		filters := format.Filters
		if set["min-duration"] {
			if filters.MinDurationS, err = flagNumber("min-duration", f.minDur, "a number of seconds", 0, 1e10, false, false); err != nil {
				return opt, err
			}
		}
		if set["max-gpu-hours"] {
			if filters.MaxGPUHours, err = flagNumber("max-gpu-hours", f.maxGPUH, "a number of GPU-hours (0: no bound)", 0, 1e12, false, false); err != nil {
				return opt, err
			}
		}
		if set["max-gpus"] {
			n, err := flagNumber("max-gpus", f.maxGPUs, "a whole number of GPUs", 1, 4096, false, true)
			if err != nil {
				return opt, err
			}
			filters.MaxGPUs = int(n)
		}
		opt.Filters = &filters
	}
	return opt, nil
}

// flagNumber reads a flag's number: finite, at most hi, and above lo
// (loOpen) or from lo; whole when asked.
func flagNumber(flagName, s, what string, lo, hi float64, loOpen, whole bool) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	bad := err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v > hi || v < lo || loOpen && v == lo || whole && v != math.Trunc(v)
	if !bad {
		return v, nil
	}
	bound := fmt.Sprintf("from %s to %s", number(lo), number(hi))
	if loOpen {
		bound = fmt.Sprintf("above %s and at most %s", number(lo), number(hi))
	}
	return 0, fmt.Errorf("--%s: must be %s %s, got %q", flagName, what, bound, cut(s))
}

// number prints a bound: whole numbers with thousands separators.
func number(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return results.Thousands(int(v))
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func parseWindow(s string) (*[2]float64, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return nil, fmt.Errorf("want two hours A,B, got %q", cut(s))
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, fmt.Errorf("want two numbers of hours A,B, got %q", cut(s))
	}
	if !(lo >= 0 && hi > lo && hi <= 1e6) {
		return nil, fmt.Errorf("want two hours A,B with 0 ≤ A < B ≤ 1000000, got %q", cut(s))
	}
	return &[2]float64{lo, hi}, nil
}

// importFlagError says a flag parsing error in plain words.
func importFlagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return fmt.Sprintf("unknown option --%s", cut(strings.TrimPrefix(name, "-")))
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Sprintf("--%s needs a value", strings.TrimPrefix(name, "-"))
	}
	for _, b := range []string{"jobs-csv", "at-zero"} { // the switches
		if strings.Contains(msg, "for -"+b) {
			return "--" + b + " takes no value (or =true, =false)"
		}
	}
	return "bad option: " + cut(msg)
}

// cut shortens a value a message repeats to 80 characters.
func cut(s string) string {
	r := []rune(s)
	if len(r) <= 80 {
		return s
	}
	return fmt.Sprintf("%s… (%s characters in all)", string(r[:80]), results.Thousands(len(r)))
}

// openTrace opens a trace file, or standard input for "-". Only regular
// files are opened: devices (/dev/zero), named pipes (one without a writer
// would hang the open), sockets and directories are refused from their
// mode, and a file larger than the import's limit from its size.
func openTrace(file string) (io.Reader, func(), error) {
	if file == "-" {
		return stdin, func() {}, nil
	}
	info, err := os.Stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: no such file", file)
	}
	if err != nil {
		return nil, nil, err
	}
	if why := notAFile(info.Mode()); why != "" {
		return nil, nil, fmt.Errorf("%s: %s, not a trace file; give a file, or - for standard input", file, why)
	}
	if info.Size() > trace.Limits.MaxBytes {
		return nil, nil, fmt.Errorf("%s: the file is %s, larger than %s, the most one import reads; split it (e.g. by time) and import a part",
			file, mib(info.Size()), mib(trace.Limits.MaxBytes))
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

func importFile(format, file string, opt trace.Options, name, out string, stdout, stderr io.Writer) int {
	r, closeFile, err := openTrace(file)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab import:", err)
		return exitInvalid
	}
	defer closeFile()
	label := file
	if file == "-" {
		label = "standard input"
	}
	printErr := func(err error) {
		if errs, ok := err.(trace.Errors); ok {
			for _, e := range errs {
				fmt.Fprintf(stderr, "%s: %s\n", label, e)
			}
		} else {
			fmt.Fprintf(stderr, "%s: %v\n", label, err)
		}
	}
	res, err := trace.Import(format, r, opt)
	if err != nil {
		printErr(err)
		return exitInvalid
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "%s: warning: %s\n", label, w)
	}
	if res.Warned > len(res.Warnings) {
		fmt.Fprintf(stderr, "%s: … and %d more warnings\n", label, res.Warned-len(res.Warnings))
	}
	fmt.Fprintln(stderr, res.Summary())
	if err := res.NoJobs(); err != nil {
		printErr(err)
		return exitInvalid
	}
	var doc bytes.Buffer
	if opt.JobsCSV {
		err = trace.WriteJobsCSV(&doc, res.Jobs)
	} else {
		var data []byte
		data, err = res.Scenario(trace.ScenarioInfo{Name: name, Source: filepath.Base(label)})
		if err == nil {
			// The scenario must be one a run accepts: say so now, not
			// later, naming the trace's lines.
			if cerr := res.Check(data); cerr != nil {
				fmt.Fprintf(stderr, "%s: the jobs read make no valid scenario:\n", label)
				printErr(cerr)
				return exitInvalid
			}
		}
		doc.Write(data)
	}
	if err != nil {
		fmt.Fprintln(stderr, "schedlab import:", err)
		return exitFailed
	}
	if out == "" {
		_, err = stdout.Write(doc.Bytes())
	} else if err = os.WriteFile(out, doc.Bytes(), 0o644); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("--out: cannot write %s: %v", out, pe.Err)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "schedlab import:", err)
		return exitFailed
	}
	return exitOK
}

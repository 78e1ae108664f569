package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/trace"
)

// cmdImport reads a public trace and writes a scenario (or a jobs CSV)
// built from it; the summary and the warnings go to stderr.
func cmdImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	window := fs.String("window", "", "keep jobs submitted between A and B hours after the first submission, as A,B")
	busiest := fs.Float64("busiest", 0, "keep the window of this many hours with the most submissions")
	sample := fs.Int("sample", 0, "keep this many jobs drawn at random (with --seed)")
	seed := fs.Uint64("seed", 1, "seed of the sample and of the model mapping")
	scale := fs.Float64("scale", 1, "multiply every arrival time by this (below 1: a heavier load)")
	clusterName := fs.String("cluster", "", "cluster preset: "+trace.ClusterNames()+" (default: the format's)")
	minDur := fs.Float64("min-duration", -1, "drop jobs shorter than this many seconds (default: the format's; Philly 60)")
	maxGPUH := fs.Float64("max-gpu-hours", -1, "drop jobs of this many GPU-hours or more (default: the format's; Philly 1000)")
	out := fs.String("out", "", "write the scenario to this file instead of stdout")
	jobsCSV := fs.Bool("jobs-csv", false, "write the jobs as schedlab's jobs CSV instead of a scenario")
	name := fs.String("name", "", "the scenario's name (default imported-FORMAT)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedlab import FORMAT FILE [--window A,B | --busiest H] [--sample N --seed S] [--scale X] [--cluster NAME] [--out F] [--jobs-csv]")
		fmt.Fprintln(stderr, "formats:")
		for _, f := range trace.Formats() {
			fmt.Fprintf(stderr, "  %-9s %s\n            %s\n", f.Name, f.Title, f.Columns)
		}
		fs.PrintDefaults()
	}
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return exitInvalid
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	if len(pos) != 2 {
		fs.Usage()
		return exitInvalid
	}
	opt := trace.Options{BusiestH: *busiest, Sample: *sample, Seed: *seed, Scale: *scale, Cluster: *clusterName}
	if *window != "" {
		w, err := parseWindow(*window)
		if err != nil {
			fmt.Fprintln(stderr, "schedlab: --window:", err)
			return exitInvalid
		}
		opt.Window = &w
	}
	if *minDur >= 0 || *maxGPUH >= 0 {
		f, _ := trace.Lookup(pos[0])
		filters := f.Filters
		if *minDur >= 0 {
			filters.MinDurationS = *minDur
		}
		if *maxGPUH >= 0 {
			filters.MaxGPUHours = *maxGPUH
		}
		opt.Filters = &filters
	}
	return importFile(pos[0], pos[1], opt, *name, *out, *jobsCSV, stdout, stderr)
}

func parseWindow(s string) ([2]float64, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return [2]float64{}, fmt.Errorf("want two hours A,B, got %q", s)
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil {
		return [2]float64{}, fmt.Errorf("want two numbers of hours A,B, got %q", s)
	}
	return [2]float64{lo, hi}, nil
}

func importFile(format, file string, opt trace.Options, name, out string, jobsCSV bool, stdout, stderr io.Writer) int {
	f, err := os.Open(file)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitInvalid
	}
	defer f.Close()
	res, err := trace.Import(format, bufio.NewReaderSize(f, 1<<20), opt)
	if err != nil {
		if errs, ok := err.(trace.Errors); ok {
			for _, e := range errs {
				fmt.Fprintf(stderr, "%s: %s\n", file, e)
			}
		} else {
			fmt.Fprintf(stderr, "%s: %v\n", file, err)
		}
		return exitInvalid
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "%s: warning: %s\n", file, w)
	}
	if res.Warned > len(res.Warnings) {
		fmt.Fprintf(stderr, "%s: … and %d more warnings\n", file, res.Warned-len(res.Warnings))
	}
	fmt.Fprintln(stderr, res.Summary())
	var doc bytes.Buffer
	if jobsCSV {
		err = trace.WriteJobsCSV(&doc, res.Jobs)
	} else {
		var data []byte
		data, err = res.Scenario(trace.ScenarioInfo{Name: name, Source: filepath.Base(file)})
		if err == nil {
			// The scenario must be one a run accepts: say so now, not later.
			if _, perr := scenario.Parse(data); perr != nil {
				fmt.Fprintf(stderr, "schedlab: the imported scenario is not valid:\n%v\n", perr)
				return exitFailed
			}
		}
		doc.Write(data)
	}
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitFailed
	}
	if out == "" {
		_, err = stdout.Write(doc.Bytes())
	} else {
		err = os.WriteFile(out, doc.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitFailed
	}
	return exitOK
}

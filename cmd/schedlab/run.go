package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/schema"
)

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 0, "seed to run (default: the scenario's first seed)")
	allSeeds := fs.Bool("all-seeds", false, "run every seed of the scenario (table format only)")
	out := fs.String("out", "", "write plots (SVG and PNG), jobs.csv, summary.csv and results.json into this directory")
	format := fs.String("format", "table", "output format: table or json")
	workers := fs.Int("workers", runtime.NumCPU(), "runs in parallel")
	paranoid := fs.Bool("paranoid", false, "check every engine invariant after each event (slow)")
	quick := fs.Bool("quick", false, "paper scenarios: run the quick version (fewer seeds, sweep values and jobs)")
	dumpLP := fs.String("dump-lp", "", "write every linear program a policy solves into this directory as POLICY-sSEED[-xSWEEP]-N.mps")
	remote := addRemoteFlags(fs, "a study: run its sweep points on these API servers (comma-separated URLs, see schedlab serve) instead of here")
	parallel := fs.Int("parallel", 4, "with --remote: sweep points in flight at once")
	resume := fs.String("resume", "", "with --remote: keep the points done in this file if the study stops early, and continue from the points already in it")
	streamAbove := fs.Int("stream-above", experiment.DefaultStreamAbove, "runs of more jobs than this stream: their metrics are summarised as they end and no per-job records are kept (0: always keep them)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the runs to this file (for go tool pprof)")
	policies := fs.String("policies", "", "run these registered policies (comma-separated, default parameters) instead of the scenario's own; a paper scenario's reference numbers and checks are dropped")
	var scripts policyFiles
	fs.Var(&scripts, "policy-file", "add a policy written in Starlark from this file (repeatable; see docs/scripts.md), labelled with the file's name")
	oracle := fs.Bool("oracle", false, "let --policy-file scripts read job.remaining_s, how long a job has left (knowledge a real scheduler lacks)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedlab run NAME|FILE [--seed N] [--all-seeds] [--out DIR] [--format table|json] [--quick] [--dump-lp DIR] [--policies A,B] [--policy-file FILE.star [--oracle]] [--stream-above N] [--remote URL,URL --parallel N --retry-for D --request-timeout D --resume FILE] [--cpuprofile FILE]")
		fs.PrintDefaults()
	}
	// Accept flags before or after the scenario argument.
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
	if len(pos) != 1 || (*format != "table" && *format != "json") || (*allSeeds && *format == "json") {
		fs.Usage()
		return exitInvalid
	}
	sc, doc, err := loadScenario(pos[0])
	if err == nil && (*policies != "" || len(scripts) > 0) {
		sc, err = withPolicyFlags(doc, *policies, scripts, *oracle)
	}
	if err != nil {
		var ps schema.Problems
		if errors.As(err, &ps) {
			fmt.Fprintf(stderr, "%s is not a valid scenario:\n%v\n", pos[0], err)
		} else {
			fmt.Fprintln(stderr, "schedlab:", err)
		}
		return exitInvalid
	}
	printNotices(stderr, "", sc)
	stopProfile, err := startCPUProfile(*cpuProfile, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitInvalid
	}
	defer stopProfile()
	var sink experiment.LPSink
	var dumper *lpDumper
	if *dumpLP != "" {
		if dumper, err = newLPDumper(*dumpLP); err != nil {
			fmt.Fprintln(stderr, "schedlab:", err)
			return exitFailed
		}
		sink = dumper.sink
		defer func() {
			if dumper.err != nil {
				fmt.Fprintln(stderr, "schedlab: writing LPs:", dumper.err)
			} else {
				fmt.Fprintf(stderr, "wrote %d LP(s) to %s\n", dumper.files, *dumpLP)
			}
		}()
	}
	if api.IsStudy(sc) {
		if *remote.urls != "" {
			return runRemote(sc, *quick, *format, remote, *parallel, *resume, stdout, stderr)
		}
		return runStudy(sc, *quick, *format, *out, *workers, *paranoid, sink, stdout, stderr)
	}
	if *remote.urls != "" || *resume != "" {
		fmt.Fprintf(stderr, "schedlab: --remote and --resume run a study's sweep points on servers, and %s is not a study (no sweep, paper numbers or checks); run it here, or send it to a server with POST /v1/run\n", sc.Name)
		return exitInvalid
	}
	seeds := []uint64{sc.RunSeeds()[0]}
	switch {
	case *allSeeds:
		seeds = sc.RunSeeds()
	case *seed != 0:
		seeds = []uint64{*seed}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(stderr)
	// The table shows each run's summary alone: its runs record no Gantt
	// chart and no decision log (utilization stays exact).
	tableOnly := *format == "table" && *out == ""
	rep, err := experiment.Execute(ctx, sc, experiment.Options{Seeds: seeds, Workers: *workers, Paranoid: *paranoid, Progress: prog.update, LPSink: sink, StreamAbove: *streamAbove,
		NoGPUIntervals: tableOnly, NoLog: tableOnly})
	prog.done()
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitFailed
	}
	if *format == "json" {
		if err := results.WriteOutput(stdout, rep.Output(seeds[0])); err != nil {
			fmt.Fprintln(stderr, "schedlab:", err)
			return exitFailed
		}
	} else {
		fmt.Fprintf(stdout, "%s: %s\n\n", sc.Name, sc.Title)
		rep.Table(stdout)
	}
	explainUnschedulable(rep, stderr)
	for _, r := range rep.Runs {
		if r.Result != nil && *format == "table" {
			for _, n := range r.Notes() {
				fmt.Fprintf(stderr, "%s (seed %d): note: %s\n", r.Policy, r.Seed, n)
			}
		}
	}
	if *out != "" {
		if err := writeOutputs(rep, seeds, *out); err != nil {
			fmt.Fprintln(stderr, "schedlab:", err)
			return exitFailed
		}
		fmt.Fprintf(stderr, "wrote plots and results to %s\n", *out)
	}
	if failed := rep.Failed(); len(failed) > 0 {
		for _, r := range failed {
			fmt.Fprintf(stderr, "run %s (seed %d) failed: %v\n", r.Policy, r.Seed, r.Err)
		}
		return exitFailed
	}
	return exitOK
}

// explainUnschedulable says in words when no job of a run could ever
// run, instead of leaving a table of zeros to explain itself.
func explainUnschedulable(rep *experiment.Report, w io.Writer) {
	for _, r := range rep.Runs {
		if r.Result == nil || len(r.Result.Jobs) == 0 {
			continue
		}
		if s := r.Summary; s.Jobs > 0 && s.Unschedulable == s.Jobs {
			j := r.Result.Jobs[0]
			fmt.Fprintf(w, "%s (seed %d): every one of the %d jobs is unschedulable on this cluster, so there is nothing to measure; e.g. job %s: %s\n",
				r.Policy, r.Seed, s.Jobs, j.Name, j.Reason)
			return
		}
	}
}

// writeOutputs writes results and plots; with several seeds, the plots of
// each go into a seed-N subdirectory.
func writeOutputs(rep *experiment.Report, seeds []uint64, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "jobs.csv"), rep.WriteJobsCSV); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "summary.csv"), rep.WriteSummaryCSV); err != nil {
		return err
	}
	for _, seed := range seeds {
		sub := dir
		if len(seeds) > 1 {
			sub = filepath.Join(dir, fmt.Sprintf("seed-%d", seed))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
		}
		err := writeFile(filepath.Join(sub, "results.json"), func(w io.Writer) error {
			return results.WriteOutput(w, rep.Output(seed))
		})
		if err != nil {
			return err
		}
		// SVGs name their font, as the page's and reproduce's do:
		// embedding it made each 0.5 MB larger.
		figs, err := rep.Figures(seed, plot.Options{})
		if err != nil {
			return err
		}
		if err := writeFigures(figs, sub); err != nil {
			return err
		}
	}
	return nil
}

// writeFigures writes each figure as SVG and PNG.
func writeFigures(figs []experiment.NamedFigure, dir string) error {
	for _, f := range figs {
		svg, err := f.Figure.SVG()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		png, err := f.Figure.PNG()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name+".svg"), svg, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name+".png"), png, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON prints v as every --format json output is printed (the API
// answers with the same bytes).
func writeJSON(w io.Writer, v any) error {
	data, err := api.MarshalJSON(v)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// progress prints a status line on stderr once a run has taken a second,
// then at most every half second.
type progress struct {
	w     io.Writer
	start time.Time
	mu    sync.Mutex
	last  time.Time
	shown bool
}

func newProgress(w io.Writer) *progress { return &progress{w: w, start: time.Now()} }

func (p *progress) update(e experiment.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 500*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.w, "run %d/%d %s seed %d: simulated %s, %d/%d jobs done, %d events\n",
		e.Run+1, e.Runs, e.Policy, e.Seed, results.Duration(e.NowS), e.Finished, e.Total, e.Events)
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintf(p.w, "done in %.1f s\n", time.Since(p.start).Seconds())
	}
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/experiment/reproduce"
	"github.com/schedlab/schedlab/sim/experiment/reproduce/benchfig"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// cmdReproduce runs the paper scenarios and writes every figure, with the
// paper's values overlaid, and the report (report.json, report.md).
func cmdReproduce(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	paper := fs.String("paper", "", "only this paper's figures, e.g. gavel")
	figure := fs.String("figure", "", "only this figure: a scenario name, e.g. gavel-fig8-las-single, or a label such as \"Figure 8\"")
	quick := fs.Bool("quick", false, "run the quick version of each figure (fewer seeds, sweep values and jobs; not the record)")
	seeds := fs.Int("seeds", 0, "run this many seeds per point instead of the scenarios' own (the first N of their seeds, then the next numbers)")
	out := fs.String("out", "reproduction-out", "write report.json, report.md and figures/ into this directory")
	parallel := fs.Int("parallel", runtime.NumCPU(), "runs in parallel (with --remote: sweep points in flight)")
	remote := addRemoteFlags(fs, "run the figures' sweep points on these API servers (comma-separated URLs, see schedlab serve)")
	markdown := fs.String("markdown", "", "also write the Markdown report to this file, its image links relative to it")
	formats := fs.String("formats", "svg,png", "figure formats: svg, png or both")
	fonts := fs.Bool("embed-fonts", false, "embed the fonts in the SVGs (exact in any browser, about 0.5 MB more each)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the runs to this file (for go tool pprof)")
	runTimes := fs.String("run-times", "", "write every simulated run's CPU seconds (on its worker's thread) to this file, one tab-separated line a run, to find the costliest")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedlab reproduce [--paper P] [--figure F] [--quick] [--seeds N] [--out DIR] [--parallel N] [--markdown FILE] [--formats svg,png] [--remote URL,URL --retry-for D --request-timeout D] [--cpuprofile FILE] [--run-times FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	svg, png, err := parseFormats(*formats)
	if fs.NArg() > 0 || *seeds < 0 || *parallel < 1 || err != nil {
		if err != nil {
			fmt.Fprintln(stderr, "schedlab reproduce:", err)
		}
		fs.Usage()
		return exitInvalid
	}
	entries, err := figureCatalogue()
	benches := reproduce.SelectBenchmarks(*paper, *figure)
	if err == nil {
		entries, err = reproduce.Select(entries, *paper, *figure)
		if err != nil && *figure != "" && len(benches) > 0 {
			entries, err = nil, nil // the figure is a benchmark
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "schedlab reproduce:", err)
		return exitInvalid
	}
	for _, e := range entries {
		overrideSeeds(e.Scenario, *seeds)
	}
	if *runTimes != "" && *remote.urls != "" {
		fmt.Fprintln(stderr, "schedlab reproduce: --run-times: the runs are timed here, not on --remote servers")
		return exitInvalid
	}
	times, err := openRunTimes(*runTimes)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab reproduce:", err)
		return exitInvalid
	}
	defer func() {
		if err := times.close(); err != nil {
			fmt.Fprintln(stderr, "schedlab reproduce: --run-times:", err)
		}
	}()
	stopProfile, err := startCPUProfile(*cpuProfile, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab reproduce:", err)
		return exitInvalid
	}
	defer stopProfile()
	defer collectLessOften()()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r := &reproducer{out: *out, quick: *quick, workers: *parallel, svg: svg, png: png,
		plot: plot.Options{EmbedFonts: *fonts}, stderr: stderr, times: times}
	if *remote.urls != "" {
		o, err := remote.options(*parallel)
		if err != nil {
			fmt.Fprintln(stderr, "schedlab reproduce:", err)
			return exitInvalid
		}
		r.remote = &o
	}
	cpu0 := cpuSeconds()
	done, failed, err := r.run(ctx, entries)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab reproduce:", err)
		return exitFailed
	}
	rep := reproduce.Build(*quick, *seeds, done)
	if err := r.benchmarks(ctx, &rep, benches); err != nil {
		fmt.Fprintln(stderr, "schedlab reproduce:", err)
		return exitFailed
	}
	rep.Run = &results.RunInfo{Date: r.start.UTC().Format("2006-01-02"), WallS: math.Round(time.Since(r.start).Seconds()),
		CPUS: math.Round(cpuSeconds() - cpu0), Cores: runtime.NumCPU(), Parallel: *parallel}
	if err := writeReport(rep, *out, *markdown); err != nil {
		fmt.Fprintln(stderr, "schedlab reproduce:", err)
		return exitFailed
	}
	var figs int
	if *quick {
		fmt.Fprintln(stdout, "quick mode, not the record: fewer seeds, sweep values and jobs than the papers' set-ups")
	}
	for _, p := range rep.Papers {
		t := reproduce.Count(p.Figures...)
		figs += len(p.Figures)
		line := fmt.Sprintf("%-10s %2d figure(s): %3d claims: %3d pass, %3d fail", p.Paper, len(p.Figures), t.Claims, t.Pass, t.Fail)
		if *quick {
			line += fmt.Sprintf(" (%d required), %3d n/a", t.RequiredFail, t.NA)
		} else if t.NA > 0 {
			line += fmt.Sprintf(", %d n/a", t.NA)
		}
		line += fmt.Sprintf("; apart: %d calibrated, %d exploration (%d hold)", t.Calibrated, t.Exploration, t.ExplorationPass)
		if n := len(p.CannotReproduce); n > 0 {
			line += fmt.Sprintf("; %d cannot be reproduced", n)
		}
		fmt.Fprintf(stdout, "%s  (%s)\n", line, r.took[p.Paper].Round(100*time.Millisecond))
	}
	fmt.Fprintf(stdout, "wrote %d figure(s) and the report to %s in %s (%.0f s of CPU)\n", figs, *out, time.Since(r.start).Round(100*time.Millisecond), rep.Run.CPUS)
	if failed > 0 {
		fmt.Fprintf(stderr, "schedlab reproduce: %d run(s) failed; their checks fail with the error\n", failed)
		return exitFailed
	}
	return exitOK
}

func parseFormats(s string) (svg, png bool, err error) {
	for _, f := range strings.Split(s, ",") {
		switch strings.TrimSpace(f) {
		case "svg":
			svg = true
		case "png":
			png = true
		default:
			return false, false, fmt.Errorf("--formats: unknown format %q; use svg, png or svg,png", f)
		}
	}
	return svg, png, nil
}

// figureCatalogue is every figure among the built-in scenarios.
func figureCatalogue() ([]reproduce.Entry, error) {
	var scs []*scenario.Scenario
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		sc, err := scenario.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("built-in scenario %s: %w", n, err)
		}
		scs = append(scs, sc)
	}
	return reproduce.Entries(scs), nil
}

// overrideSeeds makes a scenario run n seeds (0 keeps its own): the first
// n of its seeds, then the numbers after its largest.
func overrideSeeds(sc *scenario.Scenario, n int) {
	if n == 0 {
		return
	}
	sc.Seeds = extendSeeds(sc.RunSeeds(), n)
	if sc.Quick != nil && len(sc.Quick.Seeds) > 0 {
		sc.Quick.Seeds = extendSeeds(sc.Quick.Seeds, n)
	}
}

func extendSeeds(seeds []uint64, n int) []uint64 {
	out := append([]uint64(nil), seeds[:min(n, len(seeds))]...)
	next := uint64(0)
	for _, s := range seeds {
		next = max(next, s+1)
	}
	for len(out) < n {
		out = append(out, next)
		next++
	}
	return out
}

// reproducer runs the figures one after another, each over all workers.
type reproducer struct {
	out          string
	quick        bool
	workers      int
	svg, png     bool
	plot         plot.Options
	stderr       io.Writer
	start        time.Time
	took         map[string]time.Duration // per paper
	mu           sync.Mutex
	total, after int       // runs in all; runs of the figures done
	frac         []float64 // the current figure's runs, fraction done
	name         string
	last         time.Time
	remote       *remoteOptions       // run sweep points on these servers
	share        *experiment.RunShare // runs that figures repeat, run once
	times        *runTimes            // --run-times, or nil
}

// copiedNote says how many of a study's runs were copied from identical
// runs of the figures before it.
func copiedNote(copied map[string]int) string {
	var parts []string
	for _, from := range slices.Sorted(maps.Keys(copied)) {
		parts = append(parts, fmt.Sprintf("%d copied from %s", copied[from], from))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// cost is the CPU a figure's own simulations took, from the process's
// CPU time since cpu0 (the figures run one after another); nil for a
// remote run, where the CPU was spent elsewhere, or where this system
// cannot say.
func (r *reproducer) cost(cpu0 float64, runs int, copied map[string]int) *results.CostRepro {
	cpu := cpuSeconds() - cpu0
	for _, n := range copied {
		runs -= n
	}
	if r.remote != nil || cpu0 <= 0 || cpu <= 0 || runs <= 0 {
		return nil
	}
	return &results.CostRepro{CPUSeconds: math.Round(cpu*100) / 100, Simulated: runs}
}

func (r *reproducer) run(ctx context.Context, entries []reproduce.Entry) ([]reproduce.Done, int, error) {
	r.start, r.took = time.Now(), map[string]time.Duration{}
	counts := make([]int, len(entries))
	for i, e := range entries {
		n, err := experiment.PlannedRuns(e.Scenario, r.quick)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", e.Scenario.Name, err)
		}
		counts[i], r.total = n, r.total+n
	}
	if err := os.MkdirAll(filepath.Join(r.out, "figures"), 0o755); err != nil {
		return nil, 0, err
	}
	if r.remote == nil {
		scs := make([]*scenario.Scenario, len(entries))
		for i, e := range entries {
			scs[i] = e.Scenario
		}
		share, err := experiment.NewRunShare(scs, r.quick)
		if err != nil {
			return nil, 0, err
		}
		r.share = share
	}
	var done []reproduce.Done
	failed := 0
	for i, e := range entries {
		t0, cpu0 := time.Now(), cpuSeconds()
		r.mu.Lock()
		r.frac, r.name = make([]float64, counts[i]), e.Scenario.Name
		r.mu.Unlock()
		st, nfailed, err := r.study(ctx, e.Scenario)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", e.Scenario.Name, err)
		}
		failed += nfailed
		files, err := r.draw(st)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", e.Scenario.Name, err)
		}
		done = append(done, reproduce.Done{Entry: e, Study: st, Files: files, Cost: r.cost(cpu0, counts[i], st.Copied)})
		r.mu.Lock()
		r.after += counts[i]
		r.frac = nil
		r.mu.Unlock()
		r.took[e.Paper] += time.Since(t0)
		fmt.Fprintf(r.stderr, "%s: %s done in %.1f s (%d runs%s); %s\n", e.Paper, e.Scenario.Name, time.Since(t0).Seconds(), counts[i], copiedNote(st.Copied), r.estimate())
	}
	return done, failed, nil
}

// benchmarks measures the benchmark figures here (never on --remote
// servers: their times are this machine's), one after the other, after
// the scenarios, and adds them to the report.
func (r *reproducer) benchmarks(ctx context.Context, rep *results.Reproduction, benches []reproduce.Benchmark) error {
	for _, b := range benches {
		t0 := time.Now()
		f, fig, err := benchfig.Run(ctx, b, r.quick, r.plot)
		if err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		if f.Files, err = r.writeFigure(b.Name, fig); err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		reproduce.AddFigure(rep, b.Paper, f)
		r.took[b.Paper] += time.Since(t0)
		fmt.Fprintf(r.stderr, "%s: %s (timed on this machine) done in %.1f s\n", b.Paper, b.Name, time.Since(t0).Seconds())
	}
	return nil
}

// study runs one figure's study here, or its sweep points on the
// --remote servers, and counts its failed runs.
func (r *reproducer) study(ctx context.Context, sc *scenario.Scenario) (*experiment.Study, int, error) {
	failed := 0
	if r.remote != nil {
		st, out, err := runStudyRemote(ctx, sc, r.quick, r.remote)
		if err != nil {
			return nil, 0, err
		}
		for _, run := range out.Runs {
			if run.Error != "" {
				failed++
			}
		}
		return st, failed, nil
	}
	st, err := experiment.RunStudy(ctx, sc, experiment.StudyOptions{Quick: r.quick, Workers: r.workers, Progress: r.update, Compact: true, Share: r.share,
		RunCPU: r.times.hook(sc.Name)})
	if err != nil {
		return nil, 0, err
	}
	for _, p := range st.Points {
		failed += len(p.Report.Failed())
	}
	return st, failed, nil
}

// update records a run's progress and prints a status line at most every
// two seconds.
func (r *reproducer) update(p experiment.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p.Run < len(r.frac) && p.Total > 0 {
		r.frac[p.Run] = float64(p.Finished) / float64(p.Total)
	}
	if now := time.Now(); now.Sub(r.last) >= 2*time.Second {
		r.last = now
		fmt.Fprintf(r.stderr, "%s: run %d/%d %s seed %d; %s\n", r.name, p.Run+1, p.Runs, p.Policy, p.Seed, r.estimateLocked())
	}
}

func (r *reproducer) estimate() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.estimateLocked()
}

// estimateLocked is the share of runs done (a run counts by its share of
// finished jobs) and the time left if the rest goes as fast.
func (r *reproducer) estimateLocked() string {
	doneRuns := float64(r.after)
	for _, f := range r.frac {
		doneRuns += f
	}
	elapsed := time.Since(r.start)
	share := doneRuns / float64(max(r.total, 1))
	s := fmt.Sprintf("%.0f%% of %d runs, %s elapsed", 100*share, r.total, elapsed.Round(time.Second))
	if share > 0.02 && share < 1 {
		left := time.Duration(float64(elapsed) * (1 - share) / share)
		s += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	return s
}

// draw writes the study's figure as figures/NAME.svg and .png and
// returns their paths relative to the output directory.
func (r *reproducer) draw(st *experiment.Study) ([]string, error) {
	f, err := reproduce.Draw(st, r.plot)
	if err != nil {
		return nil, err
	}
	return r.writeFigure(st.Scenario.Name, f)
}

// writeFigure writes a figure as figures/NAME.svg and .png and returns
// their paths relative to the output directory.
func (r *reproducer) writeFigure(name string, f *plot.Figure) ([]string, error) {
	var files []string
	write := func(ext string, render func() ([]byte, error)) error {
		data, err := render()
		if err != nil {
			return err
		}
		rel := "figures/" + name + "." + ext
		files = append(files, rel)
		return os.WriteFile(filepath.Join(r.out, filepath.FromSlash(rel)), data, 0o644)
	}
	if r.svg {
		if err := write("svg", f.SVG); err != nil {
			return nil, err
		}
	}
	if r.png {
		if err := write("png", f.PNG); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// writeReport writes report.json and report.md into dir, and the Markdown
// also to markdown when given, its image links relative to that file.
func writeReport(rep results.Reproduction, dir, markdown string) error {
	err := writeFile(filepath.Join(dir, "report.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	})
	if err != nil {
		return err
	}
	err = writeFile(filepath.Join(dir, "report.md"), func(w io.Writer) error {
		return reproduce.WriteMarkdown(w, rep, "")
	})
	if err != nil || markdown == "" {
		return err
	}
	abs, err1 := filepath.Abs(dir)
	base, err2 := filepath.Abs(filepath.Dir(markdown))
	if err1 != nil || err2 != nil {
		return fmt.Errorf("--markdown: cannot place %s beside %s", markdown, dir)
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil {
		return fmt.Errorf("--markdown: %w", err)
	}
	return writeFile(markdown, func(w io.Writer) error {
		return reproduce.WriteMarkdown(w, rep, filepath.ToSlash(rel))
	})
}

// runTimes is the --run-times file: one line per simulated run, with its
// study, policy, sweep value (NaN without a sweep), seed and CPU seconds.
type runTimes struct {
	mu  sync.Mutex
	f   *os.File
	w   *bufio.Writer
	err error
}

// openRunTimes creates the file and writes its header; a nil runTimes
// (path "") times nothing.
func openRunTimes(path string) (*runTimes, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--run-times: %w", err)
	}
	t := &runTimes{f: f, w: bufio.NewWriter(f)}
	_, t.err = fmt.Fprintln(t.w, "study\tpolicy\tx\tseed\tcpu_s")
	return t, nil
}

// hook is the study's StudyOptions.RunCPU: nil when nothing is timed.
func (t *runTimes) hook(study string) func(*experiment.Run, time.Duration) {
	if t == nil {
		return nil
	}
	return func(r *experiment.Run, cpu time.Duration) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.err == nil {
			_, t.err = fmt.Fprintf(t.w, "%s\t%s\t%g\t%d\t%.3f\n", study, r.Policy, r.X, r.Seed, cpu.Seconds())
		}
	}
}

// close flushes and closes the file, with the first error writing it.
func (t *runTimes) close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.w.Flush(); t.err == nil {
		t.err = err
	}
	if err := t.f.Close(); t.err == nil {
		t.err = err
	}
	return t.err
}

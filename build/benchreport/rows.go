package main

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// smallRuns times the command line on 20,000 jobs under FIFO and SJF, the
// size at which schedlab was compared with Alibaba PAI's simulator (whose
// per-job JCTs it matches).
func (m *measurer) smallRuns(ctx context.Context) []row {
	const measure = "command line, 20,000 jobs, FIFO / SJF, native CPU"
	progress("20,000 jobs under FIFO and SJF")
	var cpus []string
	for _, p := range []string{"fifo", "sjf"} {
		file, err := m.scenarioFile(20_000, p)
		if err != nil {
			return []row{failed(measure, "", err)}
		}
		var xs []float64
		for range m.runs {
			u, err := m.runNative(ctx, "run", file)
			if err != nil {
				return []row{failed(measure, "", err)}
			}
			xs = append(xs, u.CPU)
		}
		cpus = append(cpus, seconds(median(xs)))
	}
	return []row{{Measure: measure, Value: strings.Join(cpus, " / "),
		Peer: "Alibaba PAI's simulator is not installed here (it is Python; compare by running it on the same jobs)"}}
}

// engine runs the engine's benchmarks natively (1,000,000 jobs under FIFO
// and Tiresias, the event queue's limit), then the 100,000-job one
// natively and under node (engineRatio).
func (m *measurer) engine(ctx context.Context) []row {
	const fifo1M, tir1M = "engine alone, FIFO, 1,000,000 jobs, events per CPU-second", "engine alone, Tiresias, 1,000,000 jobs, events per CPU-second"
	progress("the engine's benchmarks, natively")
	native, err := m.bench(ctx, false, "./sim/engine/", `^(BenchmarkFIFO1MJobs1024GPUs|BenchmarkTiresias1MJobs1024GPUs|BenchmarkEventQueueLimit)$`, "1x", m.runs)
	if err != nil {
		return []row{failed(fifo1M, "≥ 5 M", err), failed(tir1M, "≥ 2.5 M", err), failed(engineRatioRow, "≤ 3×", err)}
	}
	var rows []row
	limit, limitErr := metric(native, "BenchmarkEventQueueLimit", "events/cpu-s")
	limitCell := ""
	if limitErr == nil {
		limitCell = fmt.Sprintf("the event queue alone (a push and a pop at 1,024 events): %s per CPU-second", millions(limit))
	}
	for _, b := range []struct {
		name, measure string
		target        float64
	}{
		{"BenchmarkFIFO1MJobs1024GPUs", fifo1M, 5e6},
		{"BenchmarkTiresias1MJobs1024GPUs", tir1M, 2.5e6},
	} {
		vs, err := metricValues(native, b.name, "events/cpu-s")
		if err != nil {
			rows = append(rows, failed(b.measure, "≥ "+millions(b.target), err))
			continue
		}
		v := mean(vs)
		rows = append(rows, row{Measure: b.measure, Value: millionsSpread(v, vs), Target: "≥ " + millions(b.target), Peer: limitCell, Verdict: verdict(v, b.target, false)})
	}
	return append(rows, m.engineRatio(ctx))
}

// engineRatioRow names the engine's WebAssembly ratio.
const engineRatioRow = "engine alone, FIFO, 100,000 jobs, WebAssembly under node ÷ native (CPU)"

// engineRatio times the engine's 100,000-job benchmark natively and under
// node, one run of each in turn, and gives the median of the rounds'
// ratios: run after one another, the two builds' figures moved by a
// third between runs minutes apart (3.3×, 2.4× and 1.5× on 3 December).
func (m *measurer) engineRatio(ctx context.Context) row {
	const ratio = engineRatioRow
	const bench = `^BenchmarkFIFO100kJobs1024GPUs$`
	progress("the engine's 100,000-job benchmark, natively and under node, interleaved")
	var ratios, nat, was []float64
	for range m.runs {
		native, err := m.bench(ctx, false, "./sim/engine/", bench, "1x", 1)
		if err != nil {
			return failed(ratio, "≤ 3×", err)
		}
		wasm, err := m.bench(ctx, true, "./sim/engine/", bench, "1x", 1)
		if err != nil {
			return failed(ratio, "≤ 3×", err)
		}
		n, errN := metric(native, "BenchmarkFIFO100kJobs1024GPUs", "cpu-s/op")
		w, errW := metric(wasm, "BenchmarkFIFO100kJobs1024GPUs", "cpu-s/op")
		if errN != nil || errW != nil || n <= 0 {
			return failed(ratio, "≤ 3×", fmt.Errorf("%v %v", errN, errW))
		}
		ratios, nat, was = append(ratios, w/n), append(nat, n), append(was, w)
	}
	r := median(ratios)
	// Under node the benchmark collects as the page's engine workers do
	// (sim/engine's collectAsDeployed); the peer cell says so, since the
	// ratio depends on it (4.1× with Go's default collector on 30 November).
	return row{Measure: ratio, Value: fmt.Sprintf("%.1f× (%s; %s ÷ %s)", r, spread(ratios, "×"), seconds(median(was)), seconds(median(nat))), Target: "≤ 3×",
		Peer: "each build's collector as deployed: under node the page's engine workers' (off until a 512 MiB heap), natively Go's default", Verdict: verdict(r, 3, true)}
}

// cliRatio times the whole command line on 100,000 jobs under FIFO, and
// its start alone (`schedlab help`), natively and under node, interleaved.
// Its third row is the ratio of the run less each build's start, taken
// round by round: node's own start and the module's compilation cost
// about as much as the whole native run, so the whole-process ratio
// cannot say how the work itself compares.
func (m *measurer) cliRatio(ctx context.Context) []row {
	const measure = "command line, FIFO, 100,000 jobs, WebAssembly under node ÷ native (CPU of the whole process)"
	const start = "of which starting the command (`schedlab help`), under node / native"
	const less = "the same run less each build's start (run − help, round by round), under node ÷ native (CPU); not the issue's measure"
	progress("the command line on 100,000 jobs, natively and under node, interleaved")
	file, err := m.scenarioFile(100_000, "fifo")
	if err != nil {
		return []row{failed(measure, "≤ 3×", err)}
	}
	var ratios, lessRatios, nat, wasm, natHelp, wasmHelp []float64
	for range m.runs {
		n, err := m.runNative(ctx, "run", file)
		if err != nil {
			return []row{failed(measure, "≤ 3×", err)}
		}
		w, err := m.runWasm(ctx, "run", file)
		if err != nil {
			return []row{failed(measure, "≤ 3×", err)}
		}
		nh, err1 := m.runNative(ctx, "help")
		wh, err2 := m.runWasm(ctx, "help")
		if err1 != nil || err2 != nil {
			return []row{failed(start, "", fmt.Errorf("%v %v", err1, err2))}
		}
		nat, wasm, natHelp, wasmHelp = append(nat, n.CPU), append(wasm, w.CPU), append(natHelp, nh.CPU), append(wasmHelp, wh.CPU)
		ratios = append(ratios, w.CPU/n.CPU)
		if n.CPU > nh.CPU {
			lessRatios = append(lessRatios, (w.CPU-wh.CPU)/(n.CPU-nh.CPU))
		}
	}
	r := median(ratios)
	rows := []row{
		{Measure: measure, Value: fmt.Sprintf("%.1f× (%s; %s ÷ %s)", r, spread(ratios, "×"), seconds(median(wasm)), seconds(median(nat))), Target: "≤ 3×", Verdict: verdict(r, 3, true)},
		{Measure: start, Value: seconds(median(wasmHelp)) + " / " + seconds(median(natHelp))},
	}
	if len(lessRatios) > 0 {
		rows = append(rows, row{Measure: less, Value: fmt.Sprintf("%.1f× (%s)", median(lessRatios), spread(lessRatios, "×"))})
	}
	return rows
}

// millionJobs times the whole command line on 1,000,000 jobs under FIFO
// and under Tiresias.
func (m *measurer) millionJobs(ctx context.Context) []row {
	var rows []row
	for _, c := range []struct {
		policy, measure, target string
		cpu, rss                float64
	}{
		{"fifo", "command line, FIFO, 1,000,000 jobs, native CPU / peak memory", "≤ 1.0 s / 250 MB", 1.0, 250},
		{"tiresias", "command line, Tiresias, 1,000,000 jobs, native CPU / peak memory", "≤ 3 s", 3, math.Inf(1)},
	} {
		progress("the command line on 1,000,000 jobs under " + c.policy)
		file, err := m.scenarioFile(1_000_000, c.policy)
		if err != nil {
			rows = append(rows, failed(c.measure, c.target, err))
			continue
		}
		var cpus, rsss []float64
		for range m.runs {
			u, err := m.runNative(ctx, "run", file)
			if err != nil {
				rows = append(rows, failed(c.measure, c.target, err))
				break
			}
			cpus, rsss = append(cpus, u.CPU), append(rsss, u.RSSMB)
		}
		if len(cpus) < m.runs {
			continue
		}
		cpu, rss := median(cpus), median(rsss)
		v := "not met"
		if cpu <= c.cpu && rss <= c.rss {
			v = "met"
		}
		rows = append(rows, row{Measure: c.measure, Value: fmt.Sprintf("%s (%s) / %.0f MB", seconds(cpu), spread(cpus, " s"), rss), Target: c.target, Verdict: v})
	}
	return rows
}

// gavelMeasure names the Gavel row, measured or not (a row not measured
// keeps the docs' earlier figure by its name).
const gavelMeasure = "every Gavel study in full (`schedlab reproduce --paper gavel`), 2 workers, wall time"

// gavelStudies runs every Gavel study in full on 2 workers, once.
func (m *measurer) gavelStudies(ctx context.Context) row {
	measure := gavelMeasure
	progress("every Gavel study in full (about a quarter of an hour)")
	lines, err := m.bench(ctx, false, "./cmd/schedlab/", `^BenchmarkGavelStudiesFull$`, "1x", 1)
	if err != nil {
		return failed(measure, "≤ 8 min", err)
	}
	ns, err := metric(lines, "BenchmarkGavelStudiesFull", "ns/op")
	if err != nil {
		return failed(measure, "≤ 8 min", err)
	}
	cpu, _ := metric(lines, "BenchmarkGavelStudiesFull", "cpu-s/op")
	min := ns / 60e9
	return row{Measure: measure, Value: fmt.Sprintf("%s (%.0f s of CPU)", minutes(min), cpu), Target: "≤ 8 min", Verdict: verdict(min, 8, true)}
}

// seconds, minutes and millions format figures for the table.
func seconds(s float64) string {
	if s < 10 {
		return fmt.Sprintf("%.2f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}

func minutes(m float64) string {
	whole := math.Floor(m)
	return fmt.Sprintf("%.0f min %02.0f s", whole, (m-whole)*60)
}

func millions(x float64) string { return fmt.Sprintf("%.2f M", x/1e6) }

// millionsSpread is a mean in millions with the range of the runs it
// averages, "4.13 M (3.90–4.40 M)", so that a reader sees how far the
// machine moved a figure between runs; a single run shows alone.
func millionsSpread(m float64, runs []float64) string {
	if len(runs) < 2 {
		return millions(m)
	}
	inMillions := make([]float64, len(runs))
	for i, x := range runs {
		inMillions[i] = x / 1e6
	}
	return fmt.Sprintf("%s (%s)", millions(m), spread(inMillions, " M"))
}

// spread is a range of values: "a–b unit".
func spread(xs []float64, unit string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return fmt.Sprintf("%.2f–%.2f%s", lo, hi, unit)
}

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// highsSolves is how many times the HiGHS timing program solves each LP
// per round, as when the stored figures were taken (docs/lp.md).
const highsSolves = 20

// lp solves the dumped LPs (sim/solver/lp/testdata) and compares each
// one's CPU per solve with HiGHS's. With -highs it times HiGHS in this
// run: each round times ours on every LP (BenchmarkDumped, 10 solves),
// then HiGHS on every LP, and each side keeps its lowest round; it also
// checks that HiGHS's optimum is ours to 1e-7. Without -highs it divides
// by highsMS, figures taken on another day, so the ratios are indicative.
func (m *measurer) lp(ctx context.Context) []row {
	const gm, worst = "LP solver, the dumped Gavel LPs, ours ÷ HiGHS (CPU per solve), geometric mean", "LP solver, the same, the worst LP"
	names := make([]string, 0, len(highsMS))
	for name := range highsMS {
		names = append(names, name)
	}
	sort.Strings(names)
	var files []string
	if m.highs != "" {
		var err error
		if files, err = m.plainMPS(names); err != nil {
			return []row{failed(gm, "≤ 1.0×", err)}
		}
	}
	ours := make([]float64, len(names))
	theirs := make([]float64, len(names))
	version := ""
	for r := 0; r < m.runs; r++ {
		progress(fmt.Sprintf("the LP solver on the dumped LPs, round %d of %d", r+1, m.runs))
		lines, err := m.bench(ctx, false, "./sim/solver/lp/", `^BenchmarkDumped$`, "10x", 1)
		if err != nil {
			return []row{failed(gm, "≤ 1.0×", err)}
		}
		for i, name := range names {
			v, err := metric(lines, "BenchmarkDumped/"+name, "cpu-ms/op")
			if err != nil {
				return []row{failed(gm, "≤ 1.0×", err)}
			}
			ours[i] = lowest(ours[i], v, r)
		}
		if m.highs == "" {
			continue
		}
		for i, f := range files {
			h, err := runHighstime(ctx, m.highs, f, highsSolves)
			if err != nil {
				return []row{failed(gm, "≤ 1.0×", err)}
			}
			theirs[i], version = lowest(theirs[i], h.cpuMS, r), h.version
		}
	}
	peer := "HiGHS 1.15.1, native, one thread, presolve on, CPU stored from another day (" + storedDay + "; pass -highs to time it in this run, docs/lp.md), so the ratios are indicative; the optima agree to 1e-7 (TestDumpedLPsAgainstHiGHS)"
	if m.highs == "" {
		for i, name := range names {
			theirs[i] = highsMS[name]
		}
	} else {
		if err := m.sameOptima(ctx, files); err != nil {
			return []row{failed(gm, "≤ 1.0×", err)}
		}
		rounds := fmt.Sprintf("the lowest of %d rounds each", m.runs)
		if m.runs == 1 {
			rounds = "one round each"
		}
		peer = fmt.Sprintf("HiGHS %s, native, one thread, presolve on, timed in this run (-highs), alternating with ours, %s; the optima agree to 1e-7 (checked in this run)", version, rounds)
	}
	var ratios []float64
	w := 0
	for i, name := range names {
		ratios = append(ratios, ours[i]/theirs[i])
		if ratios[i] > ratios[w] {
			w = i
		}
		progress(fmt.Sprintf("%s: ours %.2f ms, HiGHS %.2f ms, %.2f×", name, ours[i], theirs[i], ratios[i]))
	}
	g := geomean(ratios)
	return []row{
		{Measure: gm, Value: fmt.Sprintf("%.2f× over %d LPs", g, len(ratios)), Target: "≤ 1.0×", Peer: peer, Verdict: verdict(g, 1.0, true)},
		{Measure: worst, Value: fmt.Sprintf("%.2f× (%s: %.1f ms against %.1f ms)", ratios[w], names[w], ours[w], theirs[w]), Target: "≤ 1.5×", Verdict: verdict(ratios[w], 1.5, true)},
	}
}

// storedDay is when highsMS was measured.
const storedDay = "2026-11-24"

// lowest is the lower of x and v, or v in round 0.
func lowest(x, v float64, round int) float64 {
	if round == 0 {
		return v
	}
	return math.Min(x, v)
}

// plainMPS writes each dumped LP, gunzipped (a HiGHS built without zlib
// reads only plain files), into the temporary directory.
func (m *measurer) plainMPS(names []string) ([]string, error) {
	var files []string
	for _, name := range names {
		gz, err := os.ReadFile(filepath.Join(m.root, "sim", "solver", "lp", "testdata", name+".mps.gz"))
		if err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			return nil, fmt.Errorf("%s.mps.gz: %v", name, err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			return nil, fmt.Errorf("%s.mps.gz: %v", name, err)
		}
		file := filepath.Join(m.tmp, name+".mps")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return nil, err
		}
		files = append(files, file)
	}
	return files, nil
}

// A highsRun is what the timing program says of one LP.
type highsRun struct {
	cpuMS     float64 // CPU milliseconds per solve
	status    string  // HiGHS's model status, e.g. "Optimal"
	objective float64
	version   string
}

// runHighstime runs the HiGHS timing program on one file.
func runHighstime(ctx context.Context, prog, file string, n int) (highsRun, error) {
	cmd := exec.CommandContext(ctx, prog, file, strconv.Itoa(n))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return highsRun{}, fmt.Errorf("%s %s: %v: %s", prog, filepath.Base(file), err, oneLine(errOut.String(), 200))
	}
	h, err := parseHighstime(out.String())
	if err != nil {
		return h, fmt.Errorf("%s %s: %v", prog, filepath.Base(file), err)
	}
	return h, nil
}

// parseHighstime reads the timing program's output: lines "key value"
// with the keys cpu-ms/op, status, objective and version
// (build/benchreport/highstime/highstime.cpp). Other lines are ignored.
func parseHighstime(out string) (highsRun, error) {
	var h highsRun
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		key, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		var err error
		switch key {
		case "cpu-ms/op":
			h.cpuMS, err = strconv.ParseFloat(value, 64)
			if err == nil && !(h.cpuMS > 0) {
				err = fmt.Errorf("not positive")
			}
		case "objective":
			h.objective, err = strconv.ParseFloat(value, 64)
		case "status":
			h.status = value
		case "version":
			h.version = value
		default:
			continue
		}
		if err != nil {
			return h, fmt.Errorf("%s %q: %v", key, value, err)
		}
		seen[key] = true
	}
	for _, key := range []string{"cpu-ms/op", "status", "objective", "version"} {
		if !seen[key] {
			return h, fmt.Errorf("no %q line in its output", key)
		}
	}
	return h, nil
}

// sameOptima solves each file with `schedlab lp` and HiGHS (once) and
// says which, if any, differ: in status, or in objective by more than
// 1e-7 relative.
func (m *measurer) sameOptima(ctx context.Context, files []string) error {
	out, err := m.goCmd(ctx, nil, append([]string{"run", "./cmd/schedlab", "lp", "--format", "json"}, files...)...)
	if err != nil {
		return err
	}
	var ours []struct {
		File      string  `json:"file"`
		Status    string  `json:"status"`
		Objective float64 `json:"objective"`
	}
	if err := json.Unmarshal([]byte(out), &ours); err != nil {
		return fmt.Errorf("schedlab lp: %v", err)
	}
	if len(ours) != len(files) {
		return fmt.Errorf("schedlab lp: %d results for %d files", len(ours), len(files))
	}
	for i, f := range files {
		h, err := runHighstime(ctx, m.highs, f, 1)
		if err != nil {
			return err
		}
		if err := agree(ours[i].Status, ours[i].Objective, h); err != nil {
			return fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
	return nil
}

// agree says whether our status and objective are HiGHS's, the objective
// to 1e-7 relative (an infeasible LP has none).
func agree(status string, objective float64, h highsRun) error {
	if !strings.EqualFold(status, h.status) {
		return fmt.Errorf("we say %s, HiGHS %s", status, h.status)
	}
	if strings.EqualFold(status, "optimal") {
		if rel := math.Abs(objective-h.objective) / math.Max(1, math.Abs(h.objective)); !(rel <= 1e-7) {
			return fmt.Errorf("objective %.15g, HiGHS's %.15g (relative difference %.2g)", objective, h.objective, rel)
		}
	}
	return nil
}

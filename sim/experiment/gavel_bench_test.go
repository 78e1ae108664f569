package experiment_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// One full point of Gavel's Figure 8 (spec 001 §7 target: under 10 s
// natively; issue 16's: under 1.5 s of CPU): heterogeneity-aware LAS under the round-based mechanism at
// 5.6 jobs/h, the highest rate of the figure, seed 0, until jobs
// 4000–4999 of 7,000 are done.
func BenchmarkGavelFigure8Point(b *testing.B) {
	data, _ := scenarios.Read("gavel-fig8-las-single")
	full, err := scenario.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	at, err := full.SweepVariant(5.6)
	if err != nil {
		b.Fatal(err)
	}
	gavel := -1
	for i := range at.Policies {
		if at.PolicyLabel(i) == "Gavel" {
			gavel = i
		}
	}
	if gavel < 0 {
		b.Fatal("no policy labelled Gavel")
	}
	sc, err := at.WithPolicy(gavel)
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Process()
	for range b.N {
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{0}, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		if r := rep.Runs[0]; r.Err != nil || r.Summary.Finished != 1000 {
			b.Fatalf("%v, %d measured jobs finished", r.Err, r.Summary.Finished)
		}
	}
	// CPU seconds per point, issue 16's measure (wall time on a shared
	// machine mostly measures the other processes).
	b.ReportMetric((cputime.Process()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// One full point of any Gavel study, chosen through the environment, for
// profiling a figure's costliest runs (issue 37): SCHEDLAB_BENCH_SCENARIO
// names the built-in scenario, SCHEDLAB_BENCH_SWEEP the sweep value,
// SCHEDLAB_BENCH_POLICY the policy's label and SCHEDLAB_BENCH_SEED the
// seed (default 0); SCHEDLAB_BENCH_RECORD, if set, names a file for the
// run's records (writeRunRecord). It is skipped when no scenario is named.
func BenchmarkGavelPoint(b *testing.B) {
	name := os.Getenv("SCHEDLAB_BENCH_SCENARIO")
	if name == "" {
		b.Skip("SCHEDLAB_BENCH_SCENARIO names no scenario")
	}
	sweep, err := strconv.ParseFloat(os.Getenv("SCHEDLAB_BENCH_SWEEP"), 64)
	if err != nil {
		b.Fatalf("SCHEDLAB_BENCH_SWEEP: %v", err)
	}
	seed := uint64(0)
	if s := os.Getenv("SCHEDLAB_BENCH_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			b.Fatalf("SCHEDLAB_BENCH_SEED: %v", err)
		}
	}
	data, ok := scenarios.Read(name)
	if !ok {
		b.Fatalf("no built-in scenario %q", name)
	}
	full, err := scenario.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	at, err := full.SweepVariant(sweep)
	if err != nil {
		b.Fatal(err)
	}
	label := os.Getenv("SCHEDLAB_BENCH_POLICY")
	policy := -1
	for i := range at.Policies {
		if at.PolicyLabel(i) == label {
			policy = i
		}
	}
	if policy < 0 {
		b.Fatalf("no policy labelled %q", label)
	}
	sc, err := at.WithPolicy(policy)
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Process()
	for range b.N {
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{seed}, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		r := rep.Runs[0]
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		if out := os.Getenv("SCHEDLAB_BENCH_RECORD"); out != "" {
			writeRunRecord(b, out, r)
		}
	}
	b.ReportMetric((cputime.Process()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// writeRunRecord writes a run's summary, groups, job records and GPU
// intervals as text to the file out, for comparing two builds' runs byte
// for byte (%v prints every float in its shortest exact form).
func writeRunRecord(b *testing.B, out string, r *experiment.Run) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "saturated %v\nsummary %+v\n", r.Saturated, r.Summary)
	for _, g := range r.ByModel {
		fmt.Fprintf(&buf, "group %+v\n", g)
	}
	for _, j := range r.Result.Jobs {
		fmt.Fprintf(&buf, "job %+v\n", j)
	}
	for _, iv := range r.Result.Intervals {
		fmt.Fprintf(&buf, "interval %+v\n", iv)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
}

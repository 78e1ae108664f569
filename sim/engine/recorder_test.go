package engine_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/workload"
)

// At their caps the recorders summarise instead of growing: utilisation
// steps are merged (the utilisation metric stays what the full record
// gives), intervals beyond the cap are counted, and Notes says so.
func TestRecorderCaps(t *testing.T) {
	var jobs []workload.Job
	for i := range 400 {
		// 1 to 3 GPUs, arriving faster than they finish on 4 GPUs, so the
		// busy count changes at most events.
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), ArrivalS: float64(i) * 7, GPUs: 1 + i%3, Model: "m", DurationS: float64(5 + i%11)})
	}
	jobs, _ = workload.Finalize(jobs)
	runWith := func(caps engine.RecorderCaps) *engine.Result {
		js := append([]workload.Job(nil), jobs...)
		if err := perf.NewConstant(perf.ConstantParams{}).Prepare(nil, js); err != nil {
			t.Fatal(err)
		}
		return run(t, engine.Config{Cluster: mkCluster(t, 1, 4, 0), Jobs: js, Perf: perf.NewConstant(perf.ConstantParams{}), Policy: fifo.New(fifo.Params{}), Caps: caps})
	}
	full := runWith(engine.RecorderCaps{})
	capped := runWith(engine.RecorderCaps{UtilPoints: 64, Intervals: 50})
	if full.Stats.UtilThinned != 0 || len(full.Notes()) != 0 {
		t.Fatalf("full run summarised: %+v", full.Stats)
	}
	if len(capped.Utilization) > 64 || capped.Stats.UtilThinned == 0 || len(capped.Intervals) != 50 || capped.Stats.DroppedIntervals == 0 {
		t.Fatalf("caps not kept: %d steps, %d intervals, %+v", len(capped.Utilization), len(capped.Intervals), capped.Stats)
	}
	// every interval past the cap is counted once (release counts most of
	// them without calling recordInterval)
	if n := len(capped.Intervals) + int(capped.Stats.DroppedIntervals); n != len(full.Intervals) {
		t.Fatalf("%d intervals kept + %d dropped, the full run has %d", len(capped.Intervals), capped.Stats.DroppedIntervals, len(full.Intervals))
	}
	a, b := metrics.Summarize(full, 4).Utilization, metrics.Summarize(capped, 4).Utilization
	if math.Abs(a-b) > 1e-9 {
		t.Fatalf("utilisation %v with every step, %v thinned", a, b)
	}
	// A window inside the run ends between kept points: each end is
	// interpolated within one merged gap, so the error is at most two gaps
	// of every GPU busy.
	part := func(r *engine.Result) metrics.Summary {
		return metrics.Summarize(&engine.Result{Jobs: r.Jobs[150:250], Utilization: r.Utilization, Stats: r.Stats}, 4)
	}
	gap := 0.0
	for i := 1; i < len(capped.Utilization); i++ {
		gap = max(gap, capped.Utilization[i].TimeS-capped.Utilization[i-1].TimeS)
	}
	pa, pb := part(full), part(capped)
	if math.Abs(pa.Utilization-pb.Utilization) > 2*gap/pa.Makespan {
		t.Fatalf("utilisation of jobs 150–249: %v with every step, %v thinned (largest gap %v s of %v s)", pa.Utilization, pb.Utilization, gap, pa.Makespan)
	}
	notes := strings.Join(capped.Notes(), "\n")
	if !strings.Contains(notes, "coarser grain") || !strings.Contains(notes, "GPU intervals beyond the recorder's cap") {
		t.Fatalf("notes: %s", notes)
	}
}

// A run handed an earlier run's array (Config.UtilSteps) records into
// it the steps a run with a fresh array records, whatever the array held
// and however long it was: once with room for every step (the result
// shares the array), and once too small, so that it grows and thins at
// a cap as a fresh one does.
func TestUtilStepsReused(t *testing.T) {
	var jobs []workload.Job
	for i := range 300 {
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), ArrivalS: float64(i) * 5, GPUs: 1 + i%3, Model: "m", DurationS: float64(7 + i%13)})
	}
	jobs, _ = workload.Finalize(jobs)
	if err := perf.NewConstant(perf.ConstantParams{}).Prepare(nil, jobs); err != nil {
		t.Fatal(err)
	}
	runWith := func(steps []engine.UtilPoint, caps engine.RecorderCaps) *engine.Result {
		return run(t, engine.Config{Cluster: mkCluster(t, 1, 4, 0), Jobs: jobs, Perf: perf.NewConstant(perf.ConstantParams{}), Policy: fifo.New(fifo.Params{}), UtilSteps: steps, Caps: caps})
	}
	// what an earlier run left: steps that are not this run's
	stale := func(n, room int) []engine.UtilPoint {
		u := make([]engine.UtilPoint, n, room)
		for i := range u[:cap(u)] {
			u[:cap(u)][i] = engine.UtilPoint{TimeS: 1e9 - float64(i), BusyGPUs: 99, Slots: 7, BusyGPUSeconds: -1}
		}
		return u
	}
	for _, c := range []struct {
		name  string
		steps []engine.UtilPoint
		caps  engine.RecorderCaps
		share bool
	}{
		{"room for every step", stale(40, 4096), engine.RecorderCaps{}, true},
		{"too small: grown", stale(3, 8), engine.RecorderCaps{}, false},
		{"too small, thinned at a cap", stale(3, 8), engine.RecorderCaps{UtilPoints: 50}, false},
	} {
		fresh, reused := runWith(nil, c.caps), runWith(c.steps, c.caps)
		if len(fresh.Utilization) < 100 && c.caps.UtilPoints == 0 {
			t.Fatalf("%s: only %d steps: the run tests too little", c.name, len(fresh.Utilization))
		}
		if fmt.Sprint(reused.Utilization) != fmt.Sprint(fresh.Utilization) || reused.Stats.UtilThinned != fresh.Stats.UtilThinned {
			t.Errorf("%s: %d steps (thinned %d times) with the array handed on, %d (%d) with a fresh one", c.name,
				len(reused.Utilization), reused.Stats.UtilThinned, len(fresh.Utilization), fresh.Stats.UtilThinned)
		}
		if shares := &reused.Utilization[0] == &c.steps[:1][0]; shares != c.share {
			t.Errorf("%s: the result shares the array handed on: %v, want %v", c.name, shares, c.share)
		}
	}
}

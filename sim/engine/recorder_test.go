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

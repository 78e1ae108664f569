package trace

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

// phillyRows is a small Philly log: n jobs one minute apart, of 1, 2, 4
// and 8 GPUs in turn, each running 600 s plus a minute per row.
func phillyRows(n int) string {
	var b strings.Builder
	b.WriteString("timestamp,duration,num_gpus,gpu_time,cluster\n")
	gpus := []int{1, 2, 4, 8}
	for i := range n {
		g, d := gpus[i%len(gpus)], 600+60*i
		fmt.Fprintf(&b, "2017-10-09 %02d:%02d:00,%d.0,%d,%d.0,c1\n", 7+i/60, i%60, d, g, d*g)
	}
	return b.String()
}

// --max-gpus leaves out the wider jobs, counted under a reason of their own.
func TestMaxGPUsFilter(t *testing.T) {
	f := PolluxFilters
	f.MaxGPUs = 1
	res, err := Import("philly", strings.NewReader(phillyRows(40)), Options{Filters: &f})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 10 {
		t.Fatalf("kept %d jobs, want the 10 of 1 GPU", len(res.Jobs))
	}
	for _, j := range res.Jobs {
		if j.GPUs != 1 {
			t.Errorf("job %s of %d GPUs kept", j.Name, j.GPUs)
		}
	}
	want := Drop{Reason: "of more than 1 GPU(s) (filter)", Jobs: 30, Option: "max-gpus"}
	if len(res.Drops) != 1 || res.Drops[0] != want {
		t.Errorf("drops %+v, want %+v", res.Drops, want)
	}
	f.MaxGPUs = 2
	if res, err = Import("philly", strings.NewReader(phillyRows(40)), Options{Filters: &f}); err != nil || len(res.Jobs) != 20 {
		t.Errorf("max 2 GPUs: %v jobs (%v), want 20", len(res.Jobs), err)
	}
	for _, bad := range []int{-1, 4097} {
		f.MaxGPUs = bad
		_, err := Import("philly", strings.NewReader(phillyRows(4)), Options{Filters: &f})
		if err == nil || !strings.Contains(err.Error(), "max_gpus: must be a number of GPUs from 0 (no bound) to 4096") {
			t.Errorf("max_gpus %d: %v", bad, err)
		}
	}
}

// --at-zero submits every job at time 0, in the trace's order; a window
// still chooses jobs by their submission times.
func TestAtZero(t *testing.T) {
	all, err := Import("philly", strings.NewReader(phillyRows(40)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	zero, err := Import("philly", strings.NewReader(phillyRows(40)), Options{AtZero: true})
	if err != nil {
		t.Fatal(err)
	}
	if names(zero.Jobs) != names(all.Jobs) || all.Jobs[5].ArrivalS == 0 {
		t.Fatalf("at zero keeps %s, want %s (the last arriving at %v)", names(zero.Jobs), names(all.Jobs), all.Jobs[5].ArrivalS)
	}
	for _, j := range zero.Jobs {
		if j.ArrivalS != 0 {
			t.Errorf("job %s arrives at %v", j.Name, j.ArrivalS)
		}
	}
	if !strings.Contains(strings.Join(zero.Notes, "; "), "every job is submitted at time 0 (--at-zero)") {
		t.Errorf("notes %q do not say the jobs were moved to time 0", zero.Notes)
	}
	win, err := Import("philly", strings.NewReader(phillyRows(40)), Options{AtZero: true, Window: &[2]float64{0, 0.25}})
	if err != nil || len(win.Jobs) != 15 || win.Jobs[14].ArrivalS != 0 {
		t.Errorf("a quarter-hour window at zero: %d jobs (%v), want 15 at time 0", len(win.Jobs), err)
	}
	if _, err := Import("philly", strings.NewReader(phillyRows(4)), Options{AtZero: true, Scale: 0.5}); err == nil || !strings.Contains(err.Error(), "scale and at_zero") {
		t.Errorf("at zero with a scale: %v", err)
	}
	if _, err := Import("philly", strings.NewReader(phillyRows(4)), Options{AtZero: true, Scale: 1}); err != nil {
		t.Errorf("at zero with the scale of 1: %v", err)
	}
}

// The ojpp-64 preset gives every job a type of the OJPP Mixed queue,
// seeded, and the scenario runs under memshare; sjf-bco-64 gives every job
// iterations for τ0 in the paper's range, and its batch policies when the
// jobs are at time 0.
func TestPresetModels(t *testing.T) {
	in := phillyRows(400)
	res, err := Import("philly", strings.NewReader(in), Options{Cluster: "ojpp-64", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, j := range res.Jobs {
		count[j.Model]++
		if workload.OJPPType(j.Model) == nil || j.Model == "ResNet-Fig2" {
			t.Fatalf("job %s got model %q, not a type of the Mixed queue", j.Name, j.Model)
		}
	}
	mixed := count["LeNet"] + count["LSTM"] + count["VGG19"] + count["ResNet"]
	if len(count) != 6 || mixed < 160 || mixed > 240 {
		t.Errorf("types %v: want all six, about half (200 of 400) C-high or I-high", count)
	}
	again, _ := Import("philly", strings.NewReader(in), Options{Cluster: "ojpp-64", Seed: 3})
	other, _ := Import("philly", strings.NewReader(in), Options{Cluster: "ojpp-64", Seed: 4})
	if models(again.Jobs) != models(res.Jobs) || models(other.Jobs) == models(res.Jobs) {
		t.Errorf("the types are not a function of the seed")
	}
	plain, _ := Import("philly", strings.NewReader(in), Options{Seed: 3})
	for i, j := range res.Jobs {
		if p := plain.Jobs[i]; j.Name != p.Name || j.DurationS != p.DurationS || j.ArrivalS != p.ArrivalS || j.GPUs != p.GPUs {
			t.Fatalf("job %d: %+v, want the trace's %+v but for its model", i, j, p)
		}
	}
	doc, err := res.Scenario(ScenarioInfo{Source: "t.csv"})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(doc)
	if err != nil {
		t.Fatalf("the ojpp-64 scenario does not validate: %v", err)
	}
	if sc.Perf.Model != "memshare" || sc.Policies[len(sc.Policies)-1].Name != "ojpp" {
		t.Errorf("perf %q, policies %v; want memshare and the OJPP policies", sc.Perf.Model, sc.Policies)
	}

	rar, err := Import("philly", strings.NewReader(in), Options{Cluster: "sjf-bco-64", AtZero: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range rar.Jobs {
		tau := j.DurationS / j.Iterations
		if j.Model != "rar" || tau < 0.01-1e-6 || tau > 0.05+1e-6 || j.Iterations != math.Round(j.Iterations) {
			t.Fatalf("job %s: model %q, %v iterations, τ0 %v; want rar and τ0 in [0.01, 0.05]", j.Name, j.Model, j.Iterations, tau)
		}
	}
	if doc, err = rar.Scenario(ScenarioInfo{Source: "t.csv"}); err != nil {
		t.Fatal(err)
	}
	if sc, err = scenario.Parse(doc); err != nil {
		t.Fatalf("the sjf-bco-64 scenario at time 0 does not validate: %v", err)
	}
	if sc.Perf.Model != "ring_allreduce" || sc.Policies[len(sc.Policies)-1].Name != "sjf-bco" {
		t.Errorf("perf %q, policies %v; want ring_allreduce and the SJF-BCO policies", sc.Perf.Model, sc.Policies)
	}
	// Over time, the batch policies would be refused: the preset's others.
	over, err := Import("philly", strings.NewReader(in), Options{Cluster: "sjf-bco-64"})
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = over.Scenario(ScenarioInfo{Source: "t.csv"}); err != nil {
		t.Fatal(err)
	}
	if _, err = scenario.Parse(doc); err != nil {
		t.Fatalf("the sjf-bco-64 scenario over time does not validate: %v", err)
	}
}

func models(jobs []workload.Job) string {
	var b strings.Builder
	for _, j := range jobs {
		b.WriteString(j.Model + " ")
	}
	return b.String()
}

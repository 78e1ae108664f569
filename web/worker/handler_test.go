package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// call sends one message and waits for its final reply (anything but
// progress), returning the progress messages seen on the way.
func call(t *testing.T, m protocol.Message) (protocol.Message, []protocol.Message) {
	t.Helper()
	ch := make(chan protocol.Message, 64)
	h := New(func(r protocol.Message) { ch <- r })
	h.ProgressEvery = 0
	h.Handle(m)
	var progress []protocol.Message
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case r := <-ch:
			if r.Type == protocol.TypeProgress {
				progress = append(progress, r)
				continue
			}
			return r, progress
		case <-timeout:
			t.Fatal("no reply")
		}
	}
}

func runMsg(t *testing.T, id int, req protocol.RunRequest) protocol.Message {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return protocol.Message{Type: protocol.TypeRun, ID: id, JSON: b}
}

func decode[T any](t *testing.T, m protocol.Message) T {
	t.Helper()
	var v T
	if m.Type == protocol.TypeError {
		t.Fatalf("error reply: %s", m.JSON)
	}
	if err := json.Unmarshal(m.JSON, &v); err != nil {
		t.Fatalf("%s: %v", m.Type, err)
	}
	return v
}

// Running each policy on its own (as the page's parallel workers do) gives
// exactly the output of running the scenario whole, and drawing the merged
// runs gives byte-identical figures.
//
// It runs the built-in scenarios that together cover every policy, every
// performance model, engine
// setting and list of figures of the built-in set, cheapest first (see
// coveringScenarios): running all 74 took three minutes, mostly on Gavel
// studies that repeat one another's policies.
func TestPolicyByPolicyMatchesWholeRun(t *testing.T) {
	for _, sc := range coveringScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			doc := sc.Document()
			seed := sc.RunSeeds()[0]
			rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{seed}, Snapshots: true})
			if err != nil {
				t.Fatal(err)
			}
			whole := rep.Output(seed)
			var draw protocol.DrawRequest
			draw.Document, draw.Seed = string(doc), seed
			bin := map[string][]byte{}
			omitted := 0 // policies whose intervals were too many to ship: no Gantt chart
			for i := range sc.Policies {
				res, _ := call(t, runMsg(t, i+1, protocol.RunRequest{Document: string(doc), Policy: &i, Figures: []string{}, Timeline: true}))
				r := decode[protocol.Result](t, res)
				var out results.Output
				if err := json.Unmarshal(r.Output, &out); err != nil {
					t.Fatal(err)
				}
				got, _ := json.Marshal(out.Results[0])
				want, _ := json.Marshal(whole.Results[i])
				if !bytes.Equal(got, want) {
					t.Errorf("policy %d: output differs from the whole run's", i)
				}
				// Large runs ship no intervals, only their count.
				if n := len(rep.Runs[i].Result.Intervals); len(r.Timelines) != 1 || r.Timelines[0].Intervals+r.Timelines[0].IntervalsOmitted != n {
					t.Errorf("policy %d: timeline has %d intervals and %d omitted, want %d in all", i, r.Timelines[0].Intervals, r.Timelines[0].IntervalsOmitted, n)
				} else if r.Timelines[0].IntervalsOmitted > 0 {
					omitted++
				}
				draw.Runs = append(draw.Runs, protocol.DrawRun{Label: out.Results[0].Policy, Name: out.Results[0].Name, Output: got})
				bin[protocol.IntervalsKey(i)] = res.Bin[protocol.IntervalsKey(0)]
			}
			b, _ := json.Marshal(draw)
			drawn, _ := call(t, protocol.Message{Type: protocol.TypeDraw, ID: 99, JSON: b, Bin: bin})
			d := decode[protocol.Drawn](t, drawn)
			figs, err := rep.Figures(seed, plot.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Figures) != len(figs)-omitted {
				t.Fatalf("drew %d figures, the whole run has %d (%d Gantt charts without intervals)", len(d.Figures), len(figs), omitted)
			}
			for _, f := range figs {
				if drawn.Bin[f.Name] == nil && strings.HasPrefix(f.Name, "gantt-") && omitted > 0 {
					continue
				}
				want, err := f.Figure.PNG()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(drawn.Bin[f.Name], want) {
					t.Errorf("figure %s differs from the whole run's", f.Name)
				}
			}
		})
	}
}

// coveringScenarios returns the quick versions of the fewest built-in
// scenarios, taken cheapest first (jobs × policies), that together have
// every feature any built-in scenario has: each policy, each performance
// model (with or without interference),
// each engine setting and each list of figures.
func coveringScenarios(t *testing.T) []*scenario.Scenario {
	t.Helper()
	type candidate struct {
		sc       *scenario.Scenario
		cost     int64
		features []string
	}
	var all []candidate
	for _, name := range scenarios.Names() {
		doc, _ := scenarios.Read(name)
		sc, err := scenario.Parse(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The paper presets of a study run thousands of jobs; their
		// quick versions exercise the same paths in a fraction of the
		// time.
		if sc, err = sc.QuickVariant(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		jobs, _ := sc.JobCount()
		all = append(all, candidate{sc, jobs * int64(len(sc.Policies)), scenarioFeatures(sc)})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].cost < all[j].cost })
	seen := map[string]bool{}
	var picked []*scenario.Scenario
	for _, c := range all {
		isNew := false
		for _, f := range c.features {
			if !seen[f] {
				seen[f], isNew = true, true
			}
		}
		if isNew {
			picked = append(picked, c.sc)
		}
	}
	return picked
}

// scenarioFeatures lists what of a scenario can change the path a run
// takes through the worker: its policies, its performance
// model, its engine settings and its figures.
func scenarioFeatures(sc *scenario.Scenario) []string {
	engine, _ := json.Marshal(sc.Engine)
	f := []string{
		"perf " + sc.Perf.Model + fmt.Sprintf(" interference %t", sc.Perf.Interference != nil),
		"engine " + string(engine),
		"plots " + strings.Join(sc.Plots, ","),
	}
	for _, p := range sc.Policies {
		f = append(f, "policy "+p.Name)
	}
	return f
}

func TestInvalidScenarioReportsPaths(t *testing.T) {
	doc := `{"name": "x", "cluster": {"servers": [{"count": 1, "gpus": 0, "gpu_type": "V100"}]},
	  "workload": {"jobs": [{"id": "a", "arrival_s": 0, "gpus": 1, "model": "m", "duration_s": 5}]}, "policies": [{"name": "fifo"}]}`
	res, _ := call(t, runMsg(t, 1, protocol.RunRequest{Document: doc}))
	if res.Type != protocol.TypeError {
		t.Fatalf("got %s, want error", res.Type)
	}
	e := decode[protocol.Error](t, protocol.Message{Type: "x", JSON: res.JSON})
	if len(e.Problems) != 1 || e.Problems[0].Path != "cluster.servers[0].gpus" {
		t.Errorf("problems %+v", e.Problems)
	}
}

func TestCancelStopsARun(t *testing.T) {
	doc := `{"name": "big", "cluster": {"servers": [{"count": 4, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": 200000, "jobs_per_hour": 600,
	    "gpu_mix": [{"gpus": 1, "weight": 1}], "duration": {"dist": "exponential", "mean_s": 300},
	    "models": [{"model": "resnet50", "weight": 1}]}},
	  "policies": [{"name": "fifo"}]}`
	ch := make(chan protocol.Message, 64)
	h := New(func(r protocol.Message) { ch <- r })
	h.ProgressEvery = 0
	h.Handle(runMsg(t, 7, protocol.RunRequest{Document: doc}))
	start := time.Now()
	for m := range ch {
		switch m.Type {
		case protocol.TypeProgress:
			h.Handle(protocol.Message{Type: protocol.TypeCancel, ID: 7})
			continue
		case protocol.TypeError:
			e := decode[protocol.Error](t, protocol.Message{Type: "x", JSON: m.JSON})
			if !e.Cancelled {
				t.Errorf("error %+v is not a cancellation", e)
			}
		default:
			t.Errorf("got %s, want a cancellation error", m.Type)
		}
		break
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("cancelling took %v", d)
	}
}

// The page decodes a result's output into results.Output and hands it back
// to a worker to draw (DrawRun.Output): decoding and encoding again must
// give back every byte the engine wrote, series included.
func TestOutputRoundTrips(t *testing.T) {
	for _, name := range []string{"tiny", "gavel-small"} {
		res, _ := call(t, runMsg(t, 1, protocol.RunRequest{Name: name, Figures: []string{}}))
		r := decode[protocol.Result](t, res)
		var out results.Output
		if err := json.Unmarshal(r.Output, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Results) == 0 || len(out.Results[0].Jobs) == 0 {
			t.Fatalf("%s: decoded %+v", name, out)
		}
		again, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, r.Output) {
			t.Errorf("%s: decoding and encoding the output changed it at byte %d", name, firstDiff(again, r.Output))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestIntervalsRoundTrip(t *testing.T) {
	iv := []protocol.Interval{{GPU: 3, Job: 7, StartS: 1.5, EndS: 2e9}, {GPU: 0, Job: 0, StartS: 0, EndS: 0.1}}
	got, err := protocol.DecodeIntervals(protocol.EncodeIntervals(iv))
	if err != nil || len(got) != 2 || got[0] != iv[0] || got[1] != iv[1] {
		t.Errorf("round trip gave %+v, %v", got, err)
	}
	if _, err := protocol.DecodeIntervals(make([]byte, 25)); err == nil || !strings.Contains(err.Error(), "multiple") {
		t.Errorf("bad length: %v", err)
	}
}

// TestRunWithoutFonts: when the figures' fonts cannot be had (the page's
// module fetches them, see plot.FaceData), a run still sends its numbers,
// the same as with figures, saying why its figures are missing.
func TestRunWithoutFonts(t *testing.T) {
	req := protocol.RunRequest{Name: "tiny"}
	withFigures := decode[protocol.Result](t, first(t, req, nil))
	if len(withFigures.Figures) == 0 || withFigures.FiguresErr != "" {
		t.Fatalf("with fonts: %d figures, FiguresErr %q", len(withFigures.Figures), withFigures.FiguresErr)
	}
	m := first(t, req, func() error { return fmt.Errorf("fetching LiberationSans-Regular.ttf: Failed to fetch") })
	r := decode[protocol.Result](t, m)
	if want := "The figures could not be drawn: fetching LiberationSans-Regular.ttf: Failed to fetch"; r.FiguresErr != want {
		t.Errorf("FiguresErr %q, want %q", r.FiguresErr, want)
	}
	if len(r.Figures) != 0 || len(m.Bin) != 0 {
		t.Errorf("without fonts: %d figures and %d binaries sent", len(r.Figures), len(m.Bin))
	}
	if !bytes.Equal(r.Output, withFigures.Output) {
		t.Error("the run's numbers differ when its figures are not drawn")
	}
}

// first runs req on a handler whose LoadFaces is load (nil: the
// default) and returns its final reply.
func first(t *testing.T, req protocol.RunRequest, load func() error) protocol.Message {
	t.Helper()
	ch := make(chan protocol.Message, 64)
	h := New(func(r protocol.Message) { ch <- r })
	if load != nil {
		h.LoadFaces = load
	}
	h.Handle(runMsg(t, 1, req))
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case r := <-ch:
			if r.Type != protocol.TypeProgress {
				return r
			}
		case <-timeout:
			t.Fatal("no reply")
		}
	}
}

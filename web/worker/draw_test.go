package worker

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// The page's SVG downloads name their font rather than embed it, so a
// three-line CDF stays a few tens of kilobytes.
func TestSVGDownloadsAreSmall(t *testing.T) {
	doc, _ := scenarios.Read(scenarios.Default)
	var draw protocol.DrawRequest
	draw.Document, draw.Format, draw.Figures = string(doc), "svg", []string{"jct_cdf"}
	bin := map[string][]byte{}
	for i := range 2 {
		res, _ := call(t, runMsg(t, i+1, protocol.RunRequest{Document: string(doc), Policy: &i, Figures: []string{}, Timeline: true}))
		r := decode[protocol.Result](t, res)
		var out struct {
			Results []json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal(r.Output, &out); err != nil {
			t.Fatal(err)
		}
		// as the page sends it: the output in a bin, not in the JSON
		draw.Runs = append(draw.Runs, protocol.DrawRun{Label: []string{"FIFO", "SJF"}[i], Name: []string{"fifo", "sjf"}[i]})
		bin[protocol.RunOutputKey(i)] = out.Results[0]
		bin[protocol.IntervalsKey(i)] = res.Bin[protocol.IntervalsKey(0)]
	}
	b, _ := json.Marshal(draw)
	drawn, _ := call(t, protocol.Message{Type: protocol.TypeDraw, ID: 9, JSON: b, Bin: bin})
	decode[protocol.Drawn](t, drawn)
	svg := string(drawn.Bin["jct_cdf"])
	if !strings.Contains(svg, "<svg") || strings.Contains(svg, "@font-face") || len(svg) > 150_000 {
		t.Errorf("CDF SVG: %d bytes, embedded font: %v", len(svg), strings.Contains(svg, "@font-face"))
	}
	if !strings.Contains(svg, "Arial") {
		t.Error("the SVG names no fallback font")
	}
}

// A compact result carries the same output: the policy's exact JSON in
// its bin, the job records in binary, and the JSON without them.
func TestCompactResult(t *testing.T) {
	doc, _ := scenarios.Read(scenarios.Default)
	i := 1
	plain, _ := call(t, runMsg(t, 1, protocol.RunRequest{Document: string(doc), Policy: &i, Figures: []string{}, Timeline: true}))
	compact, _ := call(t, runMsg(t, 2, protocol.RunRequest{Document: string(doc), Policy: &i, Figures: []string{}, Timeline: true, Compact: true}))
	log, err := protocol.DecodeLog(compact.Bin[protocol.LogKey])
	if want := decode[protocol.Result](t, plain).Timelines[0].Log; err != nil || len(want) == 0 || !reflect.DeepEqual(log, want) {
		t.Errorf("compact log: %d entries (%v), want %d", len(log), err, len(want))
	}
	if tl := decode[protocol.Result](t, compact).Timelines; len(tl) != 1 || tl[0].Log != nil {
		t.Errorf("compact timeline JSON still holds the log: %+v", tl)
	}
	var whole struct {
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(decode[protocol.Result](t, plain).Output, &whole); err != nil {
		t.Fatal(err)
	}
	if string(compact.Bin[protocol.OutputKey]) != string(whole.Results[0]) {
		t.Error("the compact result's output JSON differs from the plain result's")
	}
	var full results.PolicyOutput
	json.Unmarshal(whole.Results[0], &full)
	jobs, err := protocol.DecodeJobs(compact.Bin[protocol.JobsKey])
	if err != nil || len(jobs) != len(full.Jobs) || len(jobs) == 0 {
		t.Fatalf("%d jobs (%v), want %d", len(jobs), err, len(full.Jobs))
	}
	for k := range jobs {
		full.Jobs[k].Servers, full.Jobs[k].IterSplit = nil, nil // not in the binary
		if b1, b2 := mustJSON(t, jobs[k]), mustJSON(t, full.Jobs[k]); b1 != b2 {
			t.Errorf("job %d: %s, want %s", k, b1, b2)
		}
	}
	var small results.Output
	json.Unmarshal(decode[protocol.Result](t, compact).Output, &small)
	if len(small.Results) != 1 || small.Results[0].Jobs != nil || small.Results[0].Metrics != full.Metrics {
		t.Errorf("compact JSON: %+v", small)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Ready lists every built-in scenario with what a full parse gives.
func TestReadyListsScenarios(t *testing.T) {
	r := Ready()
	if len(r.Scenarios) != len(scenarios.Names()) {
		t.Fatalf("%d scenarios, want %d", len(r.Scenarios), len(scenarios.Names()))
	}
	for _, info := range r.Scenarios {
		data, _ := scenarios.Read(info.Name)
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		if info.Title != sc.Title || info.Description != sc.Description || !reflect.DeepEqual(info.Tags, sc.Tags) {
			t.Errorf("%s: %+v, full parse %q %q %v", info.Name, info, sc.Title, sc.Description, sc.Tags)
		}
	}
}

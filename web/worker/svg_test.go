package worker

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
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
		draw.Runs = append(draw.Runs, protocol.DrawRun{Label: []string{"FIFO", "SJF"}[i], Name: []string{"fifo", "sjf"}[i], Output: out.Results[0]})
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

package app_test

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// barsScenario is a study without a sweep of four policies, with the
// paper's average JCT for Alpha (1.5 s) and Gamma (2.5 s), none for Beta
// and Delta.
const barsScenario = `{
  "name": "bars", "title": "Bars",
  "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100", "gpu_memory_gb": 16}]},
  "workload": {"jobs": [
    {"id": "j1", "arrival_s": 0, "gpus": 1, "model": "resnet50", "duration_s": 600},
    {"id": "j2", "arrival_s": 60, "gpus": 2, "model": "resnet50", "duration_s": 300}
  ]},
  "policies": [{"name": "fifo", "label": "Alpha"}, {"name": "sjf", "label": "Beta"}, {"name": "fifo", "label": "Gamma"}, {"name": "sjf", "label": "Delta"}],
  "seeds": [1, 2],
  "reference": {"source": "hand-written for a test", "unit": "s", "values": [
    {"policy": "Alpha", "metric": "avg_jct_s", "value": 1.5},
    {"policy": "Gamma", "metric": "avg_jct_s", "value": 2.5}
  ]}
}`

func ptr(v float64) *float64 { return &v }

var (
	rectRe    = regexp.MustCompile(`<rect class="bar (ours|paper)" x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)" height="([-\d.]+)" fill="([^"]+)"(?: stroke="([^"]+)")?`)
	groupRe   = regexp.MustCompile(`<g class="group" data-policy="([^"]+)">(.*?)</g>`)
	tickRe    = regexp.MustCompile(`<text x="[-\d.]+" y="([-\d.]+)" text-anchor="end" dominant-baseline="middle">([^<]+)</text>`)
	whiskerRe = regexp.MustCompile(`<path class="whisker" d="M[-\d.]+ ([-\d.]+)V([-\d.]+)`)
)

type bar struct {
	y, height   float64
	fill, color string
}

// parseBars reads the chart's bars by policy and kind, and its y scale
// from its own tick labels: the pixel row of 0 and pixels per unit.
func parseBars(t *testing.T, svg string) (bars map[string]map[string]bar, whiskers map[string][2]float64, zero, perUnit float64) {
	t.Helper()
	bars, whiskers = map[string]map[string]bar{}, map[string][2]float64{}
	for _, g := range groupRe.FindAllStringSubmatch(svg, -1) {
		bars[g[1]] = map[string]bar{}
		for _, m := range rectRe.FindAllStringSubmatch(g[2], -1) {
			y, _ := strconv.ParseFloat(m[3], 64)
			h, _ := strconv.ParseFloat(m[5], 64)
			bars[g[1]][m[1]] = bar{y: y, height: h, fill: m[6], color: m[7]}
		}
		if m := whiskerRe.FindStringSubmatch(g[2]); m != nil {
			lo, _ := strconv.ParseFloat(m[1], 64)
			hi, _ := strconv.ParseFloat(m[2], 64)
			whiskers[g[1]] = [2]float64{lo, hi}
		}
	}
	ticks := tickRe.FindAllStringSubmatch(svg, -1)
	if len(ticks) < 2 {
		t.Fatalf("fewer than two y ticks in %s", svg)
	}
	var ys, vs []float64
	for _, m := range ticks {
		y, _ := strconv.ParseFloat(m[1], 64)
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatalf("tick %q: %v", m[2], err)
		}
		ys, vs = append(ys, y), append(vs, v)
	}
	perUnit = (ys[0] - ys[len(ys)-1]) / (vs[len(vs)-1] - vs[0])
	zero = ys[0] + vs[0]*perUnit
	return bars, whiskers, zero, perUnit
}

// A study without a sweep is drawn as a bar per policy of its main
// metric: ours filled, the paper's outlined in the same colour, each as
// tall as its value on the chart's own axis, and no bar at all where a
// value is missing.
func TestBarChartOfAStudyWithoutSweep(t *testing.T) {
	sc, err := scenario.Parse([]byte(barsScenario))
	if err != nil {
		t.Fatal(err)
	}
	values := []results.ValueRepro{
		{Policy: "Alpha", Metric: "avg_jct_s", Group: "all", Unit: "s", Mean: ptr(2.0), SD: ptr(0.5), N: 2},
		{Policy: "Alpha", Metric: "makespan_s", Group: "all", Unit: "s", Mean: ptr(40), SD: ptr(1), N: 2},
		{Policy: "Beta", Metric: "avg_jct_s", Group: "all", Unit: "s", Mean: ptr(3.0), N: 1},
		{Policy: "Gamma", Metric: "avg_jct_s", Group: "all", Unit: "s", Mean: ptr(math.NaN()), N: 2},
	}
	for _, narrow := range []bool{false, true} {
		svg := app.BarChart(sc, values, narrow)
		if !strings.Contains(svg, `id="figure-bars" role="img" aria-label="Bar chart of `) {
			t.Fatalf("no bar chart with its id, role and label: %s", svg)
		}
		if !strings.Contains(svg, "(s)") {
			t.Error("the y axis does not give the unit")
		}
		bars, whiskers, zero, perUnit := parseBars(t, svg)
		if len(bars) != 4 {
			t.Fatalf("%d groups, want one per policy (4): %v", len(bars), bars)
		}
		want := map[string]map[string]float64{
			"Alpha": {"ours": 2.0, "paper": 1.5},
			"Beta":  {"ours": 3.0},
			"Gamma": {"paper": 2.5},
			"Delta": {}, // no value of ours at all, none of the paper's
		}
		n := 0
		for policy, kinds := range want {
			if len(bars[policy]) != len(kinds) {
				t.Errorf("%s: bars %v, want %v", policy, bars[policy], kinds)
			}
			for kind, v := range kinds {
				b, ok := bars[policy][kind]
				if !ok {
					t.Errorf("%s: no bar of %s", policy, kind)
					continue
				}
				n++
				if math.Abs(b.height-v*perUnit) > 0.01 || math.Abs(b.y+b.height-zero) > 0.01 {
					t.Errorf("%s, %s: bar from %.3f, %.3f tall; the axis puts %g from %.3f, %.3f tall", policy, kind, b.y+b.height, b.height, v, zero, v*perUnit)
				}
			}
		}
		if n != 4 {
			t.Errorf("%d bars, want 4", n)
		}
		if got := strings.Count(svg, `<rect class="bar`); got != 4 {
			t.Errorf("%d bar rects in the SVG, want 4 (no bar for a missing value)", got)
		}
		a, p := bars["Alpha"]["ours"], bars["Alpha"]["paper"]
		if p.fill != "#fff" || p.color != a.fill || a.color != "" {
			t.Errorf("ours filled %q (stroke %q), the paper's filled %q with stroke %q: want the paper's hollow in ours' colour", a.fill, a.color, p.fill, p.color)
		}
		w, ok := whiskers["Alpha"]
		if !ok || math.Abs((w[0]-w[1])-2*0.5*perUnit) > 0.02 || math.Abs(w[0]-(zero-1.5*perUnit)) > 0.02 {
			t.Errorf("Alpha's whisker %v, want 2 ± 0.5 on the axis", w)
		}
		if _, ok := whiskers["Beta"]; ok {
			t.Error("Beta has one seed and no spread, but a whisker")
		}
	}
}

// The policies' names never run into each other: names too wide for
// their group are slanted and cut, the full name in a tooltip; a sweep
// is not drawn as bars.
func TestBarChartLabels(t *testing.T) {
	doc := strings.ReplaceAll(barsScenario, `"Gamma"`, `"Gamma (a policy with a very long name)"`)
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	values := []results.ValueRepro{{Policy: "Alpha", Metric: "avg_jct_s", Group: "all", Mean: ptr(2)}}
	wide, narrow := app.BarChart(sc, values, false), app.BarChart(sc, values, true)
	if !strings.Contains(narrow, "<title>Gamma (a policy with a very long name)</title>") || strings.Contains(narrow, ">Gamma (a policy with a very long name)<title>") {
		t.Error("the long name is not cut with its full name in a tooltip")
	}
	if !strings.Contains(narrow, `class="label"`) || !strings.Contains(narrow, "rotate(-45") {
		t.Error("at a phone's width, names wider than their group are not slanted")
	}
	if !strings.Contains(wide, "<title>Gamma (a policy with a very long name)</title>") {
		t.Error("at a desktop's width, the long name is not cut with its full name in a tooltip")
	}
	short, err := scenario.Parse([]byte(barsScenario))
	if err != nil {
		t.Fatal(err)
	}
	if svg := app.BarChart(short, values, false); strings.Contains(svg, "rotate(-45") || strings.Contains(svg, "<title>Alpha</title>") {
		t.Error("at a desktop's width, four short names fit side by side but are slanted or cut")
	}
	sc.Sweep = &scenario.Sweep{Label: "load", Values: []float64{1, 2}}
	if svg := app.BarChart(sc, values, false); svg != "" {
		t.Error("a sweep drawn as bars")
	}
}

// A figure without a sweep re-run here is drawn from the run's own
// values as they come in, as the record draws it: SJF-BCO Fig. 4 as a bar
// of ours per policy, SJF-BSBF Fig. 4 (its checks read JCT percentiles)
// as a CDF, not as bars.
func TestRunWithoutSweepDrawsItsFigure(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two quick figures")
	}
	for _, c := range []struct{ name, id string }{{"sjfbco-fig4", "figure-bars"}, {"sjf-bsbf-fig4", "figure-cdf"}} {
		b := apptest.New(t)
		// One worker takes the checks' evaluation before each next run,
		// so what is drawn midway does not hang on which of two workers
		// is faster (with two, a quick worker could finish every run
		// while the other still evaluates the first).
		b.NCores = 1
		a := app.New(b)
		a.OpenFigure(c.name) // no record: it runs here
		if a.Fig == nil || a.Fig.Record {
			t.Fatalf("%s: no run here", c.name)
		}
		// The bars grow as the runs come in, before the last is done.
		b.Pump(a, func() bool { return !a.FigureRunning() || a.FigureChart() != "" })
		if !a.FigureRunning() {
			t.Errorf("%s: nothing drawn before the run was done", c.name)
		}
		b.Pump(a, func() bool { return !a.FigureRunning() })
		if a.Fig.State != app.RunDone {
			t.Fatalf("%s: %s (%s)", c.name, a.Fig.State, a.Fig.Err)
		}
		svg := a.FigureChart()
		if !strings.Contains(svg, `id="`+c.id+`"`) {
			t.Errorf("%s after a run: no #%s in %.200s", c.name, c.id, svg)
			continue
		}
		if c.id == "figure-bars" {
			data, _ := scenarios.Read(c.name)
			sc, err := scenario.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(svg, `<rect class="bar ours"`); got != len(sc.Policies) {
				t.Errorf("%s: %d bars of ours, %d policies", c.name, got, len(sc.Policies))
			}
		} else if strings.Contains(svg, `class="bar`) || !a.FigureIsCDF() {
			t.Errorf("%s: drawn as bars, not as a CDF", c.name)
		}
	}
}

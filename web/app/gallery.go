package app

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Card is a gallery card: a built-in scenario as the gallery shows it.
type Card struct {
	Name, Title string
	// Summary is two lines for a student; Claim the paper's claim the
	// figure checks ("" for a teaching preset).
	Summary, Claim string
	Paper          string // a Papers key; "" for a teaching preset
	Figure         bool   // a paper figure: it has checks to reproduce
	// Compare marks a cross-paper comparison (tag "compare"): policies of
	// several papers on one trace, cluster and perf model, which no paper
	// ran; its Claim is what we found, not a paper's claim.
	Compare bool
	Curve   bool // it sweeps a value (its figure is a curve)
	Tags    []string
	Default bool
	// Thumb is a small SVG of the paper's reported numbers, "" if none;
	// thumbURL its object URL once shown (an image costs the page less to
	// draw than inline SVG).
	Thumb    string
	thumbURL string
}

// ThumbURL is the object URL of a card's thumbnail, made when first shown.
func (a *App) ThumbURL(c *Card) string {
	if c.thumbURL == "" && c.Thumb != "" {
		c.thumbURL = a.P.BlobURL([]byte(c.Thumb), "image/svg+xml")
	}
	return c.thumbURL
}

// GallerySection is a heading of the gallery and its cards.
type GallerySection struct {
	Key, Title, About string
	Cards             []*Card
}

// Gallery filters: "" shows every card.
const (
	FilterCurves   = "curves"
	FilterTables   = "tables"
	FilterTeaching = "teaching"
	FilterCompare  = "compare"
)

// compareTag marks the cross-paper comparisons among the built-in
// scenarios (reproduce.Compare).
const compareTag = "compare"

// newCard describes a built-in scenario for the gallery.
func newCard(name string, sc *scenario.Scenario) *Card {
	c := &Card{Name: name, Title: sc.Title, Tags: sc.Tags, Default: false, Curve: sc.Sweep != nil}
	for _, t := range sc.Tags {
		if p, ok := strings.CutPrefix(t, "paper:"); ok {
			c.Paper = p
		}
	}
	c.Figure = c.Paper != "" && len(sc.Checks) > 0
	if !c.Figure {
		c.Paper = ""
	}
	c.Compare = !c.Figure && hasTag(sc.Tags, compareTag)
	if t, ok := cardTexts[name]; ok {
		c.Summary, c.Claim = t.summary, t.claim
	} else {
		c.Summary = firstSentence(sc.Description)
	}
	if c.Claim == "" && c.Figure {
		c.Claim = sc.Checks[0].Description
	}
	c.Thumb = thumbnail(sc)
	if c.Thumb == "" && (c.Figure || c.Compare) {
		c.Thumb = glyph(c.Curve)
	}
	return c
}

// glyph is a grey sketch of a curve or of bars, for a figure whose paper
// reports no numbers to draw: it tells the kind of figure, not its data.
func glyph(curve bool) string {
	const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 56" class="chart glyph" aria-hidden="true">` +
		`<path d="M6 4V52H156" fill="none" stroke="#c5ccd6" stroke-width="1.5"/>`
	if curve {
		return head + `<path d="M10 44L50 40L90 34L120 24L150 8" fill="none" stroke="#aab3bf" stroke-width="2"/>` +
			`<path d="M10 46L50 45L90 43L120 40L150 34" fill="none" stroke="#c5ccd6" stroke-width="2"/></svg>`
	}
	return head + `<rect x="16" y="20" width="18" height="32" fill="#c5ccd6"/><rect x="46" y="30" width="18" height="22" fill="#aab3bf"/>` +
		`<rect x="76" y="12" width="18" height="40" fill="#c5ccd6"/><rect x="106" y="36" width="18" height="16" fill="#aab3bf"/></svg>`
}

// firstSentence is the text up to the first full stop and space.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return s
}

// thumbnail draws the paper's reported curve as a sparkline: the sweep
// metric of each policy against the swept value, or, for a single-point
// figure, its reported values as a row of bars; "" when the paper reports
// no numbers for it.
func thumbnail(sc *scenario.Scenario) string {
	if sc.Reference == nil || len(sc.Reference.Values) == 0 {
		return ""
	}
	if sc.Sweep != nil {
		metric, group := "avg_jct_s", "all"
		if sc.Sweep.Metric != "" {
			metric = sc.Sweep.Metric
		}
		if sc.Sweep.Group != "" {
			group = sc.Sweep.Group
		}
		var series []ChartSeries
		at := map[string]int{}
		for _, v := range sc.Reference.Values {
			g := v.Group
			if g == "" {
				g = "all"
			}
			if v.X == nil || v.Metric != metric || g != group {
				continue
			}
			i, ok := at[v.Policy]
			if !ok {
				i = len(series)
				at[v.Policy] = i
				series = append(series, ChartSeries{Name: v.Policy, Color: seriesColor(policyIndex(sc, v.Policy))})
			}
			y := v.Value
			series[i].X = append(series[i].X, *v.X)
			series[i].Y = append(series[i].Y, &y)
		}
		if s := lineChart(chartBox{w: 160, h: 56, top: 4, bottom: 4}, series, "", "", ""); s != "" {
			return s
		}
	}
	return bars(sc)
}

// bars draws the first reported metric's values as bars, coloured by
// policy.
func bars(sc *scenario.Scenario) string {
	metric := sc.Reference.Values[0].Metric
	var vals []float64
	var colors []string
	for _, v := range sc.Reference.Values {
		if v.Metric != metric || len(vals) == 10 {
			continue
		}
		vals = append(vals, v.Value)
		colors = append(colors, seriesColor(policyIndex(sc, v.Policy)))
	}
	top := 0.0
	for _, v := range vals {
		top = math.Max(top, v)
	}
	if top <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 56" class="chart" aria-hidden="true">`)
	w := 150 / float64(len(vals))
	for i, v := range vals {
		h := 50 * v / top
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, 5+float64(i)*w+1, 53-h, w-2, h, colors[i])
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// policyIndex is the index of the policy labelled label, for its colour.
func policyIndex(sc *scenario.Scenario, label string) int {
	for i := range sc.Policies {
		if sc.PolicyLabel(i) == label {
			return i
		}
	}
	return len(sc.Policies)
}

// SetGalleryFilter shows only the cards of one kind ("" for all).
func (a *App) SetGalleryFilter(f string) { a.GalleryFilter = f }

// shown reports whether a card passes the gallery's filter.
func (a *App) shown(c *Card) bool {
	switch a.GalleryFilter {
	case FilterCurves:
		return c.Figure && c.Curve
	case FilterTables:
		return c.Figure && !c.Curve
	case FilterTeaching:
		return (!c.Figure && !c.Compare) || hasTag(c.Tags, "teaching")
	case FilterCompare:
		return c.Compare
	case "":
		return true
	}
	return c.Paper == a.GalleryFilter
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

// FigureSections are the paper figures, one section per paper, filtered.
func (a *App) FigureSections() []GallerySection {
	var out []GallerySection
	for _, p := range Papers {
		s := GallerySection{Key: p.Key, Title: p.Name, About: p.About}
		for _, c := range a.Cards {
			if c.Figure && c.Paper == p.Key && a.shown(c) {
				s.Cards = append(s.Cards, c)
			}
		}
		if len(s.Cards) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// CompareCards are the cross-paper comparisons, filtered: a section of
// their own, apart from the papers' figures and the teaching presets.
func (a *App) CompareCards() []*Card {
	var out []*Card
	for _, c := range a.Cards {
		if c.Compare && a.shown(c) && (a.GalleryFilter == "" || a.GalleryFilter == FilterCompare) {
			out = append(out, c)
		}
	}
	return out
}

// IsComparison reports whether the scenario named name is a cross-paper
// comparison, whose checks are our findings rather than a paper's claims.
func (a *App) IsComparison(name string) bool {
	for _, c := range a.Cards {
		if c.Name == name {
			return c.Compare
		}
	}
	return false
}

// TeachingCards are the teaching presets (scenarios without checks),
// filtered; the Learn path's scenarios (tag "lesson") are in its lessons.
func (a *App) TeachingCards() []*Card {
	var out []*Card
	for _, c := range a.Cards {
		if !c.Figure && !c.Compare && !hasTag(c.Tags, "lesson") && a.shown(c) && (a.GalleryFilter == "" || a.GalleryFilter == FilterTeaching) {
			out = append(out, c)
		}
	}
	return out
}

// Badge is a figure's verdict in the committed record, counted as the
// figure view and REPRODUCTION.md count it (RecordSummary), e.g. "7 of 8
// claims hold", and whether none fails; "not yet run" without it.
func (a *App) Badge(name string) (text string, all bool) {
	if a.RecordReading() {
		return BadgeLoading, false
	}
	f := a.RecordFigure(name)
	if f == nil {
		return BadgeNotRun, false
	}
	return RecordSummary(*f, a.Repro.Quick)
}

// Badge texts of a figure without a verdict.
const (
	BadgeNotRun  = "not yet run"
	BadgeLoading = "loading the results…"
)

// SetReproduction reads the committed reproduction report (report.json);
// the page fetches it beside itself (ReadRecord). A report that cannot be
// read leaves the badges at "not yet run".
func (a *App) SetReproduction(data []byte) {
	defer a.recordRead()
	var r results.Reproduction
	if err := json.Unmarshal(data, &r); err != nil {
		a.P.Report("report.json: " + err.Error())
		return
	}
	a.Repro = &r
}

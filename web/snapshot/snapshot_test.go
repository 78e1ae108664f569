package snapshot

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/vugu/html"
	"github.com/vugu/html/atom"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/prebuild"
)

// drawn is the first screen of the default scenario, as build/site draws
// it, with its figures named by screen width and order.
func drawn(t *testing.T) (attrs, content string) {
	t.Helper()
	var pages []*app.App
	for _, w := range []int{prebuild.DesktopWidth, prebuild.PhoneWidth} {
		preview, err := prebuild.At(w)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		a, stored, err := prebuild.Shown(preview, w, func(_ []byte, mime string) string {
			n++
			return fmt.Sprintf("fig-%d-%d.png", w, n)
		})
		if err != nil {
			t.Fatal(err)
		}
		if stored[app.KeyScenario] == "" {
			t.Error("the page stored no scenario")
		}
		pages = append(pages, a)
	}
	attrs, content, err := Draw(pages[0], pages[1])
	if err != nil {
		t.Fatal(err)
	}
	return attrs, content
}

// The first screen is the results view with the build-time results: their
// label, metrics, figures for both widths (the phone's in a picture's
// source) and Gantt charts for both; every control disabled; the run's
// progress line left to the download's; nothing the page would fill in
// from its engine.
func TestDraw(t *testing.T) {
	attrs, content := drawn(t)
	if !strings.Contains(attrs, `class="app"`) || !strings.Contains(attrs, Marker) {
		t.Errorf("the root's attributes are %q", attrs)
	}
	for _, want := range []string{
		`id="built"`, "Computed when this site was built", `data-source="build"`, `id="metrics"`,
		`id="` + BootID + `"`, `<source media="` + PhoneMedia + `" srcset="fig-390-3.png"/><img alt="Job completion times (CDF)" id="plot-jct_cdf" src="fig-1280-3.png"/>`,
		`id="plot-queue_by_model" src="fig-1280-4.png"`, `class="snap-wide"><svg`, `class="snap-narrow"><svg`,
		`<img alt="GPU allocation: FIFO" id="plot-gantt-fifo"/>`, // in closed details: not fetched
	} {
		if !strings.Contains(content, want) {
			t.Errorf("the first screen lacks %q", want)
		}
	}
	for _, bad := range []string{"blob:", "Drawing the chart", "waiting for a worker", "fig-1280-1.png", "fig-390-1.png"} {
		if strings.Contains(content, bad) {
			t.Errorf("the first screen has %q", bad)
		}
	}
	controls := regexp.MustCompile(`<(button|input|select|textarea)\b[^>]*>`).FindAllString(content, -1)
	if len(controls) < 10 {
		t.Errorf("only %d controls drawn", len(controls))
	}
	for _, c := range controls {
		if !regexp.MustCompile(`\sdisabled[\s=/>]`).MatchString(c) {
			t.Errorf("a control is not disabled: %s", c)
		}
	}
}

// A browser reads the first screen into the nodes it was drawn as (no
// element moved or closed by the parser, no text joined): the page, when
// it starts, reuses the nodes it finds in its own order, and replaces any
// other. Each empty comment stands for a text node of the page's.
func TestDrawParsesAsDrawn(t *testing.T) {
	_, content := drawn(t)
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(content), ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, n := range nodes {
		if err := html.Render(&b, n); err != nil {
			t.Fatal(err)
		}
	}
	if b.String() != content {
		i := 0
		for i < len(content) && i < b.Len() && content[i] == b.String()[i] {
			i++
		}
		t.Fatalf("read back, the first screen differs at byte %d: %q against %q", i, b.String()[i:min(b.Len(), i+80)], content[i:min(len(content), i+80)])
	}
	texts := 0
	for _, n := range nodes {
		walk(n, func(n *html.Node) {
			for c := n.FirstChild; c != nil && c.NextSibling != nil; c = c.NextSibling {
				if c.Type == html.TextNode && c.NextSibling.Type == html.TextNode {
					texts++
				}
			}
		})
	}
	if texts > 0 || strings.Count(content, "<!---->") < 10 {
		t.Errorf("%d text nodes side by side, %d empty comments", texts, strings.Count(content, "<!---->"))
	}
}

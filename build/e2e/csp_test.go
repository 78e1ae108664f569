//go:build !js

package e2e

import (
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// cspViolationsJS records the page's Content-Security-Policy violations.
const cspViolationsJS = `window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(e.violatedDirective + " " + e.blockedURI));`

// The page runs under its Content-Security-Policy (no inline script, no
// eval): the default scenario runs and draws, a figure downloads, and
// nothing is blocked.
func TestCSP(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 3*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspViolationsJS}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	csp := eval[string](p, `(document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {content: ""}).content`)
	for _, want := range []string{"script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the page's CSP %q lacks %q", csp, want)
		}
	}
	script, _, _ := strings.Cut(strings.SplitN(csp+"script-src", "script-src", 2)[1], ";")
	for _, src := range strings.Fields(script) {
		if src == "'unsafe-inline'" || src == "'unsafe-eval'" || src == "*" || src == "data:" || src == "blob:" {
			t.Errorf("the CSP allows %s scripts: %q", src, csp)
		}
	}
	if n := eval[int](p, `[...document.scripts].filter((s) => !s.src).length`); n != 0 {
		t.Errorf("%d inline scripts", n)
	}
	if len(p.metrics()) != 2 {
		t.Error("no metrics")
	}
	// The figures are blob: images, and a click on a tab still works.
	if !eval[bool](p, `document.getElementById("plot-jct_cdf").src.startsWith("blob:")`) {
		t.Error("the CDF is not a blob: image")
	}
	p.click("tab-timeline")
	p.wait(`!!document.getElementById("gpu-grid")`, statusJS, 10*time.Second)
	// An inline script, were there one, would be refused: the policy is
	// in force.
	eval[any](p, `(() => { const s = document.createElement("script"); s.textContent = "window.inlineRan = true"; document.body.appendChild(s); s.remove(); })()`)
	if eval[bool](p, `window.inlineRan === true`) {
		t.Error("an inline script ran: the CSP is not enforced")
	}
	v := eval[[]string](p, `window.cspViolations`)
	if len(v) != 1 || !strings.HasPrefix(v[0], "script-src") {
		t.Errorf("violations: %q, want only the test's own inline script", v)
	}
	var rest []string
	for _, e := range errs() {
		if !strings.Contains(e, "Content Security Policy") || !strings.Contains(e, "inline script") {
			rest = append(rest, e)
		}
	}
	if len(rest) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(rest, "\n"))
	}
}

package reproduce

import (
	"regexp"
	"strings"
	"testing"
)

// The regular expressions figureInHead and figureInTitle stand for.
var (
	figureHeadRe  = regexp.MustCompile(`(Figures?|Figs?\.|Tables?|Theorem|§)\s*[^:]*`)
	figureTitleRe = regexp.MustCompile(`(Figure|Fig\.|Table) [0-9IVX]+(\([a-z]\))?`)
)

// checkFigureMatchers compares the hand-written matchers with the
// regular expressions on one title.
func checkFigureMatchers(t *testing.T, title string) {
	t.Helper()
	head, _, _ := strings.Cut(title, ":")
	if got, want := figureInHead(head), figureHeadRe.FindString(head); got != want {
		t.Errorf("figureInHead(%q) = %q, the expression finds %q", head, got, want)
	}
	if got, want := figureInTitle(title), figureTitleRe.FindString(title); got != want {
		t.Errorf("figureInTitle(%q) = %q, the expression finds %q", title, got, want)
	}
}

// TestFigureMatchersAsRegexps: every built-in scenario's title, and
// titles made to reach each branch, match as the expressions do.
func TestFigureMatchersAsRegexps(t *testing.T) {
	for _, e := range builtIn(t) {
		checkFigureMatchers(t, e.Scenario.Title)
	}
	for _, title := range []string{
		"", "Figure", "Figures 5 and 6: x", "Figs. 5, 6 and 8: y", "Fig 3: no dot", "Fight: no figure",
		"Tables 1-2: t", "Theorem 2: bound", "OJPP §4: plan", "a: Fig. 2, two rings", "a: Figure IVX(b) then",
		"a: Figure 12(B)", "a: Figure 3(", "a: Figure 3(a", "a: Table  4", "a: Fig.  2", "x Table 7(c)",
		"Figure x Figure 9(z)", "Table Fig. 3", "Fig. Figure 2(a)(b)", "§§: Theorem", "\xc2§ Fig. 1",
	} {
		checkFigureMatchers(t, title)
	}
}

func FuzzFigureMatchers(f *testing.F) {
	for _, s := range []string{"Gavel Figure 8: LAS", "a: Fig. 6(a) b", "Table III and Fig. 5: c", "§4: d"} {
		f.Add(s)
	}
	f.Fuzz(checkFigureMatchers)
}

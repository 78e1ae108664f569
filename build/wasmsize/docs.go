package wasmsize

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// DocFile holds the table of sizes, between BeginTable and EndTable.
const DocFile = "docs/development.md"

// The markers around the generated table (HTML comments, invisible on
// GitHub).
const (
	BeginTable = "<!-- sizes: written by make sizes from the builds; build/wasmsize's test checks them -->"
	EndTable   = "<!-- end of sizes -->"
)

// Tolerance is how far a figure in the docs may be from the build's, as
// a fraction of it, before the test says to run make sizes: small
// changes to the code leave the docs true.
const Tolerance = 0.02

// Measured is a module with its sizes.
type Measured struct {
	Module
	Sizes
}

// Table is the Markdown table of the modules' sizes and budgets.
func Table(ms []Measured) string {
	var b strings.Builder
	b.WriteString("| module | what it is | raw | gzip -9 | brotli 6 | as it travels | its budget |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, m := range ms {
		served := mb(m.Brotli) + " brotli"
		if m.Served == Gzip {
			served = mb(m.Gzip6) + " gzip -6"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", m.File, m.What, mb(m.Raw), mb(m.Gzip), mb(m.Brotli), served, mb(m.Budget))
	}
	return b.String()
}

// mb writes bytes as megabytes with two decimals.
func mb(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/MB) }

// Splice puts table between the markers of doc.
func Splice(doc, table string) (string, error) {
	begin := strings.Index(doc, BeginTable)
	end := strings.Index(doc, EndTable)
	if begin < 0 || end < begin {
		return "", fmt.Errorf("%s has no %q ... %q section", DocFile, BeginTable, EndTable)
	}
	return doc[:begin+len(BeginTable)] + "\n" + table + doc[end:], nil
}

// number is a figure in a table cell.
var number = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)

// Check compares the table in doc with the one the builds give: the same
// rows and words, and every figure within Tolerance of the build's. It
// returns what differs, one line each.
func Check(doc string, ms []Measured) []string {
	begin := strings.Index(doc, BeginTable)
	end := strings.Index(doc, EndTable)
	if begin < 0 || end < begin {
		return []string{fmt.Sprintf("%s has no table of sizes between %q and %q", DocFile, BeginTable, EndTable)}
	}
	got := strings.Split(strings.TrimSpace(doc[begin+len(BeginTable):end]), "\n")
	want := strings.Split(strings.TrimSpace(Table(ms)), "\n")
	if len(got) != len(want) {
		return []string{fmt.Sprintf("the table has %d lines, the builds give %d", len(got), len(want))}
	}
	var out []string
	for i := range want {
		if msg := compareLine(got[i], want[i]); msg != "" {
			out = append(out, msg)
		}
	}
	return out
}

// compareLine compares two lines of the table: their words exactly, and
// their figures within Tolerance but for the budget's, which must be
// exact.
func compareLine(got, want string) string {
	differ := fmt.Sprintf("the docs say\n\t%s\nthe builds give\n\t%s", got, want)
	if number.ReplaceAllString(got, "#") != number.ReplaceAllString(want, "#") {
		return differ
	}
	g, w := strings.Split(got, "|"), strings.Split(want, "|")
	budget := len(w) - 2 // the last cell; the line ends in "|"
	if g[budget] != w[budget] {
		return differ
	}
	gn, wn := number.FindAllString(got, -1), number.FindAllString(want, -1)
	for k := range wn {
		gv, _ := strconv.ParseFloat(gn[k], 64)
		wv, _ := strconv.ParseFloat(wn[k], 64)
		if math.Abs(gv-wv) > Tolerance*wv {
			return fmt.Sprintf("the docs say %s where the builds give %s, more than %.0f%% apart:\n\t%s\n\t%s", gn[k], wn[k], 100*Tolerance, got, want)
		}
	}
	return ""
}

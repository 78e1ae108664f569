package reproduce

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
)

// Numbers in prose come from the record. Each quote below is a number
// that docs/*.md or a scenario's description states about our results;
// the test reads it from the committed record (reproduction/report.json),
// prints it as the prose does and fails when the prose says otherwise.
// Whoever writes a result into prose adds its quote here; when `make
// reproduce` changes a number, this test names every sentence to update.
//
// A quote is the file ("docs/x.md", or "scenarios/NAME.json" for that
// scenario's description), the text with {} where the number stands, the
// number's source in the record and how it is printed:
//
//	value SCENARIO|POLICY|METRIC|GROUP|X   a value's mean (X "" without a sweep)
//	ratio SCENARIO|NUM|DEN|METRIC|GROUP|X  the ratio of two policies' means
//	check SCENARIO|ID|ours (or paper)      a check's number
//	figures                                how many figures the record has
//	claims PAPER                           how many claims a paper has
//	wall-min / cpu-s                       the record's time
//
// and the format: a fmt verb, after "pct:" multiplied by 100, after
// "change:" (x − 1) × 100, after "sep:" with thousands separators. A text
// with several {} takes as many sources, separated by "; ", and one
// format for all or one each.
type quote struct {
	file, text, source, format string
}

var quotes = []quote{
	{"docs/papers.md", "the full record over all {} figures", "figures", "%.0f"},
}

func TestProseQuotesTheRecord(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "reproduction", "report.json"))
	if err != nil {
		t.Fatalf("%v (run make reproduce)", err)
	}
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, q := range quotes {
		text, ok := texts[q.file]
		if !ok {
			text, err = proseOf(q.file)
			if err != nil {
				t.Fatal(err)
			}
			texts[q.file] = text
		}
		want, err := renderQuote(rep, q)
		if err != nil {
			t.Errorf("%s: %q: %v", q.file, q.text, err)
			continue
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s should say %q (from the record: %s); the prose is stale or the quote moved", q.file, want, q.source)
		}
	}
}

// renderQuote is a quote's text with the record's numbers in it.
func renderQuote(rep results.Reproduction, q quote) (string, error) {
	sources := strings.Split(q.source, "; ")
	formats := strings.Split(q.format, "; ")
	if strings.Count(q.text, "{}") != len(sources) || (len(formats) != 1 && len(formats) != len(sources)) {
		return "", fmt.Errorf("%d {} for %d sources and %d formats", strings.Count(q.text, "{}"), len(sources), len(formats))
	}
	out := q.text
	for i, src := range sources {
		x, err := fromRecord(rep, src)
		if err != nil {
			return "", err
		}
		out = strings.Replace(out, "{}", formatQuote(formats[min(i, len(formats)-1)], x), 1)
	}
	return out, nil
}

// proseOf is a doc's text, or a scenario's description.
func proseOf(file string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		return "", err
	}
	if !strings.HasSuffix(file, ".json") {
		return strings.Join(strings.Fields(string(data)), " "), nil
	}
	var sc struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(data, &sc); err != nil {
		return "", fmt.Errorf("%s: %v", file, err)
	}
	return sc.Description, nil
}

// fromRecord reads a quote's number from the record.
func fromRecord(rep results.Reproduction, source string) (float64, error) {
	kind, arg, _ := strings.Cut(source, " ")
	f := strings.Split(arg, "|")
	figure := func(name string) (*results.FigureRepro, error) {
		for pi := range rep.Papers {
			for fi := range rep.Papers[pi].Figures {
				if fig := &rep.Papers[pi].Figures[fi]; fig.Scenario == name {
					return fig, nil
				}
			}
		}
		return nil, fmt.Errorf("no figure %s in the record", name)
	}
	value := func(fig *results.FigureRepro, policy, metric, group, x string) (float64, error) {
		for _, v := range fig.Values {
			vx := ""
			if v.X != nil {
				vx = strconv.FormatFloat(*v.X, 'g', -1, 64)
			}
			if v.Policy == policy && v.Metric == metric && v.Group == group && vx == x {
				if v.Mean == nil {
					return 0, fmt.Errorf("%s %s has no value (%s)", policy, metric, v.Error)
				}
				return *v.Mean, nil
			}
		}
		return 0, fmt.Errorf("no value %s %s %s at %q in %s", policy, metric, group, x, fig.Scenario)
	}
	switch kind {
	case "figures":
		n := 0
		for _, p := range rep.Papers {
			n += len(p.Figures)
		}
		return float64(n), nil
	case "claims":
		for _, p := range rep.Papers {
			if p.Paper == arg {
				return float64(Count(p.Figures...).Claims), nil
			}
		}
		return 0, fmt.Errorf("no paper %s", arg)
	case "wall-min":
		if rep.Run == nil {
			return 0, fmt.Errorf("the record has no run time")
		}
		return rep.Run.WallS / 60, nil
	case "cpu-s":
		if rep.Run == nil {
			return 0, fmt.Errorf("the record has no run time")
		}
		return rep.Run.CPUS, nil
	case "value":
		if len(f) != 5 {
			return 0, fmt.Errorf("value needs SCENARIO|POLICY|METRIC|GROUP|X")
		}
		fig, err := figure(f[0])
		if err != nil {
			return 0, err
		}
		return value(fig, f[1], f[2], f[3], f[4])
	case "ratio":
		if len(f) != 6 {
			return 0, fmt.Errorf("ratio needs SCENARIO|NUM|DEN|METRIC|GROUP|X")
		}
		fig, err := figure(f[0])
		if err != nil {
			return 0, err
		}
		n, err := value(fig, f[1], f[3], f[4], f[5])
		if err != nil {
			return 0, err
		}
		d, err := value(fig, f[2], f[3], f[4], f[5])
		if err != nil {
			return 0, err
		}
		return n / d, nil
	case "check":
		if len(f) != 3 {
			return 0, fmt.Errorf("check needs SCENARIO|ID|ours or paper")
		}
		fig, err := figure(f[0])
		if err != nil {
			return 0, err
		}
		for _, c := range fig.Checks {
			if c.ID != f[1] {
				continue
			}
			x := c.Ours
			if f[2] == "paper" {
				x = c.Paper
			}
			if x == nil {
				return 0, fmt.Errorf("check %s has no %s number", c.ID, f[2])
			}
			return *x, nil
		}
		return 0, fmt.Errorf("no check %s in %s", f[1], f[0])
	}
	return 0, fmt.Errorf("unknown source %q", source)
}

// formatQuote prints x as the prose does.
func formatQuote(format string, x float64) string {
	sep := false
	for {
		switch {
		case strings.HasPrefix(format, "pct:"):
			x, format = 100*x, strings.TrimPrefix(format, "pct:")
			continue
		case strings.HasPrefix(format, "change:"):
			x, format = 100*(x-1), strings.TrimPrefix(format, "change:")
			continue
		case strings.HasPrefix(format, "sep:"):
			sep, format = true, strings.TrimPrefix(format, "sep:")
			continue
		}
		break
	}
	s := fmt.Sprintf(format, x)
	if s == "-0" {
		s = "0"
	}
	if sep && math.Abs(x) >= 1000 {
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		whole, frac, _ := strings.Cut(s, ".")
		var b strings.Builder
		for i, r := range whole {
			if i > 0 && (len(whole)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(r)
		}
		s = b.String()
		if frac != "" {
			s += "." + frac
		}
		if neg {
			s = "-" + s
		}
	}
	return s
}

// The quote check can fail: a number the record does not give, a quote
// whose source is unknown, and the formats by hand.
func TestQuoteFormats(t *testing.T) {
	for _, tc := range []struct {
		format string
		x      float64
		want   string
	}{
		{"%.1f", 2.345, "2.3"}, {"pct:%.0f", 0.462, "46"}, {"change:%+.0f", 0.88, "-12"},
		{"sep:%.0f", 6500.4, "6,500"}, {"sep:%.0f", 22701, "22,701"}, {"change:%.0f", 1.0001, "0"},
	} {
		if got := formatQuote(tc.format, tc.x); got != tc.want {
			t.Errorf("%s of %g: %q, want %q", tc.format, tc.x, got, tc.want)
		}
	}
	x := 2.0
	rep := results.Reproduction{Papers: []results.PaperRepro{{Paper: "p", Figures: []results.FigureRepro{{Scenario: "s",
		Values: []results.ValueRepro{{Policy: "A", Metric: "m", Group: "all", Mean: &x}}}}}}}
	if v, err := fromRecord(rep, "value s|A|m|all|"); err != nil || v != 2 {
		t.Errorf("value: %v %v", v, err)
	}
	if _, err := fromRecord(rep, "value s|B|m|all|"); err == nil {
		t.Error("a value the record lacks was found")
	}
	if _, err := fromRecord(rep, "median s"); err == nil {
		t.Error("an unknown source was accepted")
	}
	got, err := renderQuote(rep, quote{text: "A {} and {}%", source: "value s|A|m|all|; figures", format: "%.1f; pct:%.0f"})
	if err != nil || got != "A 2.0 and 100%" {
		t.Errorf("two numbers: %q %v", got, err)
	}
	if _, err := renderQuote(rep, quote{text: "A {} and {}", source: "figures", format: "%.0f"}); err == nil {
		t.Error("two {} with one source were accepted")
	}
}

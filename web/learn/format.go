package learn

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
)

// dur writes a duration in seconds as the page does ("26.6 min", "1.30 h").
func dur(s float64) string { return results.Duration(s) }

// about writes a duration in words for prose: "30 minutes", "2.5 hours".
func about(s float64) string {
	switch m := s / 60; {
	case m < 1.5:
		return "a minute"
	case m < 100:
		return fmt.Sprintf("%.0f minutes", m)
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", s/3600), ".0") + " hours"
}

// pct writes a fraction as a whole percentage: 0.473 is "47 %".
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%.0f %%", 100*x)
}

// num writes a number without needless decimals: 4, 17.5, 0.25.
func num(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
}

// change says how b compares with a: "47 % lower", "12 % higher", "the same".
func change(a, b float64) string {
	if a == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return "–"
	}
	d := (a - b) / a
	switch {
	case math.Abs(d) < 0.005:
		return "the same"
	case d > 0:
		return pct(d) + " lower"
	}
	return pct(-d) + " higher"
}

// plural writes "1 job", "3 jobs".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// fill replaces each {key} in s by facts[key].
func fill(s string, facts map[string]string) string {
	if len(facts) == 0 || !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		key := s[i+1 : i+j]
		v, ok := facts[key]
		if !ok {
			v = s[i : i+j+1]
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

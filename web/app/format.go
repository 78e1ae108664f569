package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Duration prints seconds for people: "45 s", "12.5 min", "3.20 h", "2.1 d".
func Duration(s float64) string {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return "–"
	case math.Abs(s) >= 2*86400:
		return fmt.Sprintf("%.1f d", s/86400)
	case math.Abs(s) >= 3600:
		return fmt.Sprintf("%.2f h", s/3600)
	case math.Abs(s) >= 120:
		return fmt.Sprintf("%.1f min", s/60)
	case math.Abs(s) >= 10:
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}

// Percent prints a fraction as a percentage.
func Percent(x float64) string { return fmt.Sprintf("%.1f %%", 100*x) }

// group prints an integer with thin-space thousands separators.
func group(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(",")
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Group is group for templates.
func Group(n int) string { return group(n) }

// plural prints "1 job", "3 jobs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") && !strings.HasSuffix(noun, "ay") {
		return group(n) + " " + noun[:len(noun)-1] + "ies"
	}
	return group(n) + " " + noun + "s"
}

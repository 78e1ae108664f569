package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Durations are written in one of three ways, each for one use:
//
//   - Duration, for people reading prose or a page: the results and
//     timeline views and the policies' decision logs ("45 s", "12.5 min",
//     "3.20 h", "2.1 d").
//   - DurationShort, for the fixed-width columns of the command line's
//     report table ("95s", "12.5m", "3.20h").
//   - DurationExact, for error messages that name a simulated instant:
//     the exact seconds first, then a readable unit ("7200s (2.0 h)").

// Duration writes seconds for people: "4.5 s", "45 s", "12.5 min",
// "3.20 h", "2.1 d"; "–" for a value that is not a number.
func Duration(s float64) string {
	switch a := math.Abs(s); {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return "–"
	case a >= 2*86400:
		return fmt.Sprintf("%.1f d", s/86400)
	case a >= 3600:
		return fmt.Sprintf("%.2f h", s/3600)
	case a >= 120:
		return fmt.Sprintf("%.1f min", s/60)
	case a >= 10:
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}

// DurationShort writes seconds compactly for table columns: 95s, 12.5m,
// 3.20h.
func DurationShort(s float64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.2fh", s/3600)
	case s >= 600:
		return fmt.Sprintf("%.1fm", s/60)
	}
	return fmt.Sprintf("%.0fs", s)
}

// DurationExact writes seconds exactly, with a readable larger unit when
// long: "42.5s", "7200s (2.0 h)", "172800s (2.0 days)".
func DurationExact(s float64) string {
	switch {
	case s >= 86400:
		return fmt.Sprintf("%.0fs (%.1f days)", s, s/86400)
	case s >= 3600:
		return fmt.Sprintf("%.0fs (%.1f h)", s, s/3600)
	}
	return fmt.Sprintf("%.6gs", s)
}

// Percent writes a fraction as a percentage: 0.953 is "95.3 %".
func Percent(x float64) string { return fmt.Sprintf("%.1f %%", 100*x) }

// Thousands writes an integer with commas between thousands: "12,345".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Num writes a number for CSV files: ten significant digits, enough to
// recompute every metric and short enough to read.
func Num(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

package results

import (
	"math"
	"testing"
)

// The expected strings are what each use printed before the formatters
// were shared: the page's and the decision logs' Duration, the command
// line table's DurationShort, the engine errors' DurationExact.
func TestDurations(t *testing.T) {
	cases := []struct {
		s                   float64
		human, short, exact string
	}{
		{0, "0.0 s", "0s", "0s"},
		{4.5, "4.5 s", "4s", "4.5s"},
		{42, "42 s", "42s", "42s"},
		{119.4, "119 s", "119s", "119.4s"},
		{120, "2.0 min", "120s", "120s"},
		{599, "10.0 min", "599s", "599s"},
		{750, "12.5 min", "12.5m", "750s"},
		{3600, "1.00 h", "1.00h", "3600s (1.0 h)"},
		{11520, "3.20 h", "3.20h", "11520s (3.2 h)"},
		{86400, "24.00 h", "24.00h", "86400s (1.0 days)"},
		{2 * 86400, "2.0 d", "48.00h", "172800s (2.0 days)"},
		{-90, "-90 s", "-90s", "-90s"},
		{math.NaN(), "–", "NaNs", "NaNs"},
		{math.Inf(1), "–", "+Infh", "+Infs (+Inf days)"},
	}
	for _, c := range cases {
		if got := Duration(c.s); got != c.human {
			t.Errorf("Duration(%v) = %q, want %q", c.s, got, c.human)
		}
		if got := DurationShort(c.s); got != c.short {
			t.Errorf("DurationShort(%v) = %q, want %q", c.s, got, c.short)
		}
		if got := DurationExact(c.s); got != c.exact {
			t.Errorf("DurationExact(%v) = %q, want %q", c.s, got, c.exact)
		}
	}
}

func TestNumbers(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -45000: "-45,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Percent(0.9534); got != "95.3 %" {
		t.Errorf("Percent = %q", got)
	}
	if got := Num(1.0 / 3); got != "0.3333333333" {
		t.Errorf("Num(1/3) = %q", got)
	}
	if got := Num(7200); got != "7200" {
		t.Errorf("Num(7200) = %q", got)
	}
}

func TestCSSColor(t *testing.T) {
	if got := CSSColor(palette[1]); got != "#d55e00" {
		t.Errorf("CSSColor(vermillion) = %q", got)
	}
}

package app

import "testing"

// TestJCTPercentile reads percentile metric names as the regular
// expression ^p(\d+)_jct_s$ did before it was written out by hand.
func TestJCTPercentile(t *testing.T) {
	for _, c := range []struct {
		metric string
		pct    int
		ok     bool
	}{
		{"p50_jct_s", 50, true},
		{"p99_jct_s", 99, true},
		{"p5_jct_s", 5, true},
		{"p050_jct_s", 50, true},
		{"p_jct_s", 0, false},
		{"pX_jct_s", 0, false},
		{"p9a_jct_s", 0, false},
		{"p5_jct_s_jct_s", 0, false},
		{"p50_jct", 0, false},
		{"xp50_jct_s", 0, false},
		{"p50_jct_s ", 0, false},
		{"p٣_jct_s", 0, false}, // \d was ASCII digits only
		{"mean_jct_s", 0, false},
	} {
		pct, ok := jctPercentile(c.metric)
		if pct != c.pct || ok != c.ok {
			t.Errorf("jctPercentile(%q) = %d, %v; want %d, %v", c.metric, pct, ok, c.pct, c.ok)
		}
	}
}

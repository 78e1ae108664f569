package app

import "testing"

// TestBuiltComparedOnlyAtItsWidth: a page resized during the live run draws
// its figures at another width, which must not read as a difference from
// the build-time results; the outputs are still compared.
func TestBuiltComparedOnlyAtItsWidth(t *testing.T) {
	run := func(widths ...float64) *Run {
		r := &Run{}
		for _, w := range widths {
			r.Parts = append(r.Parts, &Part{width: w})
		}
		return r
	}
	for _, c := range []struct {
		name   string
		r      *Run
		drawn  float64
		want   bool
		reason string
	}{
		{"all at the build's width", run(0, 0), 0, true, ""},
		{"a Gantt chart at a phone's width", run(0, 3.5), 0, false, ""},
		{"the CDF at a phone's width", run(0, 0), 3.5, false, ""},
	} {
		if got := drawnAtBuiltWidth(c.r, c.drawn, 0); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}

	fig := func(b byte) *Figure { return &Figure{Name: "jct_cdf", PNG: []byte{b}} }
	built := &Results{Policies: []*PolicyResult{{Label: "FIFO", Raw: []byte("1")}}, CDF: fig(1), Queue: fig(2)}
	live := &Results{Policies: []*PolicyResult{{Label: "FIFO", Raw: []byte("1")}}, CDF: fig(9), Queue: fig(2)}
	if d := built.differs(live, true); d == "" {
		t.Error("different CDFs at the same width read as the same")
	}
	if d := built.differs(live, false); d != "" {
		t.Errorf("figures drawn at another width were compared: %s", d)
	}
	live.Policies[0].Raw = []byte("2")
	if d := built.differs(live, false); d == "" {
		t.Error("different outputs read as the same when the figures are not compared")
	}
}

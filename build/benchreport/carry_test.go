package main

import "testing"

func TestCarryOver(t *testing.T) {
	old := render([]row{
		{Measure: "gavel | full", Value: "22 min 29 s", Target: "≤ 8 min", Verdict: "not met"},
		{Measure: "page", Value: "failed: no browser", Target: "< 1.5 s"},
		{Measure: "engine", Value: "3.04 M", Target: "≥ 5 M", Peer: "9.9 M", Verdict: "not met"},
	}, []row{{Measure: "`fifo`", Value: "2.01 s", Target: "< 60 s", Verdict: "met"}})
	doc := "intro\n" + beginMark + "\n" + old + endMark + "\nafter\n"

	rows, philly := carryOver(doc, []row{
		skipped("gavel | full", "≤ 8 min", "run with -gavel"),
		skipped("page", "< 1.5 s", "give -site"),
		{Measure: "engine", Value: "3.50 M", Target: "≥ 5 M", Verdict: "not met"},
		skipped("new row", "", "never measured"),
	}, nil)
	if want := "22 min 29 s" + earlier; rows[0].Value != want || rows[0].Verdict != "not met" {
		t.Errorf("the Gavel row became %+v, want the earlier figure %q, not met", rows[0], want)
	}
	if rows[1].Value != "not measured: give -site" {
		t.Errorf("a failed earlier figure was carried over: %+v", rows[1])
	}
	if rows[2].Value != "3.50 M" || rows[2].Peer != "" {
		t.Errorf("a measured row was replaced: %+v", rows[2])
	}
	if rows[3].Value != "not measured: never measured" {
		t.Errorf("a row the docs never had: %+v", rows[3])
	}
	if len(philly) != 1 || philly[0].Value != "2.01 s"+earlier || philly[0].Verdict != "met" {
		t.Errorf("the Philly rows became %+v", philly)
	}

	// Carried over twice, a figure is marked once; a run of the log
	// replaces the earlier rows.
	doc2 := beginMark + "\n" + render(rows, philly) + endMark
	rows2, philly2 := carryOver(doc2, []row{skipped("gavel | full", "≤ 8 min", "x")}, nil)
	if rows2[0].Value != "22 min 29 s"+earlier || philly2[0].Value != "2.01 s"+earlier {
		t.Errorf("carried twice: %q and %q", rows2[0].Value, philly2[0].Value)
	}
	fresh := []row{{Measure: "`sjf`", Value: "1.75 s", Verdict: "met"}}
	if _, p := carryOver(doc2, nil, fresh); len(p) != 1 || p[0].Value != "1.75 s" {
		t.Errorf("a run of the log gave %+v", p)
	}
}

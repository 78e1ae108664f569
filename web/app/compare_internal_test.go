package app

import (
	"strings"
	"testing"
)

// The changes between two scenarios are listed field by field, in words,
// in the order of the first scenario's fields, then the second's new ones.
func TestCompareDocs(t *testing.T) {
	a := `{"name":"x","cluster":{"servers":[{"count":4,"gpus":4}]},"policies":[{"name":"fifo"},{"name":"sjf"}],"seeds":[1],"workload":{"generator":{"jobs":30}}}`
	b := `{"name":"x","cluster":{"servers":[{"count":2,"gpus":4}]},"policies":[{"name":"fifo"},{"name":"tiresias"}],"seeds":[1,2],"workload":{"generator":{}},"description":"new"}`
	d := compareDocs(a, b)
	var got []string
	for _, c := range d.Changes {
		got = append(got, c.Text())
	}
	want := []string{
		"Cluster › server group 1 › Servers: 4 → 2",
		"Policies: fifo, sjf → fifo, tiresias",
		"Seed: [1] → [1, 2]",
		"Jobs › generator › number of jobs: 30 → not set",
		"Description: not set → “new”",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || d.Other || d.Big || d.More != 0 {
		t.Errorf("changes:\n%s\nwant:\n%s (other %v, big %v, more %d)", strings.Join(got, "\n"), strings.Join(want, "\n"), d.Other, d.Big, d.More)
	}
	if d := compareDocs(a, a); len(d.Changes) != 0 || d.Other {
		t.Errorf("a scenario against itself: %+v", d)
	}
	if d := compareDocs(a, strings.Replace(b, `"name":"x"`, `"name":"y"`, 1)); !d.Other || len(d.Changes) != 0 {
		t.Errorf("two scenarios of different names: %+v", d)
	}
	// Past changeLimit, changes are counted, not listed.
	var jobsA, jobsB []string
	for i := range changeLimit + 5 {
		jobsA = append(jobsA, `{"id":"j`+string(rune('a'+i))+`","gpus":1}`)
		jobsB = append(jobsB, `{"id":"j`+string(rune('a'+i))+`","gpus":2}`)
	}
	wa := `{"name":"x","workload":{"jobs":[` + strings.Join(jobsA, ",") + `]}}`
	wb := `{"name":"x","workload":{"jobs":[` + strings.Join(jobsB, ",") + `]}}`
	if d := compareDocs(wa, wb); len(d.Changes) != changeLimit || d.More != 5 {
		t.Errorf("%d changes listed, %d more", len(d.Changes), d.More)
	}
}

// A difference is B against A, in the metric's unit, with its sense.
func TestDifference(t *testing.T) {
	byKey := map[string]Metric{}
	for _, m := range Metrics {
		byKey[m.Key] = m
	}
	for _, c := range []struct {
		key           string
		a, b          float64
		want          string
		better, worse bool
	}{
		{"avg_jct_s", 600, 450, "−2.5 min (−25%), better", true, false},   // 150 s less of 600
		{"p95_jct_s", 3600, 5400, "+30.0 min (+50%), worse", false, true}, // 1800 s more of 3600
		{"utilization", 0.5, 0.62, "+12.0 points, better", true, false},
		{"utilization", 0.8, 0.7, "−10.0 points, worse", false, true},
		{"makespan_s", 7200, 7201, "same", false, false}, // both "2.00 h"
	} {
		got, better, worse := difference(byKey[c.key], c.a, c.b)
		if got != c.want || better != c.better || worse != c.worse {
			t.Errorf("%s %v → %v: %q better %v worse %v, want %q", c.key, c.a, c.b, got, better, worse, c.want)
		}
	}
}

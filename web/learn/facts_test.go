package learn

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/cluster"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/scenario"
)

// baseRun is a lesson's scenario as a Run before any run, as the page
// builds it for the texts.
func baseRun(t *testing.T, name string, edit func(doc map[string]any)) *Run {
	t.Helper()
	data, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	if edit != nil {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		edit(doc)
		data, _ = json.Marshal(doc)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{Scenario: sc, Single: sc, Base: sc}
	c, err := cluster.New(sc.Cluster)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Servers {
		r.Servers = append(r.Servers, Server{GPUs: s.NumGPUs, Type: s.Type})
	}
	return r
}

// texts are every text of a lesson a student reads before running it.
func texts(l *Lesson) []string {
	var out []string
	for _, s := range l.Steps {
		out = append(out, s.Paras...)
	}
	return append(out, l.Question.Prompt, l.Challenge.Text, l.Challenge.Hint)
}

// Every fact a lesson's text names is computed from its scenario: none
// is left unfilled or unknown.
func TestFactsFilled(t *testing.T) {
	left := regexp.MustCompile(`\{[a-z]+\}`)
	for _, l := range Lessons() {
		r := baseRun(t, l.Scenario, nil)
		for _, s := range texts(l) {
			got := l.Text(s, r)
			if m := left.FindString(got); m != "" || strings.Contains(got, "–") || strings.Contains(got, "NaN") {
				t.Errorf("%s: unfilled or unknown fact in %q", l.ID, got)
			}
		}
	}
}

// The scenario facts the later lessons' texts name, against what the
// scenarios' documents say (read by hand): and an edited scenario reads
// differently.
func TestListFacts(t *testing.T) {
	for _, c := range []struct {
		lesson, text, want string
		edit               func(doc map[string]any)
		wantEdited         string
	}{
		// learn-placement: 4 servers of 4 GPUs; big1-4 of 3 GPUs at 0,
		// then j1.. every 300 s of 1, 2 and 4 GPUs.
		{"placement", "{startjobs} of {startgpus}{leaving}; {latersizes} arrive {every}",
			"4 jobs of 3, one on each server, leaving 1 GPU free on each: 4 GPUs free in all, but only 1 on any one server; 1, 2 or 4 arrive every 5 minutes",
			twoServersOf8,
			"4 jobs of 3; 1, 2 or 4 arrive every 5 minutes"},
		// learn-gavel: single-GPU jobs every 900 s; Gavel's round is
		// its default, 360 s.
		{"gavel", "{jobsize} jobs {every}, rounds of {round}", "single-GPU jobs every 15 minutes, rounds of 6 minutes",
			func(doc map[string]any) {
				doc["policies"].([]any)[1].(map[string]any)["params"] = map[string]any{"round_s": 600}
			},
			"single-GPU jobs every 15 minutes, rounds of 10 minutes"},
		// learn-contention: 8 jobs of 4 GPUs on 4 servers of 4: spread
		// over 4 servers, 4 at once.
		{"contention", "{jobsize}: over {spreadover}, {atonce} at once", "4-GPU: over 4, 4 at once",
			twoServersOf8,
			"4-GPU: over 2, 4 at once"},
		// sjf-bsbf-fig6a's quick version (0.5× and 2× of 240 jobs).
		{"claims", "{gpus} GPUs, {range}", "64 GPUs, from 120 to 480 jobs", nil, ""},
	} {
		l := Find(c.lesson)
		if got := l.Text(c.text, baseRun(t, l.Scenario, nil)); got != c.want {
			t.Errorf("%s: %q, want %q", c.lesson, got, c.want)
		}
		if c.edit == nil {
			continue
		}
		if got := l.Text(c.text, baseRun(t, l.Scenario, c.edit)); got != c.wantEdited {
			t.Errorf("%s edited: %q, want %q", c.lesson, got, c.wantEdited)
		}
	}
}

// twoServersOf8 makes a cluster of two 8-GPU servers.
func twoServersOf8(doc map[string]any) {
	s := doc["cluster"].(map[string]any)["servers"].([]any)[0].(map[string]any)
	s["count"], s["gpus"] = 2, 8
}

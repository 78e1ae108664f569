package story

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
)

// A round policy's arrival note and a policy's own reason become steps
// that say why; a reason told at the instant of a fact follows it, in
// whatever order the notes came.
func TestRoundAndWhySteps(t *testing.T) {
	jobs := []Job{{Name: "j0", Model: "resnet50", GPUs: 2, ArrivalS: 30, StartS: 360, FinishS: 900}}
	notes := []Note{
		{T: 30, Job: 0, Kind: Round, Other: -1, Table: -1, Key: "Gavel FIFO", Text: "every 6.0 min; the next is at 6.0 min"},
		{T: 360, Job: 0, Kind: Why, Other: -1, Table: -1, Text: "round 1: Gavel FIFO gives it a lease"},
		{T: 360, Job: 0, Kind: Start, Other: -1, Table: -1, GPUs: []cluster.GPUID{1, 3}},
	}
	st := NewIndex(Input{Jobs: jobs, Notes: notes}).Story(0)
	var kinds []string
	for _, s := range st.Steps {
		kinds = append(kinds, s.Kind)
	}
	if got, want := strings.Join(kinds, " "), "arrived waited started why finished"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	if s := st.Steps[1].Text; !strings.Contains(s, "between rounds: Gavel FIFO") || !strings.Contains(s, "the next is at 6.0 min") {
		t.Errorf("round step %q", s)
	}
	if s := st.Steps[3].Text; s != "Round 1: Gavel FIFO gives it a lease." {
		t.Errorf("why step %q", s)
	}
	if s := st.Steps[2].Text; !strings.Contains(s, "after waiting 5.5 min") {
		t.Errorf("start step %q", s)
	}
}

// A wait the policy explains only from some time on is told from the
// intervals before then: here both GPUs were busy until the policy's
// first reason.
func TestWaitBeforeFirstReason(t *testing.T) {
	jobs := []Job{
		{Name: "j0", Model: "bert", GPUs: 2, ArrivalS: 0, StartS: 0, FinishS: 100},
		{Name: "j1", Model: "bert", GPUs: 2, ArrivalS: 10, StartS: 100, FinishS: 200},
	}
	notes := []Note{
		{T: 0, Job: 0, Kind: Start, Other: -1, Table: -1, GPUs: []cluster.GPUID{0, 1}},
		{T: 50, Job: 1, Kind: Waits, Other: -1, Table: -1, Need: 2, Free: 1},
		{T: 100, Job: 1, Kind: Start, Other: -1, Table: -1, GPUs: []cluster.GPUID{0, 1}},
	}
	ivs := []Interval{{GPU: 0, Job: 0, StartS: 0, EndS: 100}, {GPU: 1, Job: 0, StartS: 0, EndS: 100},
		{GPU: 0, Job: 1, StartS: 100, EndS: 200}, {GPU: 1, Job: 1, StartS: 100, EndS: 200}}
	st := NewIndex(Input{Jobs: jobs, Notes: notes, Intervals: ivs, NumGPUs: 2}).Story(1)
	var got []string
	for _, s := range st.Steps {
		got = append(got, s.Kind)
	}
	if strings.Join(got, " ") != "arrived waited waited started finished" {
		t.Fatalf("steps %v", got)
	}
	if s := st.Steps[1]; s.T != 10 || s.Text != "Until 50 s, every GPU was busy." {
		t.Errorf("the wait before the first reason: %+v", s)
	}
}

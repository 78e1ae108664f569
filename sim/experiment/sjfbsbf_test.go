package experiment_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
)

// The SJF-BSBF studies flag exactly the checks on calibrated quantities
// (spec 000 ruling R1): on the testbed the total work is tuned to Table
// II's FIFO makespan (R7), so every makespan check there is calibrated;
// the 64-GPU window is Pollux's 8 hours, not tuned, and no check compares
// the large-job share or the solo times backed out of Table III.
func TestSJFBSBFCalibratedChecks(t *testing.T) {
	want := map[string][]string{"sjf-bsbf-table2": {"t2-makespan"}}
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "sjf-bsbf-") {
			continue
		}
		sc := load(t, name)
		var got []string
		for _, c := range sc.Checks {
			if c.Calibrated {
				got = append(got, c.ID)
				if !strings.Contains(strings.ToLower(c.Description), "calibrated") {
					t.Errorf("%s: check %s is calibrated but its description does not say why", name, c.ID)
				}
			}
			if c.Metric == "makespan_s" && !c.Calibrated && strings.Contains(string(sc.Workload.Generator), `"sjf-bsbf-testbed"`) {
				t.Errorf("%s: check %s compares testbed makespans, which are calibrated", name, c.ID)
			}
		}
		if !slices.Equal(got, want[name]) {
			t.Errorf("%s: calibrated checks %v, want %v", name, got, want[name])
		}
	}
}

// A calibrated check that passes is still not counted: Table II's
// makespan check holds in quick mode, yet the pass count leaves it out.
func TestCalibratedMakespanIsNotCounted(t *testing.T) {
	sc := load(t, "sjf-bsbf-table2")
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Quick: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	out := st.Output()
	// Five checks are on the policies as the authors' own scheduler code
	// runs them (FIFO, SJF, SJF-FFS, SJF-BSBF with and without
	// preemption), counted apart, and the details of a claim are shown
	// under it, never counted.
	details := 0
	for _, c := range sc.Checks {
		if c.DetailOf != "" {
			details++
		}
	}
	if out.Summary.Calibrated != 1 || out.Summary.Exploration != 5 || out.Summary.Details != details ||
		out.Summary.Claims != len(sc.Checks)-6-details {
		t.Fatalf("summary %+v for %d checks, %d of them details", out.Summary, len(sc.Checks), details)
	}
	passed := 0
	for _, v := range out.Checks {
		if v.Passed && v.Class == "claim" {
			passed++
		}
		if v.ID == "t2-makespan" && (!v.Calibrated || v.Required) {
			t.Errorf("t2-makespan: calibrated %v, required %v", v.Calibrated, v.Required)
		}
	}
	if out.Summary.Passed != passed {
		t.Errorf("summary counts %d passes, %d uncalibrated checks passed", out.Summary.Passed, passed)
	}
}

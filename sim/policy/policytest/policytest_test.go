package policytest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// recorder is a test that keeps what the assertions report.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

// On one server of two GPUs, A (2 GPUs, 100 s) starts at 0; B (1 GPU,
// 50 s) arrives at 10 and waits for A, so it runs 100–150. The assertions
// pass on these times and report every wrong one.
func TestRunAndAssertions(t *testing.T) {
	c := policytest.Servers(t, 1, 2, "V100", 0)
	jobs := []workload.Job{
		{Name: "B", GPUs: 1, DurationS: 50, Model: "m", ArrivalS: 10},
		{Name: "A", GPUs: 2, DurationS: 100, Model: "m"},
	}
	res := policytest.Run(t, c, nil, fifo.New(fifo.Params{}), jobs)
	if res.Input[0].Name != "A" || res.Input[0].Iterations == 0 {
		t.Errorf("the jobs were not finalized and prepared: %+v", res.Input[0])
	}
	res.WantRan("A", 0, 100)
	res.WantStart("B", 100)
	res.WantFinish("B", 150)
	if !res.Logged(-1, "B") {
		t.Errorf("FIFO's log does not name B: %v", res.LogLines())
	}

	rec := &recorder{TB: t}
	wrong := policytest.Wrap(rec, res)
	wrong.WantRan("A", 0, 101)
	wrong.WantStart("B", 99)
	wrong.WantFinish("B", 150.001)
	wrong.WantLog(5, "B")
	wrong.Job("C")
	want := []string{"A ran 0–100, want 0–101", "B first started at 100, want 99", "B finished at 150, want 150.001", "no log entry at 5 contains \"B\"", "no job named \"C\""}
	if len(rec.errs) != len(want) {
		t.Fatalf("reported %d failures, want %d: %q", len(rec.errs), len(want), rec.errs)
	}
	for i, w := range want {
		if !strings.HasPrefix(rec.errs[i], w) {
			t.Errorf("failure %d: %q, want it to start with %q", i, rec.errs[i], w)
		}
	}
}

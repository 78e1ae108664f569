package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/scenario"
)

// A job list too long to build at parse time (an imported trace) is still
// checked against the largest job a policy schedules, so that AlloX is
// refused before the run instead of failing days into it.
func TestLongJobListCheckedForJobSize(t *testing.T) {
	list := func(n, bigAt int) string {
		jobs := make([]string, n)
		for i := range jobs {
			gpus := 1
			if i == bigAt {
				gpus = 4
			}
			jobs[i] = fmt.Sprintf(`{"id": "j%d", "arrival_s": %d, "gpus": %d, "model": "resnet50", "duration_s": 60}`, i, i, gpus)
		}
		return `{"name": "x", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
		  "workload": {"jobs": [` + strings.Join(jobs, ",") + `]}, "policies": [{"name": "fifo"}, {"name": "gavel-allox"}]}`
	}
	const n = 20_001 // above the largest workload Parse builds
	_, err := scenario.Parse([]byte(list(n, n-2)))
	want := `policies[1].name: AlloX schedules jobs of at most 1 GPU(s), but job "j19999" asks for 4`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a 4-GPU job in %d jobs under AlloX: %v\nwant %q", n, err, want)
	}
	if _, err := scenario.Parse([]byte(list(n, -1))); err != nil {
		t.Errorf("%d one-GPU jobs under AlloX: %v", n, err)
	}
}

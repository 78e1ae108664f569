package perf

import (
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// A job larger than the cluster still gets work from Prepare, so that the
// engine accepts the job list and reports that job unschedulable instead
// of refusing the whole run ("has no work").
func TestPrepareGivesAnUnplaceableJobWork(t *testing.T) {
	a := newAnalytic(t, nil)
	jobs := []workload.Job{
		{Name: "fits", Model: "cifar10", GPUs: 2, DurationS: 600},
		{Name: "too-big", Model: "cifar10", GPUs: 32, DurationS: 600},
	}
	if err := a.Prepare(testCluster(t), jobs); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if !(j.Iterations > 0) {
			t.Errorf("job %s has %v iterations", j.Name, j.Iterations)
		}
	}
}

package pollux_test

import (
	"strings"
	"testing"

	_ "github.com/schedlab/schedlab/sim/policy/pollux"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A max_waiting below 0 is refused before any run, naming the parameter.
func TestMaxWaitingRange(t *testing.T) {
	doc := func(v string) string {
		return `{"name": "x", "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "V100"}]},
		 "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "cifar10", "duration_s": 10}]},
		 "policies": [{"name": "pollux", "params": {"max_waiting": ` + v + `}}]}`
	}
	_, err := scenario.Parse([]byte(doc("-1")))
	if want := "policies[0].params.max_waiting: must be at least 0, got -1"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("max_waiting -1: got %v, want %q", err, want)
	}
	if _, err := scenario.Parse([]byte(doc("64"))); err != nil {
		t.Errorf("max_waiting 64: %v", err)
	}
}

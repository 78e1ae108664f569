package scenario

import (
	"strings"
	"testing"
)

// TestPolicyRefusesUnpricedGPUType: a Gavel policy on a GPU type it has no
// price for is refused at its prices field before any run, and accepted
// once the price is given.
func TestPolicyRefusesUnpricedGPUType(t *testing.T) {
	doc := func(params string) string {
		return `{"name": "p", "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "V100"}, {"count": 1, "gpus": 4, "gpu_type": "2080Ti"}]},
		  "workload": {"jobs": [{"id": "a", "model": "resnet50", "gpus": 1, "duration_s": 600}]},
		  "policies": [{"name": "gavel-las"` + params + `}]}`
	}
	_, err := Parse([]byte(doc("")))
	if err == nil || !strings.Contains(err.Error(), "policies[0].params.prices: GPU type 2080Ti has no price") {
		t.Fatalf("want a problem at policies[0].params.prices naming 2080Ti, got %v", err)
	}
	if _, err := Parse([]byte(doc(`, "params": {"prices": [{"gpu_type": "2080Ti", "usd_per_hour": 0.3}]}`))); err != nil {
		t.Fatalf("with a price for 2080Ti: %v", err)
	}
}

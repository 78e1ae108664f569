package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/scenario"
)

// BenchmarkParseExplicitJobs validates a scenario of 100,000 explicit jobs
// (8.9 MB), the most the limits allow.
func BenchmarkParseExplicitJobs(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"name": "big", "cluster": {"servers": [{"count": 16, "gpus": 4, "gpu_type": "V100"}]}, "workload": {"jobs": [`)
	for i := range 100_000 {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"id": "j%d", "arrival_s": %d, "gpus": 1, "model": "resnet50", "duration_s": 600}`, i, i)
	}
	sb.WriteString(`]}, "policies": [{"name": "fifo"}]}`)
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scenario.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

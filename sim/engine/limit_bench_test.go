package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/sim/workload"
)

// BenchmarkEventQueueLimit is the limit of the engine's events per
// CPU-second that its event queue sets: a push and a pop per event, on a
// queue of 1,024 events (about one per running job in the 1,024-GPU
// benchmarks), at times drawn as completions are (later than now). make
// bench's report prints it beside the engine's own figures.
func BenchmarkEventQueueLimit(b *testing.B) {
	const size, perOp = 1024, 1 << 20
	rng := rand.New(rand.NewPCG(1, 2))
	q := make(eventQueue, 0, size+1)
	for i := range size {
		q.Push(mkEvent(rng.Float64()*3600, Completion, workload.JobID(i), 0))
	}
	b.ResetTimer()
	cpu0 := cputime.Process()
	for range b.N {
		for i := range perOp {
			e := q.Pop()
			q.Push(mkEvent(e.t+rng.ExpFloat64()*3600, Completion, workload.JobID(size+i), 0))
		}
	}
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(perOp)*float64(b.N)/cpu, "events/cpu-s")
	}
}

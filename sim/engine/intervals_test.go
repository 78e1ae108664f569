package engine

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// sortIntervals gives the order of a plain comparison sort, on lists
// recorded by end time as the engine records them, with shared GPUs
// (overlapping intervals on one GPU) and ties of start time.
func TestSortIntervalsAsComparisonSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		gpus := 1 + r.IntN(6)
		var iv []Interval
		for i := range r.IntN(80) {
			start := float64(r.IntN(20))
			iv = append(iv, Interval{GPU: cluster.GPUID(r.IntN(gpus)), Job: workload.JobID(i), StartS: start, EndS: start + 1 + float64(r.IntN(5))})
		}
		if trial%2 == 0 {
			slices.SortStableFunc(iv, func(a, b Interval) int { return int(a.EndS - b.EndS) })
		}
		want := slices.Clone(iv)
		sort.Slice(want, func(a, b int) bool {
			x, y := want[a], want[b]
			if x.GPU != y.GPU {
				return x.GPU < y.GPU
			}
			if x.StartS != y.StartS {
				return x.StartS < y.StartS
			}
			return x.Job < y.Job
		})
		sortIntervals(iv, gpus)
		if !slices.Equal(iv, want) {
			t.Fatalf("trial %d: got %v, want %v", trial, iv, want)
		}
	}
}

// The interval log keeps every interval in order across its chunks, and
// sorting the chunks gives what sorting the whole list gives.
func TestIntervalLogChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var l intervalLog
	var all []Interval
	for i := range 3*intervalChunk + 5 {
		start := float64(r.IntN(1000))
		iv := Interval{GPU: cluster.GPUID(r.IntN(9)), Job: workload.JobID(i), StartS: start, EndS: start + 1}
		l.add(iv)
		all = append(all, iv)
	}
	if len(l.chunks) != 4 || l.n != len(all) || !slices.Equal(slices.Concat(l.chunks...), all) {
		t.Fatalf("%d chunks, n = %d: the log does not hold the %d intervals in order", len(l.chunks), l.n, len(all))
	}
	got := sortedIntervals(l.chunks, 9)
	sortIntervals(all, 9)
	if !slices.Equal(got, all) {
		t.Fatal("sorting the chunks differs from sorting the whole list")
	}
}

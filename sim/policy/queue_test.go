package policy_test

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// SizeQueues against a plain list searched in full: random pushes (with
// tied keys, so the job ID decides) and pops of what Best returns, under
// random GPU limits, give the same job, size and key every time; with a
// few sizes, new ones arriving between old ones, and with more than the
// 64 whose non-empty buckets a mask tracks.
func TestSizeQueuesAgainstList(t *testing.T) {
	few := []int{1, 2, 4, 8, 3}
	many := make([]int, 100)
	for i := range many {
		many[i] = 100 - i
	}
	for _, sizes := range [][]int{few, many} {
		sizeQueuesAgainstList(t, sizes)
	}
}

func sizeQueuesAgainstList(t *testing.T, sizes []int) {
	type item struct {
		id   workload.JobID
		gpus int
		key  float64
	}
	rng := rand.New(rand.NewPCG(5, 37))
	q := policy.NewSizeQueues()
	var list []item
	next := workload.JobID(0)
	for step := range 20_000 {
		if rng.IntN(3) > 0 || len(list) == 0 {
			it := item{next, sizes[rng.IntN(len(sizes))], float64(rng.IntN(50))}
			next++
			q.Push(it.id, it.gpus, it.key)
			list = append(list, it)
			continue
		}
		limit := rng.IntN(10)
		if len(sizes) > 10 {
			limit = rng.IntN(110)
		}
		want := -1
		for i, it := range list {
			if it.gpus > limit {
				continue
			}
			if b := list[max(want, 0)]; want < 0 || it.key < b.key || (it.key == b.key && it.id < b.id) {
				want = i
			}
		}
		id, gpus, key, ok := q.Best(limit)
		if ok != (want >= 0) {
			t.Fatalf("step %d, limit %d: found %v, want %v", step, limit, ok, want >= 0)
		}
		if !ok {
			continue
		}
		if w := list[want]; id != w.id || gpus != w.gpus || key != w.key {
			t.Fatalf("step %d, limit %d: best (%d, %d GPUs, key %v), want (%d, %d, %v)", step, limit, id, gpus, key, w.id, w.gpus, w.key)
		}
		if got := q.Pop(gpus); got != id {
			t.Fatalf("step %d: popped %d, want %d", step, got, id)
		}
		list = append(list[:want], list[want+1:]...)
		if q.Len() != len(list) {
			t.Fatalf("step %d: length %d, want %d", step, q.Len(), len(list))
		}
	}
}

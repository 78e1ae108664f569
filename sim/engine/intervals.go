package engine

import "slices"

// sortIntervals orders the GPU intervals by GPU, start and job, as the
// result promises. They are recorded as they end, so on each GPU they
// are nearly in order already: a stable counting sort by GPU (gpus is
// the number of GPUs) and a check of each GPU's run replace a
// comparison sort of the whole list, which under Gavel's rounds (an
// interval per GPU per round) was the largest part of building a
// result. The order is total (no two intervals share GPU, start and
// job), so the result is the one any sort gives.
func sortIntervals(iv []Interval, gpus int) {
	if len(iv) < 2 {
		return
	}
	start := make([]int, gpus+1)
	for _, x := range iv {
		start[x.GPU+1]++
	}
	for g := 1; g <= gpus; g++ {
		start[g] += start[g-1]
	}
	out := make([]Interval, len(iv))
	next := slices.Clone(start[:gpus])
	for _, x := range iv {
		out[next[x.GPU]] = x
		next[x.GPU]++
	}
	for g := range gpus {
		run := out[start[g]:start[g+1]]
		if !slices.IsSortedFunc(run, cmpInterval) {
			slices.SortFunc(run, cmpInterval)
		}
	}
	copy(iv, out)
}

func cmpInterval(x, y Interval) int {
	switch {
	case x.GPU != y.GPU:
		return int(x.GPU) - int(y.GPU)
	case x.StartS < y.StartS:
		return -1
	case x.StartS > y.StartS:
		return 1
	}
	return int(x.Job) - int(y.Job)
}

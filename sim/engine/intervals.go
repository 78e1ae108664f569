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
	copy(iv, sortedIntervals([][]Interval{iv}, gpus))
}

// sortedIntervals is the intervals of chunks, in order, sorted as
// sortIntervals sorts them, in a new slice (nil if there are none).
func sortedIntervals(chunks [][]Interval, gpus int) []Interval {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	if n == 0 {
		return nil
	}
	start := make([]int, gpus+1)
	for _, c := range chunks {
		for _, x := range c {
			start[x.GPU+1]++
		}
	}
	for g := 1; g <= gpus; g++ {
		start[g] += start[g-1]
	}
	out := make([]Interval, n)
	next := slices.Clone(start[:gpus])
	for _, c := range chunks {
		for _, x := range c {
			out[next[x.GPU]] = x
			next[x.GPU]++
		}
	}
	for g := range gpus {
		run := out[start[g]:start[g+1]]
		if !inOrder(run) {
			slices.SortFunc(run, cmpInterval)
		}
	}
	return out
}

// intervalLog holds the intervals as they are recorded, in chunks of
// fixed size: a run of a million intervals never copies them to grow one
// slice (finalize's sort writes them out once).
type intervalLog struct {
	chunks [][]Interval
	n      int
}

const intervalChunk = 1 << 14

func (l *intervalLog) add(iv Interval) {
	k := len(l.chunks) - 1
	if k < 0 || len(l.chunks[k]) == cap(l.chunks[k]) {
		l.chunks = append(l.chunks, make([]Interval, 0, intervalChunk))
		k++
	}
	l.chunks[k] = append(l.chunks[k], iv)
	l.n++
}

// inOrder is slices.IsSortedFunc(run, cmpInterval) for the run of one
// GPU, with the comparison written in: a call of a function value per
// interval is an indirect call in WebAssembly, and this check reads every
// interval of the run.
func inOrder(run []Interval) bool {
	for i := 1; i < len(run); i++ {
		a, b := &run[i-1], &run[i]
		switch {
		case b.StartS < a.StartS:
			return false
		case b.StartS > a.StartS:
		case b.Job < a.Job:
			return false
		}
	}
	return true
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

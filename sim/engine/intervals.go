package engine

import "slices"

// sortIntervals orders the GPU intervals by GPU, start and job, as the
// result promises. They are recorded as they end, so on each GPU they
// are nearly in order already: a stable counting sort by GPU (gpus is
// the number of GPUs) and an insertion sort of each GPU's run replace a
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
		insertInOrder(out[start[g]:start[g+1]])
	}
	return out
}

// insertInOrder sorts one GPU's run by start, then job, by moving
// each interval that starts before the one recorded ahead of it back to
// its place (found by bisection). A run is recorded by end time, so an
// interval is out of place only by the intervals that start after it and
// end before it: those that ran beside it on a shared GPU. At most
// limit-1 intervals hold the GPU beside any one, so each is passed over
// by at most that many others' moves and the moves add up to at most
// (limit-1) times the run: under Gandiva's space sharing, where nearly
// every GPU's run was out of order, this cost a fraction of the
// comparison sort it replaces. The order is total but for a job's copies
// of one GPU (identical intervals), so the result is any sort's.
func insertInOrder(run []Interval) {
	for i := 1; i < len(run); i++ {
		x := run[i]
		if !startsBefore(&x, &run[i-1]) {
			continue
		}
		lo, hi := 0, i-1 // run[hi] is after x; run[:i] is in order
		for lo < hi {
			if mid := int(uint(lo+hi) >> 1); startsBefore(&x, &run[mid]) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		copy(run[lo+1:i+1], run[lo:i])
		run[lo] = x
	}
}

// startsBefore says a comes before b, two intervals of one GPU.
func startsBefore(a, b *Interval) bool {
	return a.StartS < b.StartS || a.StartS == b.StartS && a.Job < b.Job
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

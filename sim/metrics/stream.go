package metrics

import (
	"math"
	"sort"

	"github.com/schedlab/schedlab/internal/hugepages"
	"github.com/schedlab/schedlab/sim/engine"
)

// DefaultStreamAbove is the job count above which the command line and
// the page stream a run: a job record costs about 200 bytes, so a run of
// 200,000 jobs keeps about 40 MB of records. It lives here, beside
// Stream, so the page can name it without linking the experiment runner.
const DefaultStreamAbove = 200_000

// StreamCDFPoints is how many points a streamed run keeps of its JCT
// CDF: the CDF drawn is within 1/StreamCDFPoints of the exact one
// everywhere.
const StreamCDFPoints = 2000

// Stream summarises a run's job records one at a time, for runs too large
// to keep every record (streaming mode, see engine.Config.OnRecord). It
// keeps 12 bytes per finished job (its JCT, so that percentiles stay
// exact, and its group) and nothing else per job: the summaries it gives
// equal Summarize, ByModel and BySize over the same records.
type Stream struct {
	all          *acc
	models       map[string]int
	names        []string
	byModel      []*acc
	small, large *acc
	threshold    int
	// group of each finished job, in the order of all.jct: its model's
	// index, plus largeBit for a large job. The groups' JCT lists are
	// built from it at the end, each at its exact size.
	group  []uint32
	listed bool
	// the model of the last record added and its index: records of one
	// model often come in a row, and a string compare is cheaper than a
	// map lookup (in WebAssembly by far)
	lastModel string
	lastIndex int
}

const largeBit = 1 << 31

// NewStream returns a Stream expecting about n records, splitting small
// and large jobs at largeGPUs GPUs (see BySize).
func NewStream(n, largeGPUs int) *Stream {
	return &Stream{all: newAcc(n), models: map[string]int{}, small: noList(), large: noList(), threshold: largeGPUs,
		group: hugepages.Make[uint32](n)[:0]}
}

// Summaries is Summarize, ByModel and BySize over the same records, as a
// Stream gives them: the JCTs are sorted once for all three instead of
// once per group.
func Summaries(res *engine.Result, numGPUs, largeGPUs int) (all Summary, byModel []Group, small, large Group) {
	st := NewStream(len(res.Jobs), largeGPUs)
	for i := range res.Jobs {
		st.Add(&res.Jobs[i])
	}
	small, large = st.BySize()
	return st.Summary(res, numGPUs), st.ByModel(), small, large
}

// noList is an accumulator whose JCT list Stream fills at the end.
func noList() *acc { return &acc{first: math.Inf(1), last: math.Inf(-1), counting: true} }

// Add summarises one record; r is not retained.
func (st *Stream) Add(r *engine.JobRecord) {
	st.all.add(r)
	k := st.modelIndex(r.Model)
	st.byModel[k].add(r)
	g := uint32(k)
	if r.GPUs > st.threshold {
		st.large.add(r)
		g |= largeBit
	} else {
		st.small.add(r)
	}
	if r.Status == engine.Finished {
		st.group = append(st.group, g)
	}
}

// scanModels is the most models whose names modelIndex scans rather
// than looks up in the map.
const scanModels = 16

// modelIndex is the index of a model's group, added if new.
func (st *Stream) modelIndex(model string) int {
	if len(st.names) > 0 && model == st.lastModel {
		return st.lastIndex
	}
	// A run has a few models: a scan of their names finds one without
	// hashing it, which a map lookup does (in WebAssembly a map lookup
	// per record was a quarter of adding them).
	k, ok := -1, false
	if len(st.names) <= scanModels {
		for i, name := range st.names {
			if name == model {
				k, ok = i, true
				break
			}
		}
	} else {
		k, ok = st.models[model]
	}
	if !ok {
		k = len(st.byModel)
		st.models[model] = k
		st.names = append(st.names, model)
		st.byModel = append(st.byModel, noList())
	}
	st.lastModel, st.lastIndex = model, k
	return k
}

// lists fills the groups' JCT lists, each sorted, with one sort of the
// run's JCTs in all: they are sorted in cells of one model and one size,
// and each group's list is the merge of its cells (a model's of its two
// sizes, a size's of every model, the run's of all), read in a walk of
// the merge (sortedParts) rather than written out. Sorted lists of the
// same values are the same lists however they were sorted, so every
// summary is the one a sort of each list gives.
func (st *Stream) lists() {
	if st.listed {
		return
	}
	st.listed = true
	cells := 2 * len(st.byModel)
	cell := func(g uint32) int {
		c := 2 * int(g&^largeBit)
		if g&largeBit != 0 {
			c++
		}
		return c
	}
	// start[c] is where cell c begins in byCell
	start := make([]int, cells+1)
	for _, g := range st.group {
		start[cell(g)+1]++
	}
	for c := range cells {
		start[c+1] += start[c]
	}
	at := append([]int(nil), start[:cells]...)
	byCell := hugepages.Make[float64](len(st.group))
	for i, g := range st.group {
		c := cell(g)
		byCell[at[c]] = st.all.jct[i]
		at[c]++
	}
	part := make([][]float64, cells)
	var scratch []float64
	for c := range cells {
		part[c] = byCell[start[c]:start[c+1]]
		scratch = sortTimes(part[c], scratch)
	}
	small, large := make(sortedParts, 0, len(st.byModel)), make(sortedParts, 0, len(st.byModel))
	for k, m := range st.byModel {
		m.parts = sortedParts{part[2*k], part[2*k+1]}
		small, large = append(small, part[2*k]), append(large, part[2*k+1])
	}
	st.small.parts, st.large.parts = small, large
	st.all.parts, st.all.jct = part, nil
	st.group = nil
}

// Summary is Summarize over the records added: utilization comes from the
// run's utilization steps when it recorded them, from GPU-hours otherwise.
func (st *Stream) Summary(res *engine.Result, numGPUs int) Summary {
	st.lists()
	s := st.all.summary()
	if s.Finished == 0 || numGPUs == 0 || s.Makespan <= 0 {
		return s
	}
	s.Utilization = utilization(res, st.all.first, s, numGPUs)
	return s
}

// utilization is the busy fraction of numGPUs over [start, start+makespan].
func utilization(res *engine.Result, start float64, s Summary, numGPUs int) float64 {
	switch {
	case len(res.Utilization) > 0 && res.Stats.UtilThinned > 0:
		return (busyUntil(res.Utilization, start+s.Makespan) - busyUntil(res.Utilization, start)) / (float64(numGPUs) * s.Makespan)
	case len(res.Utilization) > 0:
		return busyGPUSeconds(res.Utilization, start, start+s.Makespan) / (float64(numGPUs) * s.Makespan)
	}
	return math.Min(1, s.GPUHours*3600/(float64(numGPUs)*s.Makespan))
}

// ByModel is ByModel over the records added.
func (st *Stream) ByModel() []Group {
	st.lists()
	order := make([]int, len(st.names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return st.names[order[a]] < st.names[order[b]] })
	out := make([]Group, len(order))
	for i, k := range order {
		out[i] = Group{Name: st.names[k], Summary: st.byModel[k].summary()}
	}
	return out
}

// BySize is BySize over the records added.
func (st *Stream) BySize() (small, large Group) {
	st.lists()
	return Group{Name: "small", Summary: st.small.summary()}, Group{Name: "large", Summary: st.large.summary()}
}

// CDF is the JCT CDF of the finished jobs added, thinned to at most
// points points (see ThinCDF).
func (st *Stream) CDF(points int) (x, y []float64) {
	st.lists()
	n := st.all.parts.len()
	ranks := cdfRanks(n, points)
	if ranks == nil {
		return nil, nil
	}
	at := make([]int, len(ranks))
	for i, r := range ranks {
		at[i] = r - 1
	}
	x, y = st.all.parts.at(at), make([]float64, len(ranks))
	for i, r := range ranks {
		y[i] = float64(r) / float64(n)
	}
	return x, y
}

// ThinCDF keeps at most k points of the empirical CDF of sorted values:
// the values at ranks ⌈i·n/k⌉ for i = 1..k, each with its fraction rank/n
// (all n points when n ≤ k). Read as a step function, the thinned CDF
// F' never exceeds the exact one F and falls short of it by at most 1/k:
// for every x, 0 ≤ F(x) − F'(x) ≤ 1/k. It also keeps the last point, so
// it ends at 1.
func ThinCDF(sorted []float64, k int) (x, y []float64) {
	n := len(sorted)
	ranks := cdfRanks(n, k)
	if ranks == nil {
		return nil, nil
	}
	x, y = make([]float64, 0, len(ranks)), make([]float64, 0, len(ranks))
	for _, rank := range ranks {
		x = append(x, sorted[rank-1])
		y = append(y, float64(rank)/float64(n))
	}
	return x, y
}

// cdfRanks is the ranks (from 1) of the points ThinCDF keeps of n values,
// ascending; nil when it keeps none.
func cdfRanks(n, k int) []int {
	if n == 0 || k <= 0 {
		return nil
	}
	if n <= k {
		k = n
	}
	ranks := make([]int, 0, k)
	last := 0
	for i := 1; i <= k; i++ {
		rank := (i*n + k - 1) / k // ⌈i·n/k⌉, exact in integers
		if rank == last {
			continue
		}
		last = rank
		ranks = append(ranks, rank)
	}
	return ranks
}

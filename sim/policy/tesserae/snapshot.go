package tesserae

import (
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/tesserae/migrate"
	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
	"github.com/schedlab/schedlab/sim/workload"
)

// SnapshotKind names Tesserae's round snapshots in a run's output.
const SnapshotKind = "tesserae/round"

// RoundSnapshot is one round as the page's round view shows it, recorded
// only when the round changed the placement (so a long run stays small).
// Before and After list, per GPU in cluster order, the jobs on it (two
// when packed); job numbers are indices into the run's job records.
type RoundSnapshot struct {
	Round     int         `json:"round"`
	Ordered   int         `json:"ordered"` // active jobs the scheduling policy ranked
	Before    [][]int     `json:"before"`
	After     [][]int     `json:"after"`
	Pairs     []PairState `json:"pairs"`
	Migrated  []int       `json:"migrated"`
	Preempted []int       `json:"preempted"`
	Started   []int       `json:"started"`
}

// PairState is one pair the packing matching chose: host and guest share
// the host's GPUs; Combined is their summed normalised throughput, Score
// the edge's weight under the packing objective.
type PairState struct {
	Host     int     `json:"host"`
	Guest    int     `json:"guest"`
	Combined float64 `json:"combined"`
	Score    float64 `json:"score"`
}

// snapshot records a round that changed the placement.
func (t *placer) snapshot(s *engine.State, ordered int, prev, final migrate.Plan, pairs []pack.Pair, moved []workload.JobID) error {
	if !s.Snapshotting() {
		return nil
	}
	before, after := flat(prev), flat(final)
	if slices.EqualFunc(before, after, slices.Equal) {
		return nil
	}
	r := RoundSnapshot{Round: t.rounds, Ordered: ordered, Before: before, After: after,
		Pairs: []PairState{}, Migrated: ids(moved), Preempted: []int{}, Started: []int{}}
	for _, p := range pairs {
		r.Pairs = append(r.Pairs, PairState{Host: int(p.Host), Guest: int(p.Guest), Combined: p.Combined, Score: p.Score})
	}
	was, will := jobsOf(before), jobsOf(after)
	for _, j := range sortedKeys(was) {
		if !will[j] {
			r.Preempted = append(r.Preempted, j)
		}
	}
	for _, j := range sortedKeys(will) {
		if !was[j] {
			r.Started = append(r.Started, j)
		}
	}
	return s.Snapshot(SnapshotKind, r)
}

// flat lists a plan's jobs per GPU in cluster order (servers are nodes).
func flat(p migrate.Plan) [][]int {
	var out [][]int
	for _, gpus := range p.Nodes {
		for _, js := range gpus {
			out = append(out, ids(js))
		}
	}
	return out
}

func ids(js []workload.JobID) []int {
	out := make([]int, len(js))
	for i, j := range js {
		out[i] = int(j)
	}
	return out
}

func jobsOf(gpus [][]int) map[int]bool {
	m := map[int]bool{}
	for _, js := range gpus {
		for _, j := range js {
			m[j] = true
		}
	}
	return m
}

// sortedKeys lists a set in increasing order (map order is random).
func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

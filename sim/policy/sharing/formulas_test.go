package sharing

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of SJF-BSBF's ordering rules (spec 000 §3.1, A9,
// A11).

// Algorithm 1 tries the partners that pass Theorem 1 by lowest pair JCT,
// then the one offering more GPUs, then the lower job id; ranked by
// benefit, the largest AvgSeq − AvgShare first.
func TestCandidateOrderByHand(t *testing.T) {
	c := func(id, n int, pair, share, seq float64) candidate {
		return candidate{id: workload.JobID(id), n: n, choice: Choice{PairJCT: pair, AvgShare: share, AvgSeq: seq}}
	}
	b := &bsbf{p: DefaultBSBFParams()}
	for _, x := range []struct {
		a, b candidate
		want bool
		why  string
	}{
		{c(5, 1, 400, 400, 600), c(3, 2, 500, 500, 900), true, "pair JCT 400 before 500"},
		{c(3, 2, 500, 500, 900), c(5, 1, 400, 400, 600), false, "pair JCT 500 after 400"},
		{c(5, 2, 400, 400, 600), c(3, 1, 400, 400, 600), true, "equal JCT: 2 GPUs before 1"},
		{c(3, 1, 400, 400, 600), c(5, 2, 400, 400, 600), false, "equal JCT: 1 GPU after 2"},
		{c(3, 1, 400, 400, 600), c(5, 1, 400, 400, 600), true, "all equal: the lower id"},
	} {
		if got := b.better(&x.a, &x.b); got != x.want {
			t.Errorf("%s: better = %v", x.why, got)
		}
	}
	// By benefit: 900 − 500 = 400 beats 600 − 400 = 200 although its pair
	// JCT is higher.
	b.p.Rank = "benefit"
	if x, y := c(3, 2, 500, 500, 900), c(5, 1, 400, 400, 600); !b.better(&x, &y) || b.better(&y, &x) {
		t.Error("by benefit: 400 should come before 200")
	}
}

// The pending queue is shortest key first, ties by job id (arrival).
func TestQueueOrderByHand(t *testing.T) {
	sc := &scheduler{}
	for _, q := range []queued{{key: 300, id: 0}, {key: 100, id: 4}, {key: 200, id: 2}, {key: 100, id: 1}, {key: 50, id: 3}} {
		sc.push(q)
	}
	var got []workload.JobID
	for _, q := range sc.queue {
		got = append(got, q.id)
	}
	if want := []workload.JobID{3, 1, 4, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("queue %v, want %v", got, want)
	}
}

// The queue key in the engine (ambiguity A9), on one server of 2 GPUs
// with no sharing: Z holds both GPUs until 10 s; A (2 GPUs, 100 s) and B
// (1 GPU, 150 s) arrive at 1 s. By duration A (100 < 150) starts at 10 s
// and B at 110 s; by GPU time B (150 < 2·100) starts at 10 s and A, which
// needs both GPUs, at 160 s; by GPU count B (1 < 2) first as well.
func TestQueueKeyInTheEngine(t *testing.T) {
	c := mustCluster(t, 1, 2, 11)
	for _, k := range []struct {
		key          string
		startA, endB float64
	}{{"duration", 10, 260}, {"gpu_time", 160, 160}, {"gpus", 160, 160}} {
		p := DefaultBSBFParams()
		p.MaxJobsPerGPU, p.Key = 1, k.key
		jobs := []workload.Job{
			{Name: "Z", GPUs: 2, DurationS: 10},
			{Name: "A", GPUs: 2, DurationS: 100, ArrivalS: 1},
			{Name: "B", GPUs: 1, DurationS: 150, ArrivalS: 1},
		}
		res := run(t, c, perf.NewConstant(perf.ConstantParams{}), jobs, NewBSBF(p))
		if a, b := res.Jobs[1], res.Jobs[2]; a.FirstStartS != k.startA || b.FinishS != k.endB {
			t.Errorf("key %s: A starts at %v, B ends at %v; want %v and %v", k.key, a.FirstStartS, b.FinishS, k.startA, k.endB)
		}
	}
}

// Theorem 1's sums with the running job R finishing first and unequal
// slowdowns, N's solo time 1,000 s at its shrunk sub-batch and 900 s at
// its full batch (ambiguity A7): L_R = 300 s, ξ_R = 1.5, ξ_N = 1.2. Under
// full overlap R ends at 1.5·300 = 450 s (N alone would need 1.2·1000);
// by then N has done 450/1.2 = 375 s of its 1,000 and finishes the rest
// alone: 450 + 625 = 1,075 s. The pair's sum is 450 + 1,075 = 1,525
// (average 762.5). Waiting, R ends at 300 s and N at 300 + 900: sum
// 1,500 (average 750). Waiting wins.
func TestPairDecisionRunningFirstByHand(t *testing.T) {
	share, avgShare, avgSeq := PairDecision(300, 1000, 900, 1.5, 1.2)
	if share || avgShare != 762.5 || avgSeq != 750 {
		t.Errorf("share %v, %v against %v; want false, 762.5 against 750", share, avgShare, avgSeq)
	}
	if tR, tN := PairTimes(300, 1000, 1.5, 1.2, 0); tR != 450 || tN != 1075 {
		t.Errorf("completions under overlap %v, %v; want 450, 1075", tR, tN)
	}
}

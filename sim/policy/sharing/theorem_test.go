package sharing

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/internal/approx"
)

// Spec 000 §2.7 Examples A and B.
func TestPairDecisionExamples(t *testing.T) {
	share, avgSh, avgSeq := PairDecision(1000, 300, 300, 1.3, 1.4)
	if !share || !approx.Equal(avgSh, 758.46, 0.01, 0) || !approx.Equal(avgSeq, 1150, 1e-9, 0) {
		t.Errorf("A: share %v, %.2f vs %.2f", share, avgSh, avgSeq)
	}
	share, avgSh, avgSeq = PairDecision(300, 1200, 1200, 1.8, 1.8)
	if share || !approx.Equal(avgSh, 990, 1e-9, 0) || !approx.Equal(avgSeq, 900, 1e-9, 0) {
		t.Errorf("B: share %v, %.2f vs %.2f", share, avgSh, avgSeq)
	}
}

// Spec 000 §2.6 and §8: with a uniform ξ sharing always wins below 1.5,
// ties (and so does not share) at 1.5 when the running job finishes first,
// and at ξ = 2 wins only when L_N < L_R/2.
func TestUniformXiThresholds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		lR, lN := 10+r.Float64()*5000, 10+r.Float64()*5000
		if share, _, _ := PairDecision(lR, lN, lN, 1.25, 1.25); !share {
			t.Fatalf("ξ = 1.25, L_R %v, L_N %v: no sharing", lR, lN)
		}
		if share, _, _ := PairDecision(lR, lN, lN, 2, 2); share != (lN < lR/2) {
			t.Fatalf("ξ = 2, L_R %v, L_N %v: share %v", lR, lN, share)
		}
		if lR < lN { // R finishes first under overlap: an exact tie
			share, sh, seq := PairDecision(lR, lN, lN, 1.5, 1.5)
			if share || !approx.Equal(sh, seq, 1e-9*seq, 0) {
				t.Fatalf("ξ = 1.5, L_R %v < L_N %v: share %v, %v vs %v", lR, lN, share, sh, seq)
			}
		}
	}
	// The corollary's closed form when R finishes first: share iff ξ_R(2 − 1/ξ_N) < 2.
	for range 2000 {
		xiR, xiN := 1+r.Float64()*3, 1+r.Float64()*3
		lR := 100.0
		lN := lR*xiR/xiN + 1 + r.Float64()*1000 // ξ_N·L_N > ξ_R·L_R
		share, _, _ := PairDecision(lR, lN, lN, xiR, xiN)
		if want := xiR*(2-1/xiN) < 2; share != want && math.Abs(xiR*(2-1/xiN)-2) > 1e-9 {
			t.Fatalf("ξ_R %v ξ_N %v: share %v, corollary %v", xiR, xiN, share, want)
		}
	}
}

// Theorem 1 by brute force: for random slowdowns in [1, 6] and random
// lengths, the pair's average completion time over a fine grid of start
// delays κ is smallest at κ = 0 or κ = L_R, and the end point it picks is
// PairDecision's.
func TestTheorem1BruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 3000 {
		lR, lN := 1+r.Float64()*5000, 1+r.Float64()*5000
		xiR, xiN := 1+5*r.Float64(), 1+5*r.Float64()
		curve := PairCurve(lR, lN, xiR, xiN, 400)
		best := curve[0]
		for _, p := range curve {
			if p.AvgJCT < best.AvgJCT {
				best = p
			}
		}
		ends := min(curve[0].AvgJCT, curve[len(curve)-1].AvgJCT)
		if best.AvgJCT < ends*(1-1e-12) {
			t.Fatalf("L_R %v L_N %v ξ %v/%v: minimum %v at κ = %v is inside (ends %v, %v)",
				lR, lN, xiR, xiN, best.AvgJCT, best.Kappa, curve[0].AvgJCT, curve[len(curve)-1].AvgJCT)
		}
		share, sh, seq := PairDecision(lR, lN, lN, xiR, xiN)
		if !approx.Equal(sh, curve[0].AvgJCT, 1e-9*sh, 0) || !approx.Equal(seq, curve[len(curve)-1].AvgJCT, 1e-9*seq, 0) {
			t.Fatalf("end points %v, %v; PairDecision %v, %v", curve[0].AvgJCT, curve[len(curve)-1].AvgJCT, sh, seq)
		}
		if share != (sh < seq*(1-1e-12)) {
			t.Fatalf("decision %v for %v vs %v", share, sh, seq)
		}
	}
}

func TestSubBatches(t *testing.T) {
	for _, c := range []struct {
		b    int
		want []int
	}{{32, []int{32, 16, 8, 4, 2, 1}}, {24, []int{24, 12, 6, 3, 2, 1}}, {20, []int{20, 10, 5, 3, 2, 1}}, {1, []int{1}}, {3, []int{3, 2, 1}}} {
		if got := SubBatches(c.b); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SubBatches(%d) = %v, want %v", c.b, got, c.want)
		}
	}
}

// exampleC is spec 000 §2.7 Example C: N's solo times at each sub-batch
// (α 0.05, β 0.01, t_comm 0.1, δ 2, B 32, 1000 iterations) and memory
// 1.0 + 0.2·b GB; R has L_R = 1000 s and holds 6 GB of 11.
func exampleC() []Option {
	ln := map[int]float64{32: 383.3, 16: 442.6, 8: 554.0, 4: 764.5, 2: 1172.1, 1: 1976.6}
	var opts []Option
	for _, b := range SubBatches(32) {
		opts = append(opts, Option{SubBatch: b, LNShare: ln[b], MemoryGB: 1 + 0.2*float64(b)})
	}
	return opts
}

func TestAlgorithm2ExampleC(t *testing.T) {
	opts := exampleC()
	got := BatchScaling(opts, 11-6, 1000, 383.3, 1.3, 1.4, false)
	if !got.Share || got.SubBatch != 16 || !approx.Equal(got.PairJCT, 881.3, 0.05, 0) || !approx.Equal(got.AvgSeq, 1191.65, 0.01, 0) {
		t.Fatalf("Example C: %+v", got)
	}
	// The table of §2.7: b = 8 and 4 still beat waiting, b = 2 and 1 do not.
	for _, c := range []struct {
		b     int
		avg   float64
		share bool
	}{{16, 881.3, true}, {8, 977.3, true}, {4, 1158.7, true}, {2, 1421.8, false}, {1, 1824.0, false}} {
		for _, o := range opts {
			if o.SubBatch != c.b {
				continue
			}
			share, avg, _ := PairDecision(1000, o.LNShare, 383.3, 1.3, 1.4)
			if share != c.share || !approx.Equal(avg, c.avg, 0.06, 0) {
				t.Errorf("b = %d: share %v avg %.2f, want %v %.1f", c.b, share, avg, c.share, c.avg)
			}
		}
	}
	// Nothing fits in 0.5 GB: not a candidate.
	if none := BatchScaling(opts, 0.5, 1000, 383.3, 1.3, 1.4, false); none.Fits || none.Share || !math.IsInf(none.PairJCT, 1) {
		t.Errorf("nothing fits: %+v", none)
	}
	// Only b ≤ 2 fits: sharing loses, so the job waits.
	if tight := BatchScaling(opts, 1.4, 1000, 383.3, 1.3, 1.4, false); !tight.Fits || tight.Share || tight.SubBatch != 2 {
		t.Errorf("only small sub-batches fit: %+v", tight)
	}
}

func TestTieRule(t *testing.T) {
	opts := []Option{{SubBatch: 8, LNShare: 2000, MemoryGB: 1}}
	if c := BatchScaling(opts, 10, 1000, 2000, 1.5, 1.5, false); c.Share {
		t.Error("a tie shares by default")
	}
	if c := BatchScaling(opts, 10, 1000, 2000, 1.5, 1.5, true); !c.Share {
		t.Error("tie_shares does not share on a tie")
	}
}

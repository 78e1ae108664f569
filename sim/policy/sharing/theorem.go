package sharing

import "math"

// PairDecision is Theorem 1 of the SJF-BSBF paper in the form of spec 000
// §2.5: should a new job N start now on GPUs that a running job R holds,
// or wait until R finishes? The pair's average completion time (measured
// from now) is smallest either when N starts at once (full overlap) or when
// it waits (sequential), never in between (§2.4), so comparing the two
// settles it.
//
// lR is R's remaining solo time; lnShare N's solo time with the sub-batch
// it would share with; lnSeq N's solo time with its full batch, which it
// uses if it waits (ambiguity A7); xiR and xiN (≥ 1) are the slowdowns of
// R and N while they share. Ties mean "do not share" (A3): at a uniform
// ξ = 1.5 with R finishing first the two options are equal.
func PairDecision(lR, lnShare, lnSeq, xiR, xiN float64) (share bool, avgShare, avgSeq float64) {
	sumShare, sumSeq := pairSums(lR, lnShare, lnSeq, xiR, xiN)
	return sumShare < sumSeq*(1-1e-12), sumShare / 2, sumSeq / 2
}

// pairSums returns the pair's summed completion times under full overlap
// and under waiting.
func pairSums(lR, lnShare, lnSeq, xiR, xiN float64) (sumShare, sumSeq float64) {
	m := min(xiR*lR, xiN*lnShare) // when the first of the two finishes
	// The first finisher is done at m; the other has done m/ξ of its solo
	// time and finishes the rest alone. Exactly one bracket is zero.
	sumShare = 2*m + (lR - m/xiR) + (lnShare - m/xiN)
	sumSeq = 2*lR + lnSeq
	return sumShare, sumSeq
}

// PairTimes returns when R and N finish, measured from now, if N starts
// beside R after a delay kappa in [0, lR] (kappa = lR: N waits for R).
// lN is N's solo time; the slowdowns apply while both run.
func PairTimes(lR, lN, xiR, xiN, kappa float64) (tR, tN float64) {
	kappa = min(max(kappa, 0), lR)
	leftR := lR - kappa // R's solo time left when N starts
	if leftR <= 0 {
		return lR, lR + lN
	}
	if xiR*leftR <= xiN*lN { // R finishes first
		tR = kappa + xiR*leftR
		return tR, tR + lN - xiR*leftR/xiN
	}
	tN = kappa + xiN*lN // N finishes first
	return tN + leftR - xiN*lN/xiR, tN
}

// CurvePoint is the pair's average completion time when N starts after κ.
type CurvePoint struct {
	Kappa, AvgJCT float64
}

// PairCurve samples the pair's average completion time against the delay
// κ ∈ [0, lR] at n+1 evenly spaced points: the plot of the Theorem-1 pair
// explorer (spec 000 §6.1). It is piecewise linear with its minimum at an
// end point.
func PairCurve(lR, lN, xiR, xiN float64, n int) []CurvePoint {
	n = max(n, 1)
	out := make([]CurvePoint, n+1)
	for i := range out {
		k := lR * float64(i) / float64(n)
		tR, tN := PairTimes(lR, lN, xiR, xiN, k)
		out[i] = CurvePoint{Kappa: k, AvgJCT: (tR + tN) / 2}
	}
	return out
}

// SubBatches lists the sub-batches Algorithm 2 tries for a per-GPU batch
// b: ceil(b/2^i) for i = 0, 1, ... down to 1, without repeats (A2).
func SubBatches(b int) []int {
	out := []int{max(b, 1)}
	for x := b; x > 1; {
		x = (x + 1) / 2
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// Option is one sub-batch the new job could share with.
type Option struct {
	SubBatch int
	LNShare  float64 // N's solo time at this sub-batch
	MemoryGB float64 // N's memory per GPU at this sub-batch
}

// Choice is the outcome of Algorithm 2 for one running job.
type Choice struct {
	Share    bool
	Fits     bool    // some sub-batch fits beside the running job
	SubBatch int     // the best sub-batch that fits (0 when none does)
	LNShare  float64 // N's solo time at that sub-batch
	AvgShare float64 // the pair's average JCT if N starts now
	AvgSeq   float64 // the pair's average JCT if N waits
	// PairJCT is t of Algorithm 2: AvgShare when sharing wins, else AvgSeq;
	// +Inf when nothing fits.
	PairJCT float64
}

// Benefit is how much sharing lowers the pair's average JCT.
func (c Choice) Benefit() float64 { return c.AvgSeq - c.AvgShare }

// BatchScaling is Algorithm 2 (spec 000 §3.2): among the sub-batches of
// opts (largest first, opts[0] being the full batch) that fit in memFreeGB
// beside the running job, find the one with the lowest pair JCT. lR is the
// running job's remaining solo time, lnSeq the new job's solo time with its
// full batch. With tieShares, a tie between sharing and waiting shares.
func BatchScaling(opts []Option, memFreeGB, lR, lnSeq, xiR, xiN float64, tieShares bool) Choice {
	best := Choice{PairJCT: math.Inf(1), AvgSeq: (2*lR + lnSeq) / 2}
	for _, o := range opts {
		if o.MemoryGB > memFreeGB+1e-9 {
			continue
		}
		sumShare, sumSeq := pairSums(lR, o.LNShare, lnSeq, xiR, xiN)
		share := sumShare < sumSeq*(1-1e-12)
		if tieShares {
			share = sumShare <= sumSeq*(1+1e-12)
		}
		t := sumSeq / 2
		if share {
			t = sumShare / 2
		}
		if !best.Fits || t < best.PairJCT { // strict: ties keep the larger sub-batch (A3)
			best = Choice{Share: share, Fits: true, SubBatch: o.SubBatch, LNShare: o.LNShare,
				AvgShare: sumShare / 2, AvgSeq: sumSeq / 2, PairJCT: t}
		}
	}
	return best
}

package lp

import (
	"math"
	"math/bits"
	"slices"
)

// Hypersparse solves. On Gavel's larger LPs the vectors of the dual
// method's pivots are very sparse (on Figure 12's cost LP at 512 jobs, 1,027
// rows: the pivot row's ρ has 46 nonzeros on average, the entering column
// 11), while ftran and btran sweep every front pivot (992 of them there).
// ftranSparse and btranSparse visit only the front pivots that a nonzero
// reaches, in the sweep's own order, so every operation they make is one
// the full sweep makes, on the same operands in the same order: the
// results are the same bits. A pivot they skip is one whose dividend is
// +0, where the full sweep stores +0/pivot (xZero, yZero) and changes
// nothing else.
//
// The front pivots are column singletons taken in order: the other rows of
// front pivot k's column are rows of front pivots before k (buildSparse
// checks it). So ftran, sweeping the front from the last pivot down, only
// ever marks pivots below the one it is at, and btran, sweeping up, only
// pivots above: a bit set of pending pivots, read from the top down (or
// the bottom up), gives the sweep's order without sorting.
type sparseIndex struct {
	built   bool    // for the factorisation f holds
	ok      bool    // the front's structure is as above, and m ≥ sparseMinRows (or sparseFrontMinRows)
	frontOf []int32 // row -> front pivot index, or -1
	frontAt []int32 // position -> front pivot index, or -1
	// fwdS, fwdK list, for each front pivot k, the front pivots whose
	// columns have an off-pivot entry in k's row: btran's successors.
	fwdS, fwdK []int32
	// fr holds, for each front pivot k, what a sparse sweep reads when
	// it visits k, side by side (frontRec); offK[t] is frontOf[offI[t]]
	// for the front pivots' entries, the pivot ftran's sweep marks.
	fr   []frontRec
	offK []int32
	// et indexes the product-form updates for btranEtasReached.
	et    etaIndex
	all   []int32  // 0, …, m−1
	kBits []uint64 // pending front pivots
	oBits []uint64 // positions (ftran) or rows (btran) of the result that may be nonzero
}

// sparseMinRows is the fewest rows for which the solves are sparse: on
// smaller bases (water filling's, about 90 rows) the full sweeps are short
// and the sparse ones' bookkeeping would cost as much as it saves.
const sparseMinRows = 128

// sparseFrontMinRows is the fewest rows for which the solves are sparse
// when the basis factorises into front pivots only (no nucleus, no back
// pivots). Then a solve's cost follows the pivots its nonzeros reach,
// with no dense part, and the sparse solves gain on small bases too:
// FTF's tie-break LPs at 1.2 jobs/h in Figure 10, about 68 rows, cost
// 6% fewer instructions a point, and water filling's the same. A
// variable, so that a test can force either way.
var sparseFrontMinRows = 0

// buildSparse fills f.sp from the front pivots (offPivot's lists).
func (f *factor) buildSparse() {
	sp := &f.sp
	sp.built = true
	m, nf := f.m, len(f.front)
	if sp.ok = m >= sparseMinRows || (f.nd == 0 && len(f.back) == 0 && m >= sparseFrontMinRows); !sp.ok {
		return
	}
	f.xZero, f.yZero = zeroF(f.xZero, m), zeroF(f.yZero, m)
	for _, list := range [2][]pivot{f.front, f.back} {
		for _, pv := range list {
			z := 0 / pv.val
			f.xZero[pv.pos], f.yZero[pv.row] = z, z
		}
	}
	sp.frontOf, sp.frontAt = resizeI32(sp.frontOf, m), resizeI32(sp.frontAt, m)
	for i := range sp.frontOf {
		sp.frontOf[i], sp.frontAt[i] = -1, -1
	}
	for k, pv := range f.front {
		sp.frontOf[pv.row], sp.frontAt[pv.pos] = int32(k), int32(k)
	}
	sp.fwdS = zeroI32(sp.fwdS, nf+1)
	for k := 0; k < nf; k++ {
		for t := f.offS[k]; t < f.offS[k+1]; t++ {
			k2 := sp.frontOf[f.offI[t]]
			if k2 < 0 || int(k2) >= k {
				sp.ok = false
				return
			}
			sp.fwdS[k2+1]++
		}
	}
	for k := 0; k < nf; k++ {
		sp.fwdS[k+1] += sp.fwdS[k]
	}
	sp.fwdK = resizeI32(sp.fwdK, int(sp.fwdS[nf]))
	fill := append(f.sc.fill[:0], sp.fwdS[:nf]...)
	f.sc.fill = fill
	for k := 0; k < nf; k++ {
		for t := f.offS[k]; t < f.offS[k+1]; t++ {
			k2 := sp.frontOf[f.offI[t]]
			sp.fwdK[fill[k2]] = int32(k)
			fill[k2]++
		}
	}
	sp.kBits = zeroU64(sp.kBits, (nf+63)/64)
	sp.et.reset(m)
	sp.oBits = zeroU64(sp.oBits, (m+63)/64)
	f.buildFrontRecs()
}

// frontRec is front pivot k as the sparse sweeps read it: its row,
// position and value, and the bounds of its entries in offI and offV
// (offS[k], offS[k+1]) and of its successors in fwdK (fwdS[k],
// fwdS[k+1]). One record a visit, rather than loads from five arrays
// through the factor, keeps the sweeps' loops in registers.
type frontRec struct {
	row, pos     int32
	val          float64
	offLo, offHi int32
	fwdLo, fwdHi int32
}

// buildFrontRecs fills sp.fr and sp.offK from the front pivots, offS and
// fwdS (buildSparse).
func (f *factor) buildFrontRecs() {
	sp := &f.sp
	nf := len(f.front)
	if cap(sp.fr) < nf {
		sp.fr = make([]frontRec, nf)
	}
	sp.fr = sp.fr[:nf]
	for k, pv := range f.front {
		sp.fr[k] = frontRec{row: pv.row, pos: pv.pos, val: pv.val,
			offLo: f.offS[k], offHi: f.offS[k+1], fwdLo: sp.fwdS[k], fwdHi: sp.fwdS[k+1]}
	}
	ne := int(f.offS[nf])
	sp.offK = resizeI32(sp.offK, ne)
	for t, i := range f.offI[:ne] {
		sp.offK[t] = sp.frontOf[i]
	}
}

func zeroU64(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// setBit and list are the bit sets' operations.
func setBit(b []uint64, i int32) { b[i>>6] |= 1 << (uint(i) & 63) }

// list appends the members of b to out in increasing order and empties b.
func list(b []uint64, out []int32) []int32 {
	for w, v := range b {
		if v == 0 {
			continue
		}
		b[w] = 0
		for v != 0 {
			out = append(out, int32(w<<6+bits.TrailingZeros64(v)))
			v &= v - 1
		}
	}
	return out
}

// ftranSparse is ftran (the same bits in b and x) for a right-hand side b
// that is +0 but at the rows listed in rows (repeats allowed). It returns
// in out, in increasing order, positions that include every one where x
// is not a zero (every position when the product-form updates hold more
// than etaListAbove·m entries).
func (f *factor) ftranSparse(b, x []float64, rows, out []int32) []int32 {
	if !f.sp.built {
		f.buildSparse()
	}
	if verifySparse {
		return f.verifyFtran(b, x, rows, out)
	}
	sp := &f.sp
	out = out[:0]
	if !sp.ok {
		f.ftran(b, x)
		return f.allPositions(out)
	}
	copy(x, f.xZero)
	kBits, oBits, frontOf := sp.kBits, sp.oBits, sp.frontOf
	for _, i := range rows {
		if k := frontOf[i]; k >= 0 {
			setBit(kBits, k)
		}
	}
	offS, offI, offV, nf := f.offS, f.offI, f.offV, len(f.front)
	for k, pv := range f.back {
		setBit(oBits, pv.pos)
		bv := b[pv.row]
		if math.Float64bits(bv) == 0 {
			continue
		}
		xc := bv / pv.val
		x[pv.pos] = xc
		if xc == 0 {
			continue
		}
		for t := offS[nf+k]; t < offS[nf+k+1]; t++ {
			i := offI[t]
			b[i] -= offV[t] * xc
			if k := frontOf[i]; k >= 0 {
				setBit(kBits, k)
			}
		}
	}
	if nd := f.nd; nd > 0 {
		z := f.work[:nd]
		for a := 0; a < nd; a++ {
			z[a] = b[f.nRows[a]]
		}
		f.solveNucleus(z)
		for a, p := range f.nCols {
			xc := z[a]
			x[p] = xc
			setBit(oBits, p)
			if xc == 0 {
				continue
			}
			rows, vals := f.colRows[p], f.colVals[p]
			for k, i := range rows {
				if f.kind[i] == rowFront {
					b[i] -= vals[k] * xc
					setBit(kBits, frontOf[i])
				}
			}
		}
	}
	ftranFront(sp.fr, offI, offV, sp.offK, kBits, oBits, b, x)
	if len(f.etaIdx) > etaListAbove*f.m {
		// The updates hold many more entries than x: marking each one
		// they touch would cost more than every position's visit by
		// the callers (the ratio test, the basic values, the update).
		f.ftranEtas(x)
		clear(oBits)
		return f.allPositions(out)
	}
	pos, piv, starts := f.etaPos, f.etaPiv[:len(f.etaPos)], f.etaStart[:len(f.etaPos)]
	idx := f.etaIdx
	val := f.etaVal[:len(idx)]
	for e, p := range pos {
		xp := x[p] / piv[e]
		if xp != 0 {
			// Indexed as in ftranEtas.
			end := len(idx)
			if e+1 < len(starts) {
				end = int(starts[e+1])
			}
			for t := int(starts[e]); t < end; t++ {
				i := idx[t]
				x[i] -= val[t] * xp
				setBit(oBits, i)
			}
		}
		// p is listed already where x[p] is not a zero (the front sweep
		// or an update's entries wrote it). An update whose x[p] is a
		// zero leaves a zero there (of the sign its pivot gives) and
		// does not list p: every caller skips the zeros it is given
		// (listEtaZeros).
		x[p] = xp
	}
	if listEtaZeros {
		for _, p := range pos {
			setBit(oBits, p)
		}
	}
	return list(oBits, out)
}

// listEtaZeros makes ftranSparse list the position of every product-form
// update, as it did before it listed only those where x may be nonzero: in
// FTF's tie-break LPs most updates' pivots are negative and their x[p] a
// zero, so the lists held about ten positions where α is a zero for each
// one where it is not, and the ratio test, the basic values, the kept
// basic costs and the update each visited them. Every caller skips zeros
// (of either sign), so both lists give the same operations
// (TestEtaZerosListedSameBits).
var listEtaZeros bool

// btranSparse is btran for a d that is +0 but at the positions listed in
// poss: the same bits in d and y wherever either is not a zero, a zero
// (of either sign) where both are. It returns in out, in increasing
// order, rows that include every one where y is not a zero.
//
// Zeros may differ in sign because it skips every operation whose
// operands are all zeros (an update, a front pivot that no nonzero
// reaches), where btran computes a zero whose sign follows its operands'
// (+0 − v·(−0) is +0, −0 − v·(+0) is −0, ±0 divided by a negative pivot
// flips it). Its one caller, pivotRow, skips the zeros of y, and d is
// scratch that every later user writes before reading. The nonzeros are
// the same bits: a zero subtracted from a nonzero, or a nonzero from a
// zero of either sign, is exact, so the first nonzero term of a sum
// starts it as btran's does. FTF's tie-break at 1.2 jobs/h: 57% of
// btranFront's visits were pivots at the updates' positions that
// computed a zero there (the updates' pivots are mostly negative, so
// most updates that read nothing but zeros wrote a −0), 33% found +0.
func (f *factor) btranSparse(d, y []float64, poss, out []int32) []int32 {
	if !f.sp.built {
		f.buildSparse()
	}
	if verifySparse {
		return f.verifyBtran(d, y, poss, out)
	}
	sp := &f.sp
	out = out[:0]
	if !sp.ok {
		f.btran(d, y)
		return f.allPositions(out)
	}
	kBits, oBits, frontAt := sp.kBits, sp.oBits, sp.frontAt
	if zeroSigns {
		f.btranEtas(d)
		for _, p := range f.etaPos {
			if k := frontAt[p]; k >= 0 {
				setBit(kBits, k)
			}
		}
	} else {
		f.btranEtasReached(d, poss)
	}
	copy(y, f.yZero)
	for _, p := range poss {
		if k := frontAt[p]; k >= 0 && (zeroSigns || d[p] != 0) {
			setBit(kBits, k)
		}
	}
	btranFront(sp.fr, f.offI, f.offV, sp.fwdK, kBits, oBits, d, y)
	f.btranRest(d, y)
	for _, r := range f.nRows[:f.nd] {
		setBit(oBits, r)
	}
	for _, pv := range f.back {
		setBit(oBits, pv.row)
	}
	return list(oBits, out)
}

// zeroSigns makes btranSparse give btran's zeros, signs and all, as it
// did before btranEtasReached: every update applied, and every front
// pivot at an update's position visited. A test sets it.
var zeroSigns bool

// etaIndex is the product-form updates read the other way, for
// btranEtasReached: which updates read a position, which wrote it
// before.
type etaIndex struct {
	seen   int     // the updates indexed
	rdHead []int32 // position -> the newest entry reading it, or −1
	rdNext []int32 // entry -> the next older entry reading its position, or −1
	etaOf  []int32 // entry -> its update
	wrHead []int32 // position -> the newest update at it, or −1
	wrPrev []int32 // update -> the next older update at its position, or −1
	wrRd   []int32 // update -> the newest older entry reading its position, or −1
	pend   []uint64
}

func (x *etaIndex) reset(m int) {
	x.seen = 0
	x.rdHead, x.wrHead = resizeI32(x.rdHead, m), resizeI32(x.wrHead, m)
	for i := range x.rdHead {
		x.rdHead[i], x.wrHead[i] = -1, -1
	}
	x.rdNext, x.etaOf, x.wrPrev, x.wrRd = x.rdNext[:0], x.etaOf[:0], x.wrPrev[:0], x.wrRd[:0]
}

// index adds the updates made since the last call.
func (x *etaIndex) index(f *factor) {
	pos, starts, idx := f.etaPos, f.etaStart, f.etaIdx
	for e := x.seen; e < len(pos); e++ {
		p := pos[e]
		x.wrPrev = append(x.wrPrev, x.wrHead[p])
		x.wrRd = append(x.wrRd, x.rdHead[p]) // e has no entry at p
		x.wrHead[p] = int32(e)
		end := len(idx)
		if e+1 < len(pos) {
			end = int(starts[e+1])
		}
		for t := int(starts[e]); t < end; t++ {
			i := idx[t]
			x.rdNext = append(x.rdNext, x.rdHead[i])
			x.etaOf = append(x.etaOf, int32(e))
			x.rdHead[i] = int32(t)
		}
	}
	x.seen = len(pos)
}

// mark sets in pend, after d at a position became a nonzero, the
// updates that read it: the next older update at the position (wr,
// which starts from it) and the updates between the two that have an
// entry there, listed from entry t on (the newest such entry: rdHead
// for d's own nonzeros, wrRd for an update's).
func (x *etaIndex) mark(t, wr int32) {
	for ; t >= 0; t = x.rdNext[t] {
		e := x.etaOf[t]
		if e <= wr {
			break
		}
		setBit(x.pend, e)
	}
	if wr >= 0 {
		setBit(x.pend, wr)
	}
}

// btranEtasReached is btranEtas for a d that is +0 but at the positions
// listed in poss, as btranSparse needs it: the same bits where either is
// not a zero. It applies, newest first, the updates that read a nonzero
// or start from one, as btranEtas does, and marks in kBits the front
// pivots at the positions where it writes a nonzero. Every other update
// starts from a zero and subtracts zeros: it would write a zero where
// one is.
func (f *factor) btranEtasReached(d []float64, poss []int32) {
	x := &f.sp.et
	x.index(f)
	nw := (len(f.etaPos) + 63) / 64
	if nw == 0 {
		return
	}
	x.pend = zeroU64(x.pend, nw)
	for _, i := range poss {
		if d[i] != 0 {
			x.mark(x.rdHead[i], x.wrHead[i])
		}
	}
	pos, piv, starts := f.etaPos, f.etaPiv[:len(f.etaPos)], f.etaStart[:len(f.etaPos)]
	idx := f.etaIdx
	val := f.etaVal[:len(idx)]
	pend, wrPrev, wrRd, frontAt, kBits := x.pend[:nw], x.wrPrev[:len(pos)], x.wrRd[:len(pos)], f.sp.frontAt, f.sp.kBits
	for w := nw - 1; w >= 0; w-- {
		for {
			word := pend[w]
			if word == 0 {
				break
			}
			hi := 63 - bits.LeadingZeros64(word)
			pend[w] = word &^ (1 << uint(hi))
			e := w<<6 + hi
			p := pos[e]
			end := len(idx)
			if e+1 < len(starts) {
				end = int(starts[e+1])
			}
			s := d[p]
			for t := int(starts[e]); t < end; t++ {
				s -= val[t] * d[idx[t]]
			}
			v := s / piv[e]
			d[p] = v
			if v != 0 {
				x.mark(wrRd[e], wrPrev[e])
				if k := frontAt[p]; k >= 0 {
					setBit(kBits, k)
				}
			}
		}
	}
}

// ftranFront is ftranSparse's sweep of the front, last pivot first: a
// pivot only marks pivots below it. A function of its own for its
// registers, as btranFront.
func ftranFront(fr []frontRec, offI []int32, offV []float64, offK []int32, kBits, oBits []uint64, b, x []float64) {
	offI, offV = offI[:len(offK)], offV[:len(offK)] // the front's entries
	for w := len(kBits) - 1; w >= 0; w-- {
		for {
			word := kBits[w]
			if word == 0 {
				break
			}
			hi := 63 - bits.LeadingZeros64(word)
			kBits[w] = word &^ (1 << uint(hi))
			p := &fr[w<<6+hi]
			bv := b[p.row]
			if math.Float64bits(bv) == 0 {
				continue
			}
			xc := bv / p.val
			x[p.pos] = xc
			setBit(oBits, p.pos)
			if xc == 0 {
				continue
			}
			for t, end := int(p.offLo), int(p.offHi); t < end; t++ {
				b[offI[t]] -= offV[t] * xc
				setBit(kBits, offK[t])
			}
		}
	}
}

// btranFront is btranSparse's sweep of the front, first pivot first: a
// pivot only marks pivots above it. One not marked has a dividend that is
// a zero: d is a zero at its position and every y its column reads is a
// zero (btranSparse). It is a function of its own, given only what
// it reads, so that its loops keep their slices in registers.
func btranFront(fr []frontRec, offI []int32, offV []float64, fwdK []int32, kBits, oBits []uint64, d, y []float64) {
	offV = offV[:len(offI)]
	for w := range kBits {
		for {
			word := kBits[w]
			if word == 0 {
				break
			}
			lo := bits.TrailingZeros64(word)
			kBits[w] = word & (word - 1)
			p := &fr[w<<6+lo]
			s := d[p.pos]
			// The bounds in locals, as in ftranFront: the loop read
			// p.offHi again for each entry (12 instructions an entry
			// rather than 15).
			for t, end := int(p.offLo), int(p.offHi); t < end; t++ {
				s -= offV[t] * y[offI[t]]
			}
			if math.Float64bits(s) == 0 {
				continue
			}
			v := s / p.val
			y[p.row] = v
			setBit(oBits, p.row)
			if v != 0 {
				for t, end := int(p.fwdLo), int(p.fwdHi); t < end; t++ {
					setBit(kBits, fwdK[t])
				}
			}
		}
	}
}

// etaListAbove is how many product-form entries per row make
// ftranSparse list every position rather than mark the ones the updates
// touch: its callers visit each listed position three or four times
// (FTF's tie-break LP, 185 rows, held 1.1 entries per row on average and
// listed every position in most of its pivots with a limit of 1).
var etaListAbove = 4

// verifySparse makes every sparse solve check itself against the full
// sweep (ftran, btran) on copies of its input, counting in sparseMismatches
// the solves whose results differ in any bit or whose list misses a
// nonzero or repeats one: a test sets it. sparseSmall counts the checked solves on bases of fewer than
// sparseMinRows rows (sparseFrontMinRows).
var (
	verifySparse                                 bool
	sparseChecked, sparseMismatches, sparseSmall int
	// sparseZeroSigns counts the checked btranSparse solves with a zero
	// of another sign than btran's.
	sparseZeroSigns int
)

// verifyCount counts a checked solve, and a mismatch if same is false or
// the front's records are not the arrays they copy.
func (f *factor) verifyCount(same bool) {
	sparseChecked++
	if f.sp.ok && f.m < sparseMinRows {
		sparseSmall++
	}
	if !same || (f.sp.ok && !f.frontRecsMatch()) {
		sparseMismatches++
	}
}

// frontRecsMatch reports whether sp.fr and sp.offK hold what they copy
// from the front pivots, offS, fwdS, offI and frontOf.
func (f *factor) frontRecsMatch() bool {
	sp := &f.sp
	if len(sp.fr) != len(f.front) || len(sp.offK) != int(f.offS[len(f.front)]) {
		return false
	}
	for k, pv := range f.front {
		want := frontRec{row: pv.row, pos: pv.pos, val: pv.val,
			offLo: f.offS[k], offHi: f.offS[k+1], fwdLo: sp.fwdS[k], fwdHi: sp.fwdS[k+1]}
		if sp.fr[k] != want {
			return false
		}
	}
	for t, k := range sp.offK {
		if k != sp.frontOf[f.offI[t]] {
			return false
		}
	}
	return true
}

func (f *factor) verifyFtran(b, x []float64, rows, out []int32) []int32 {
	b2, x2 := slices.Clone(b), slices.Clone(x)
	f.ftran(b2, x2)
	verifySparse = false
	out = f.ftranSparse(b, x, rows, out)
	verifySparse = true
	f.verifyCount(sameBits(b, b2) && sameBits(x, x2) && listsNonzeros(out, x))
	return out
}

func (f *factor) verifyBtran(d, y []float64, poss, out []int32) []int32 {
	d2, y2 := slices.Clone(d), slices.Clone(y)
	f.btran(d2, y2)
	verifySparse = false
	out = f.btranSparse(d, y, poss, out)
	verifySparse = true
	f.verifyCount(sameNonzeros(d, d2) && sameNonzeros(y, y2) && listsNonzeros(out, y))
	if !sameBits(d, d2) || !sameBits(y, y2) {
		sparseZeroSigns++
	}
	return out
}

// sameNonzeros reports whether a and b hold the same bits wherever
// either is not a zero, and zeros (of either sign) where both are.
func sameNonzeros(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && (a[i] != 0 || b[i] != 0) {
			return false
		}
	}
	return true
}

func sameBits(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// listsNonzeros reports whether list is increasing and holds every index
// where v is nonzero.
func listsNonzeros(list []int32, v []float64) bool {
	next := 0
	for i, x := range v {
		for next < len(list) && int(list[next]) < i {
			next++
		}
		if x != 0 && (next == len(list) || int(list[next]) != i) {
			return false
		}
	}
	for k := 1; k < len(list); k++ {
		if list[k] <= list[k-1] {
			return false
		}
	}
	return true
}

// allPositions returns 0, …, m−1 in out.
func (f *factor) allPositions(out []int32) []int32 {
	if len(f.sp.all) != f.m {
		f.sp.all = resizeI32(f.sp.all, f.m)
		for i := range f.sp.all {
			f.sp.all[i] = int32(i)
		}
	}
	return append(out[:0], f.sp.all...)
}

package lp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// btranFrontPlain is btranFront before its loops kept their bounds in
// locals (they read p.offHi and p.fwdHi again each entry): the reference.
func btranFrontPlain(fr []frontRec, offI []int32, offV []float64, fwdK []int32, kBits, oBits []uint64, d, y []float64) {
	offV = offV[:len(offI)]
	for w := range kBits {
		for {
			word := kBits[w]
			if word == 0 {
				break
			}
			lo := trailingZeros(word)
			kBits[w] = word & (word - 1)
			p := &fr[w<<6+lo]
			s := d[p.pos]
			for t := int(p.offLo); t < int(p.offHi); t++ {
				s -= offV[t] * y[offI[t]]
			}
			if math.Float64bits(s) == 0 {
				continue
			}
			v := s / p.val
			y[p.row] = v
			setBit(oBits, p.row)
			if v != 0 {
				for t := int(p.fwdLo); t < int(p.fwdHi); t++ {
					setBit(kBits, fwdK[t])
				}
			}
		}
	}
}

func trailingZeros(v uint64) int {
	n := 0
	for v&1 == 0 {
		v >>= 1
		n++
	}
	return n
}

// randomFront is a random front of nf pivots for btranFront: rows and
// positions permutations of 0, …, nf−1, each pivot's entries at rows of
// pivots before it and its successors after it (as buildSparse's), values
// with zeros of both signs, and d, y and the pending pivots to start from.
func randomFront(r *rand.Rand, nf int) (fr []frontRec, offI []int32, offV []float64, fwdK []int32, kBits []uint64, d, y []float64) {
	rows, poss := r.Perm(nf), r.Perm(nf)
	val := func() float64 {
		switch r.IntN(8) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return float64(r.IntN(5) - 2)
		}
		return r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20))
	}
	succ := make([][]int32, nf)
	for k := range nf {
		lo := int32(len(offI))
		for range r.IntN(min(k, 6) + 1) {
			if k == 0 {
				break
			}
			k2 := r.IntN(k)
			offI = append(offI, int32(rows[k2]))
			offV = append(offV, val())
			succ[k2] = append(succ[k2], int32(k))
		}
		piv := val()
		for piv == 0 {
			piv = val()
		}
		fr = append(fr, frontRec{row: int32(rows[k]), pos: int32(poss[k]), val: piv, offLo: lo, offHi: int32(len(offI))})
	}
	for k := range nf {
		fr[k].fwdLo = int32(len(fwdK))
		fwdK = append(fwdK, succ[k]...)
		fr[k].fwdHi = int32(len(fwdK))
	}
	kBits = make([]uint64, (nf+63)/64)
	d, y = make([]float64, nf), make([]float64, nf)
	for i := range nf {
		if r.IntN(3) == 0 {
			d[i] = val()
		}
		if r.IntN(2) == 0 {
			y[i] = math.Copysign(0, -1)
		}
		if r.IntN(4) == 0 {
			setBit(kBits, int32(i))
		}
	}
	return
}

// TestBtranFrontSameAsPlain runs btranFront and btranFrontPlain on random
// fronts and compares y, d, the rows set and the pending pivots left, bit
// for bit.
func TestBtranFrontSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 41))
	for round := range 3000 {
		nf := 1 + r.IntN(200)
		fr, offI, offV, fwdK, kBits, d, y := randomFront(r, nf)
		k2, d2, y2 := slices.Clone(kBits), slices.Clone(d), slices.Clone(y)
		o1, o2 := make([]uint64, len(kBits)), make([]uint64, len(kBits))
		btranFront(fr, offI, offV, fwdK, kBits, o1, d, y)
		btranFrontPlain(fr, offI, offV, fwdK, k2, o2, d2, y2)
		if !sameBits(y, y2) || !sameBits(d, d2) || !slices.Equal(o1, o2) || !slices.Equal(kBits, k2) {
			t.Fatalf("round %d (%d pivots): btranFront differs from the plain loop", round, nf)
		}
	}
}

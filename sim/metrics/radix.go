package metrics

import (
	"math"
	"slices"
)

// radixFrom is the length from which sortTimes sorts by radix: below it
// the comparison sort's smaller constant wins.
const radixFrom = 1 << 12

// sortTimes sorts xs ascending, as slices.Sort does, and returns the
// scratch space it used, to be passed again (nil at first). A long list of
// times that are not negative (JCTs, a million of them in a large run) is
// sorted by radix, on the bits of the numbers, which order as the numbers
// do: a third of the comparison sort's time, and the same sorted list
// (a list of numbers has one ascending order). Anything else (a negative
// number, -0, NaN) goes to slices.Sort.
func sortTimes(xs, scratch []float64) []float64 {
	if len(xs) < radixFrom {
		slices.Sort(xs)
		return scratch
	}
	// all is the bits that differ between numbers: a byte in which every
	// number has the same value (zero, or the top byte of times within
	// one range of exponents) is already in order by it, and skipped
	first := math.Float64bits(xs[0])
	var all uint64
	for _, x := range xs {
		b := math.Float64bits(x)
		if b>>63 != 0 || x != x { // negative, -0 or NaN
			slices.Sort(xs)
			return scratch
		}
		all |= b ^ first
	}
	if cap(scratch) < len(xs) {
		scratch = make([]float64, len(xs))
	}
	src, dst := xs, scratch[:len(xs)]
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		if (all>>shift)&0xff == 0 {
			continue // every number has 0 in this byte: already in order by it
		}
		clear(count[:])
		for _, x := range src {
			count[(math.Float64bits(x)>>shift)&0xff]++
		}
		at := 0
		for i, n := range count {
			count[i] = at
			at += n
		}
		for _, x := range src {
			k := (math.Float64bits(x) >> shift) & 0xff
			dst[count[k]] = x
			count[k]++
		}
		src, dst = dst, src
	}
	if &src[0] != &xs[0] {
		copy(xs, src)
	}
	return scratch
}

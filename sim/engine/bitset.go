package engine

import "math/bits"

// idSet is a set of small non-negative integers that iterates in ascending
// order. lo is a lower bound on the smallest member's word, kept so that
// iteration over a sliding window (pending jobs in arrival order) does not
// rescan the words before it.
type idSet struct {
	words []uint64
	n     int
	lo    int
}

func newIDSet(size int) idSet { return idSet{words: make([]uint64, (size+63)/64)} }

func (s *idSet) add(i int) {
	w := i >> 6
	if s.words[w]&(1<<(i&63)) == 0 {
		s.words[w] |= 1 << (i & 63)
		s.n++
		if s.n == 1 || w < s.lo {
			s.lo = w
		}
	}
}

func (s *idSet) remove(i int) {
	w := i >> 6
	if s.words[w]&(1<<(i&63)) != 0 {
		s.words[w] &^= 1 << (i & 63)
		s.n--
	}
}

func (s *idSet) has(i int) bool { return s.words[i>>6]&(1<<(i&63)) != 0 }

// each calls fn on members in ascending order until fn returns false.
func (s *idSet) each(fn func(i int) bool) {
	if s.n == 0 {
		return
	}
	for s.lo < len(s.words) && s.words[s.lo] == 0 {
		s.lo++
	}
	seen := 0
	for w := s.lo; w < len(s.words) && seen < s.n; w++ {
		x := s.words[w]
		for x != 0 {
			b := bits.TrailingZeros64(x)
			x &= x - 1
			seen++
			if !fn(w<<6 | b) {
				return
			}
		}
	}
}

package policy

import "math/bits"

// IDSet is a set of job IDs (small non-negative integers) that iterates in
// ascending order, i.e. in arrival order. Adding, removing and testing
// are O(1); iterating skips empty stretches a word (64 IDs) at a time, so
// a policy can keep a long pending queue in arrival order without sorting
// it at every decision.
type IDSet struct {
	words  []uint64
	n      int
	lo, hi int // every member lies in words lo to hi
}

// NewIDSet returns an empty set for IDs below size.
func NewIDSet(size int) IDSet { return IDSet{words: make([]uint64, (size+63)/64)} }

// Len is the number of members.
func (s *IDSet) Len() int { return s.n }

// Add inserts i.
func (s *IDSet) Add(i int) {
	w := i >> 6
	if s.words[w]&(1<<(i&63)) == 0 {
		s.words[w] |= 1 << (i & 63)
		s.n++
		if s.n == 1 {
			s.lo, s.hi = w, w
		}
		s.lo, s.hi = min(s.lo, w), max(s.hi, w)
	}
}

// Remove deletes i.
func (s *IDSet) Remove(i int) {
	w := i >> 6
	if s.words[w]&(1<<(i&63)) != 0 {
		s.words[w] &^= 1 << (i & 63)
		s.n--
	}
}

// Has reports whether i is a member.
func (s *IDSet) Has(i int) bool { return s.words[i>>6]&(1<<(i&63)) != 0 }

// Each calls fn on the members in ascending order until fn returns false.
// fn may remove the member it is given, but must not add any.
func (s *IDSet) Each(fn func(i int) bool) {
	if s.n == 0 {
		return
	}
	for s.lo < len(s.words) && s.words[s.lo] == 0 {
		s.lo++
	}
	for s.hi > s.lo && s.words[s.hi] == 0 {
		s.hi--
	}
	for w := s.lo; w <= s.hi; w++ {
		x := s.words[w]
		for x != 0 {
			b := bits.TrailingZeros64(x)
			x &= x - 1
			if !fn(w<<6 | b) {
				return
			}
		}
	}
}

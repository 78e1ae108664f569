package workload

import (
	"sort"
	"strconv"
	"strings"
)

// numberNames names each job by its index: jobs[i] gets prefix followed
// by first+i in decimal, as fmt.Sprintf("%s%d", prefix, first+i) would
// write it. Every name is a slice of one string, so a million jobs cost
// one allocation instead of a million small ones (which the collector
// would then scan at every cycle). Names made this way are unique, so
// the generators that use it finalize with finalizeNumbered, without
// Finalize's map of every name.
func numberNames(jobs []Job, prefix string, first int) {
	if len(jobs) == 0 {
		return
	}
	if first < 0 {
		numberNamesSigned(jobs, prefix, first)
		return
	}
	// The number is kept as decimal digits and counted up in place, right
	// aligned in digits[lo:]: no formatting or division per job (formatting
	// was most of the naming, which was a fifth of generating a Poisson
	// workload).
	var digits [20]byte
	lo := len(strconv.AppendInt(digits[:0], int64(first), 10))
	copy(digits[len(digits)-lo:], digits[:lo])
	lo = len(digits) - lo
	var b strings.Builder
	b.Grow(len(jobs) * (len(prefix) + decimalLen(first+len(jobs)-1)))
	for range jobs {
		b.WriteString(prefix)
		b.Write(digits[lo:])
		i := len(digits) - 1
		for i >= lo && digits[i] == '9' {
			digits[i] = '0'
			i--
		}
		if i < lo {
			lo = i
			digits[i] = '1'
		} else {
			digits[i]++
		}
	}
	all, at := b.String(), 0
	n, next := len(prefix)+decimalLen(first), tenTo(decimalLen(first))
	for i := range jobs {
		if first+i == next { // one digit more from here on
			n++
			next *= 10
		}
		jobs[i].Name = all[at : at+n]
		at += n
	}
}

// tenTo is 10**k.
func tenTo(k int) int {
	x := 1
	for range k {
		x *= 10
	}
	return x
}

// numberNamesSigned is numberNames formatting each number.
func numberNamesSigned(jobs []Job, prefix string, first int) {
	var b strings.Builder
	b.Grow(len(jobs) * (len(prefix) + 1 + len(strconv.Itoa(first))))
	var digits [20]byte
	for i := range jobs {
		b.WriteString(prefix)
		b.Write(strconv.AppendInt(digits[:0], int64(first+i), 10))
	}
	all, at := b.String(), 0
	for i := range jobs {
		n := len(prefix) + decimalLen(first+i)
		jobs[i].Name = all[at : at+n]
		at += n
	}
}

// decimalLen is the number of characters of x in decimal.
func decimalLen(x int) int {
	n := 1
	if x < 0 {
		n, x = 2, -x
	}
	for ; x >= 10; x /= 10 {
		n++
	}
	return n
}

// finalizeNumbered is Finalize for jobs named by numberNames, whose names
// are unique by construction: it sorts and numbers them without checking
// the names.
func finalizeNumbered(jobs []Job) ([]Job, error) {
	sortByArrival(jobs)
	for i := range jobs {
		jobs[i].ID = JobID(i)
	}
	return jobs, nil
}

// sortByArrival sorts jobs by arrival, stably. Generated arrivals are
// usually in order already, and checking costs a fraction of a sort
// (sort.SliceStable swaps whole jobs through reflection). The check
// falls back to the sort at a NaN, whose order only the sort defines.
func sortByArrival(jobs []Job) {
	for i := 1; i < len(jobs); i++ {
		if !(jobs[i-1].ArrivalS <= jobs[i].ArrivalS) {
			sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].ArrivalS < jobs[b].ArrivalS })
			return
		}
	}
}

// Package hugepages makes large slices whose memory the operating system
// may back with huge pages. Memory a process writes for the first time
// costs it a page fault per page, and on some machines (virtual ones
// above all) that is most of the work of a run that writes a large slice
// once: a million jobs' descriptions, say. Where transparent huge pages
// are enabled only for memory that asks for them (Linux's "madvise"
// setting, common on servers), asking for them takes a fault per 2 MB
// instead of per 4 KB. Go's own heap does not ask. Elsewhere, and for
// small slices, Make is make.
package hugepages

import "unsafe"

// Threshold is the size in bytes from which Make asks for huge pages: a
// slice smaller than two of them gains little.
const Threshold = 4 << 20

// hugePage is the size of a huge page on the platforms that ask.
const hugePage = 2 << 20

// Make returns make([]T, n), asking for huge pages when it takes at least
// Threshold bytes. The advice concerns the whole 2 MB pages inside the
// slice, which hold nothing else.
func Make[T any](n int) []T {
	s := make([]T, n)
	var zero T
	if size := uintptr(n) * unsafe.Sizeof(zero); n > 0 && size >= Threshold {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
		from := (start + hugePage - 1) &^ (hugePage - 1)
		to := (start + size) &^ (hugePage - 1)
		if to > from {
			advise(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), from-start), to-from)
		}
	}
	return s
}

package hugepages

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a huge page on the platforms that ask.
const hugePage = 2 << 20

// Make returns make([]T, n), asking for huge pages when it takes at least
// Threshold bytes. The advice concerns the whole 2 MB pages inside the
// slice, which hold nothing else. A kernel without transparent huge pages
// refuses it; nothing changes then.
func Make[T any](n int) []T {
	s := make([]T, n)
	var zero T
	if size := uintptr(n) * unsafe.Sizeof(zero); n > 0 && size >= Threshold {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
		from := (start + hugePage - 1) &^ (hugePage - 1)
		to := (start + size) &^ (hugePage - 1)
		if to > from {
			p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), from-start)
			_ = syscall.Madvise(unsafe.Slice((*byte)(p), to-from), syscall.MADV_HUGEPAGE)
		}
	}
	return s
}

package hugepages

import (
	"syscall"
	"unsafe"
)

// advise asks for huge pages for n bytes at p (both multiples of 2 MB).
// A kernel without transparent huge pages refuses; nothing changes then.
func advise(p unsafe.Pointer, n uintptr) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}

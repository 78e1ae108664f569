//go:build !linux

package hugepages

import "unsafe"

// advise does nothing here: no portable way to ask for huge pages.
func advise(unsafe.Pointer, uintptr) {}

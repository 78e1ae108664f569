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

// Threshold is the size in bytes from which Make asks for huge pages: a
// slice smaller than two of them gains little.
const Threshold = 4 << 20

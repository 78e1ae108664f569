//go:build !linux

package hugepages

// Make is make([]T, n): there is no portable way to ask for huge pages
// (in WebAssembly none at all), and a plain make keeps the module small.
func Make[T any](n int) []T { return make([]T, n) }

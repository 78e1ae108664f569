package app

import (
	"testing"

	"github.com/schedlab/schedlab/web/protocol"
)

// Each way a Go program or a browser words running out of memory is read
// as such; other deaths keep Go's own line.
func TestDeathCause(t *testing.T) {
	for _, c := range []struct {
		output, want string
	}{
		{"runtime: out of memory: cannot allocate 4194304-byte block\nfatal error: out of memory\n", "out of memory"},
		{"fatal error: runtime: cannot allocate memory\n\ngoroutine 1 [running]:\n", "out of memory"},
		{"RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded", "out of memory"},
		{"panic: index out of range [3] with length 2\n\ngoroutine 1 [running]:\n", "panic: index out of range [3] with length 2"},
		{"", "its Go program exited with code 2"},
	} {
		m := protocol.NewMessage(protocol.TypeExit, 0, protocol.Exit{Code: 2, Output: c.output})
		if got := deathCause(m); got != c.want {
			t.Errorf("%q: got %q, want %q", c.output, got, c.want)
		}
	}
}

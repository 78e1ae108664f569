package main

import (
	"fmt"
	"io"
)

// safeWriter escapes control characters on their way to the terminal, so
// that a name, label or message from a scenario can neither recolour nor
// clear it (an ESC sequence in a policy label prints as \u001b[...).
// Newlines and tabs pass; every other C0 control, DEL and the C1 controls
// (U+0080–U+009F) print as \uXXXX, which inside a JSON string is the same
// character, so JSON output stays valid and means the same.
type safeWriter struct {
	w    io.Writer
	lead bool // the last byte written was 0xC2, the first of a C1 control
}

// needsCare are the bytes Write may change: C0 controls but newline and
// tab, DEL, and 0xC2 (the lead byte of a C1 control).
var needsCare = func() (t [256]bool) {
	for b := range 0x20 {
		t[b] = b != '\n' && b != '\t'
	}
	t[0x7F], t[0xC2] = true, true
	return t
}()

func (s *safeWriter) Write(p []byte) (int, error) {
	if !s.lead && clean(p) {
		// Nearly all output (45 MB of JSON for a 100,000-job run): passed
		// on without a copy.
		if _, err := s.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	out := make([]byte, 0, len(p)+16)
	for _, b := range p {
		if s.lead {
			s.lead = false
			if b >= 0x80 && b <= 0x9F {
				out = fmt.Appendf(out, `\u%04x`, b)
				continue
			}
			out = append(out, 0xC2)
		}
		switch {
		case b == 0xC2:
			s.lead = true
		case b == '\n' || b == '\t':
			out = append(out, b)
		case b < 0x20 || b == 0x7F:
			out = fmt.Appendf(out, `\u%04x`, b)
		default:
			out = append(out, b)
		}
	}
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// clean reports whether p has no byte that Write would change.
//
// It is kept out of Write: in WebAssembly, V8 charges each turn of a
// loop with the size of the whole function it is in, so the loop inlined
// into Write had V8's optimising compiler compile all of Write after one
// pass over the few kilobytes of `schedlab help`; on its own the loop's
// function is small, and is compiled only when the output is large.
//
//go:noinline
func clean(p []byte) bool {
	for _, b := range p {
		if needsCare[b] {
			return false
		}
	}
	return true
}

// Flush writes a 0xC2 held back at the very end of the output.
func (s *safeWriter) Flush() {
	if s.lead {
		s.lead = false
		s.w.Write([]byte{0xC2})
	}
}

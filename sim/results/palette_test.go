package results

import (
	"fmt"
	"testing"
)

// KeyColor is FNV-1a (32 bits) of the key modulo the palette size, so a
// job keeps its colour across figures, runs, the CLI and the page; the
// expected entries were computed by hand from that definition. The key is
// also built at run time, so that the colour cannot depend on where the
// string is stored.
func TestKeyColor(t *testing.T) {
	want := map[string]int{"job-17": 3, "FIFO": 7, "SJF": 2, "job0": 4, "": 5}
	for key, i := range want {
		if got := KeyColor(key); got != palette[i] {
			t.Errorf("KeyColor(%q) = %v, want palette entry %d (%v)", key, got, i, palette[i])
		}
		built := string(append([]byte(nil), key...))
		if KeyColor(built) != KeyColor(key) {
			t.Errorf("KeyColor(%q) depends on the string's storage", key)
		}
	}
	seen := map[[4]uint8]bool{}
	for i := range 100 {
		c := KeyColor(fmt.Sprintf("job%d", i))
		seen[[4]uint8{c.R, c.G, c.B, c.A}] = true
	}
	if len(seen) < PaletteSize-1 {
		t.Errorf("100 keys use only %d colours", len(seen))
	}
}

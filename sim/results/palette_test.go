package results

import (
	"fmt"
	"image/color"
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

// Different keys never share a colour: up to PaletteSize each has its own,
// given in name order whatever the order of the jobs; beyond, the less
// common keys are drawn in Other, never in a colour of a named key.
func TestKeyPalette(t *testing.T) {
	kp := NewKeyPalette([]string{"vgg16", "resnet50", "vgg16", "bert"})
	if fmt.Sprint(kp.Keys) != "[bert resnet50 vgg16]" || kp.HasOther {
		t.Fatalf("keys %v, other %v", kp.Keys, kp.HasOther)
	}
	for i, k := range kp.Keys {
		if kp.Color(k) != palette[i] {
			t.Errorf("%s: colour %v, want palette entry %d", k, kp.Color(k), i)
		}
	}
	var many []string
	for i := range 12 {
		for range 12 - i { // m0 the most common
			many = append(many, fmt.Sprintf("m%02d", i))
		}
	}
	kp = NewKeyPalette(many)
	if !kp.HasOther || len(kp.Keys) != PaletteSize-1 {
		t.Fatalf("12 keys: %d with their own colour, other %v", len(kp.Keys), kp.HasOther)
	}
	seen := map[color.RGBA]string{}
	for i := range 12 {
		k := fmt.Sprintf("m%02d", i)
		c := kp.Color(k)
		if i < PaletteSize-1 {
			if prev, ok := seen[c]; ok || c == Other {
				t.Errorf("%s shares its colour with %q", k, prev)
			}
			seen[c] = k
		} else if c != Other {
			t.Errorf("%s, among the least common, has colour %v, want Other", k, c)
		}
	}
	if DarkText(Other) {
		t.Error("white text should read on Other")
	}
}

package results

import (
	"hash/fnv"
	"image/color"
	"math"
	"slices"
	"strings"
)

// palette is the Okabe-Ito palette, distinguishable under the common forms
// of colour blindness. The order puts the strongest contrasts on white
// first, since most figures have only two to four series; yellow, weakest on
// white, comes last but one. The plots (sim/plot) and the page's timeline
// grid (web/app) both take their colours from here, so a job or a policy
// has one colour everywhere.
var palette = [...]color.RGBA{
	{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, // blue
	{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
	{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
	{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
	{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}, // orange
	{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}, // sky blue
	{R: 0xF0, G: 0xE4, B: 0x42, A: 0xFF}, // yellow
	{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}, // black
}

// PaletteSize is the number of distinct colours SeriesColor and KeyColor
// cycle through.
const PaletteSize = len(palette)

// SeriesColor returns the colour of the i-th series of a figure (policies
// in their scenario order). It cycles after PaletteSize.
func SeriesColor(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return palette[i%PaletteSize]
}

// KeyColor returns the colour of a key (a job's name): FNV-1a of the key
// modulo the palette size, so a job keeps its colour across figures and
// in the page's timeline.
func KeyColor(key string) color.RGBA {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key)) // hash.Hash never returns an error
	return palette[h.Sum32()%uint32(PaletteSize)]
}

// DarkText reports whether black text reads better than white on bg: it
// has the higher WCAG contrast ratio, (L+0.05)/0.05 against 1.05/(L+0.05),
// which holds above a luminance of √0.0525−0.05 ≈ 0.179. (White on the
// palette's vermillion and reddish purple reads at only 3.9:1 and 3.1:1;
// black at 5.4:1 and 6.9:1.)
func DarkText(bg color.Color) bool { return Luminance(bg) > darkTextAbove }

var darkTextAbove = math.Sqrt(0.0525) - 0.05

// Luminance is the relative luminance (WCAG) of c, in [0, 1].
func Luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// CSSColor writes c as a CSS hex colour, e.g. "#0072b2".
func CSSColor(c color.RGBA) string {
	const hex = "0123456789abcdef"
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i, v := range []uint8{c.R, c.G, c.B} {
		b[1+2*i], b[2+2*i] = hex[v>>4], hex[v&15]
	}
	return string(b)
}

// Other is the colour of the keys a KeyPalette has no colour of their own
// for: a mid grey on which white text reads at 4.5:1.
var Other = color.RGBA{R: 0x6B, G: 0x6B, B: 0x6B, A: 0xFF}

// OtherName is the legend's name for the keys drawn in Other.
const OtherName = "other"

// KeyPalette colours a set of keys (the models of a run's jobs) so that
// different keys never share a colour: each key has its own while there are
// at most PaletteSize of them; beyond that the PaletteSize-1 most common
// keep theirs and the rest are drawn in Other. Colours go to keys in name
// order, so the same set of keys always gets the same colours.
type KeyPalette struct {
	colors map[string]color.RGBA
	// Keys are the keys with their own colour, in name order; HasOther
	// tells whether any key is drawn in Other.
	Keys     []string
	HasOther bool
}

// NewKeyPalette builds the palette of keys, which may repeat (one per job):
// repetitions count towards a key being common.
func NewKeyPalette(keys []string) *KeyPalette {
	count := map[string]int{}
	var distinct []string
	for _, k := range keys {
		if count[k] == 0 {
			distinct = append(distinct, k)
		}
		count[k]++
	}
	kp := &KeyPalette{colors: map[string]color.RGBA{}}
	if len(distinct) > PaletteSize {
		slices.SortStableFunc(distinct, func(a, b string) int {
			if c := count[b] - count[a]; c != 0 {
				return c
			}
			return strings.Compare(a, b)
		})
		distinct = distinct[:PaletteSize-1]
		kp.HasOther = true
	}
	slices.Sort(distinct)
	for i, k := range distinct {
		kp.colors[k] = palette[i]
	}
	kp.Keys = distinct
	return kp
}

// Color is the colour of key.
func (kp *KeyPalette) Color(key string) color.RGBA {
	if c, ok := kp.colors[key]; ok {
		return c
	}
	return Other
}

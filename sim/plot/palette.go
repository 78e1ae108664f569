package plot

import (
	"hash/fnv"
	"image/color"
	"math"
)

// okabeIto is the Okabe-Ito palette, distinguishable under the common forms
// of colour blindness. The order puts the strongest contrasts on white
// first, since most figures have only two to four series; yellow, weakest on
// white, comes last but one.
var okabeIto = [...]color.RGBA{
	{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, // blue
	{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
	{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
	{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
	{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}, // orange
	{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}, // sky blue
	{R: 0xF0, G: 0xE4, B: 0x42, A: 0xFF}, // yellow
	{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}, // black
}

// PaletteSize is the number of distinct colours SeriesColor cycles through.
const PaletteSize = len(okabeIto)

// SeriesColor returns the colour of the i-th series (i >= 0) of a figure,
// so that a page can draw matching swatches. It cycles after PaletteSize.
func SeriesColor(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return okabeIto[i%PaletteSize]
}

// KeyColor returns the colour Gantt uses for a key (e.g. a job name). It
// depends only on the key, so a job keeps its colour across figures.
func KeyColor(key string) color.RGBA {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key)) // hash.Hash never returns an error
	return okabeIto[h.Sum32()%uint32(PaletteSize)]
}

// textColorOn picks black or white, whichever reads better on bg.
func textColorOn(bg color.Color) color.Color {
	if luminance(bg) > 0.4 {
		return color.Black
	}
	return color.White
}

// luminance is the relative luminance (WCAG) of c, in [0, 1].
func luminance(c color.Color) float64 {
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

// heatRamp is a sequential yellow-green-blue ramp (ColorBrewer YlGnBu
// anchors): monotone in lightness, so it reads in grey scale and for
// colour-blind readers.
var heatRamp = [...]color.RGBA{
	{R: 0xFF, G: 0xFF, B: 0xD9, A: 0xFF},
	{R: 0xC7, G: 0xE9, B: 0xB4, A: 0xFF},
	{R: 0x41, G: 0xB6, B: 0xC4, A: 0xFF},
	{R: 0x22, G: 0x5E, B: 0xA8, A: 0xFF},
	{R: 0x08, G: 0x1D, B: 0x58, A: 0xFF},
}

// heatColor maps t in [0, 1] onto heatRamp by linear interpolation.
func heatColor(t float64) color.RGBA {
	t = math.Max(0, math.Min(1, t))
	pos := t * float64(len(heatRamp)-1)
	i := int(pos)
	if i >= len(heatRamp)-1 {
		return heatRamp[len(heatRamp)-1]
	}
	f := pos - float64(i)
	a, b := heatRamp[i], heatRamp[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	return color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 0xFF}
}

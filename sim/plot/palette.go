package plot

import (
	"image/color"
	"math"

	"github.com/schedlab/schedlab/sim/results"
)

// The series and job colours are sim/results' palette (results.SeriesColor,
// results.KeyColor), shared with the page's timeline grid.

// textColorOn picks black or white, whichever reads better on bg.
func textColorOn(bg color.Color) color.Color {
	if results.DarkText(bg) {
		return color.Black
	}
	return color.White
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

package results

import (
	"image/color"
	"testing"
)

// Text on every palette colour (job labels in the Gantt charts and the
// page's timeline grid) meets WCAG AA's 4.5:1 contrast.
func TestTextContrastOnPalette(t *testing.T) {
	ratio := func(a, b color.Color) float64 {
		la, lb := Luminance(a), Luminance(b)
		return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
	}
	for i := range PaletteSize {
		bg := SeriesColor(i)
		var fg color.Color = color.White
		if DarkText(bg) {
			fg = color.Black
		}
		if r := ratio(bg, fg); r < 4.5 {
			t.Errorf("%s: text contrast %.2f:1, below 4.5:1", CSSColor(bg), r)
		}
	}
}

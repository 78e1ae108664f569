// Package ttf names the fonts of a LaTeX layout; in schedlab's builds no
// layout is ever made, so it parses no font of its own (see package
// latex).
package ttf // import "codeberg.org/go-latex/latex/font/ttf"

import (
	"golang.org/x/image/font/sfnt"

	"codeberg.org/go-latex/latex/drawtex"
)

// Fonts are the faces of a layout.
type Fonts struct {
	Default *sfnt.Font

	Rm   *sfnt.Font
	It   *sfnt.Font
	Bf   *sfnt.Font
	BfIt *sfnt.Font
}

// Backend lays out glyphs onto a canvas.
type Backend struct {
	canvas *drawtex.Canvas
	fonts  *Fonts
}

// NewFrom returns a backend drawing onto cnv with fnts.
func NewFrom(cnv *drawtex.Canvas, fnts *Fonts) *Backend {
	return &Backend{canvas: cnv, fonts: fnts}
}

// Package drawtex holds the drawing operations of a LaTeX layout; in
// schedlab's builds no layout is ever made (see package latex).
package drawtex // import "codeberg.org/go-latex/latex/drawtex"

import "golang.org/x/image/font/sfnt"

// Canvas records drawing operations.
type Canvas struct{ ops []Op }

// New returns an empty canvas.
func New() *Canvas { return &Canvas{} }

// Ops returns the recorded operations (none).
func (c *Canvas) Ops() []Op { return c.ops }

// Op is a drawing operation.
type Op interface{ isOp() }

// GlyphOp draws a glyph at (X, Y).
type GlyphOp struct {
	X, Y  float64
	Glyph Glyph
}

func (GlyphOp) isOp() {}

// RectOp fills a rectangle.
type RectOp struct {
	X1, Y1 float64
	X2, Y2 float64
}

func (RectOp) isOp() {}

// Glyph is one symbol in one font.
type Glyph struct {
	Font   *sfnt.Font
	Size   float64
	Symbol string
}

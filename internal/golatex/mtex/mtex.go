// Package mtex parses LaTeX math; in schedlab's builds it refuses every
// expression (see package latex).
package mtex // import "codeberg.org/go-latex/latex/mtex"

import (
	"errors"

	"codeberg.org/go-latex/latex/drawtex"
	"codeberg.org/go-latex/latex/font/ttf"
	"codeberg.org/go-latex/latex/tex"
)

// ErrNoLatex is what Parse says.
var ErrNoLatex = errors.New("LaTeX text is not available in schedlab's builds: draw text with gonum's text.Plain handler")

// Parse refuses expr.
func Parse(expr string, fontSize, DPI float64, backend *ttf.Backend) (tex.Node, error) {
	return nil, ErrNoLatex
}

// Renderer draws a laid-out expression.
type Renderer interface {
	Render(w, h, dpi float64, cnv *drawtex.Canvas) error
}

// Package latex stands in for codeberg.org/go-latex/latex in schedlab's
// builds (see the replace directive in schedlab's go.mod).
//
// gonum/plot's text package offers a LaTeX text handler (text.Latex)
// built on go-latex, whose font package parses four Go fonts when the
// program starts, about 0.6 MB of font data in every binary that plots.
// schedlab draws all its text with text.Plain (sim/plot), so this module
// keeps only what text.Latex compiles against: its Parse refuses every
// expression, and a figure given the LaTeX handler fails to render with
// that error rather than drawing something else.
package latex // import "codeberg.org/go-latex/latex"

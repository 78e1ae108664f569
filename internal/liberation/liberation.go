// Package liberation stands in for codeberg.org/go-fonts/liberation in
// schedlab's builds (see the replace directive in schedlab's go.mod).
//
// gonum/plot registers all twelve Liberation faces when it starts, about
// 4.4 MB of font data, so every binary that draws a figure would carry
// them (the page's module, schedlab.wasm, and the CLI), and it parses
// them all at start, whether or not a figure is ever drawn. schedlab's
// figures draw with two faces, Liberation Sans Regular and Liberation
// Sans Bold (sim/plot's sansFont), which sim/plot takes from
// github.com/go-fonts/liberation v0.3.3 (byte for byte the files of the
// original module, at its earlier home) and parses when it draws its
// first figure. Each of the twelve faces here holds the Placeholder
// font instead, 416 bytes, so that gonum's start costs next to nothing.
// A figure that asked for any face but those two would be drawn with no
// glyphs; sim/plot's TestFiguresUseTwoFaces fails if one does.
package liberation // import "codeberg.org/go-fonts/liberation"

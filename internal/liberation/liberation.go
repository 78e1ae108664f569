// Package liberation stands in for codeberg.org/go-fonts/liberation in
// schedlab's builds (see the replace directive in schedlab's go.mod).
//
// gonum/plot registers all twelve Liberation faces when it starts, about
// 4.4 MB of font data, so every binary that draws a figure would carry
// them: the page's module (schedlab.wasm) and the CLI. schedlab's figures
// draw with two faces, Liberation Sans Regular and Liberation Sans Bold
// (sim/plot's sansFont). This module provides those two, byte for byte
// the files of the original module (taken from its earlier home,
// github.com/go-fonts/liberation v0.3.3), and gives each of the ten
// faces schedlab never draws with the data of the Sans face of its
// weight, so that they cost nothing. A figure that asked for Liberation
// Serif or Mono would therefore be drawn in Sans; sim/plot's
// TestFiguresUseTwoFaces fails if one does.
package liberation // import "codeberg.org/go-fonts/liberation"

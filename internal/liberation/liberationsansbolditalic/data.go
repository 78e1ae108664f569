// Package liberationsansbolditalic stands in for the "LiberationSans
// BoldItalic" face: it holds the placeholder font, not the face (see
// package liberation). gonum/plot parses it when it starts; sim/plot
// draws with the real Liberation Sans faces, parsed when it draws its
// first figure.
package liberationsansbolditalic // import "codeberg.org/go-fonts/liberation/liberationsansbolditalic"

import "codeberg.org/go-fonts/liberation"

// TTF is the data of the placeholder font.
var TTF = []byte(liberation.Placeholder)

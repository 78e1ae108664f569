// Package liberationsansitalic stands in for the "LiberationSans Italic"
// face: it holds the placeholder font, not the face (see package
// liberation). gonum/plot parses it when it starts; sim/plot draws with
// the real Liberation Sans faces, parsed when it draws its first figure.
package liberationsansitalic // import "codeberg.org/go-fonts/liberation/liberationsansitalic"

import "codeberg.org/go-fonts/liberation"

// TTF is the data of the placeholder font.
var TTF = []byte(liberation.Placeholder)

// Package liberationmonobolditalic stands in for the "LiberationMono
// BoldItalic" face, which schedlab's figures never use: it holds the
// data of Liberation Sans Bold (see package liberation).
package liberationmonobolditalic // import "codeberg.org/go-fonts/liberation/liberationmonobolditalic"

import upstream "github.com/go-fonts/liberation/liberationsansbold"

// TTF is the data of Liberation Sans Bold.
var TTF = upstream.TTF

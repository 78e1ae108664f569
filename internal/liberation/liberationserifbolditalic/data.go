// Package liberationserifbolditalic stands in for the "LiberationSerif
// BoldItalic" face, which schedlab's figures never use: it holds the
// data of Liberation Sans Bold (see package liberation).
package liberationserifbolditalic // import "codeberg.org/go-fonts/liberation/liberationserifbolditalic"

import upstream "github.com/go-fonts/liberation/liberationsansbold"

// TTF is the data of Liberation Sans Bold.
var TTF = upstream.TTF

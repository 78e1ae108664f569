// Package liberationsansbolditalic stands in for the "LiberationSans
// BoldItalic" face, which schedlab's figures never use: it holds the
// data of Liberation Sans Bold (see package liberation).
package liberationsansbolditalic // import "codeberg.org/go-fonts/liberation/liberationsansbolditalic"

import upstream "github.com/go-fonts/liberation/liberationsansbold"

// TTF is the data of Liberation Sans Bold.
var TTF = upstream.TTF

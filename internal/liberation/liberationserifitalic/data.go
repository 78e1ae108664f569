// Package liberationserifitalic stands in for the "LiberationSerif
// Italic" face, which schedlab's figures never use: it holds the data of
// Liberation Sans Regular (see package liberation).
package liberationserifitalic // import "codeberg.org/go-fonts/liberation/liberationserifitalic"

import upstream "github.com/go-fonts/liberation/liberationsansregular"

// TTF is the data of Liberation Sans Regular.
var TTF = upstream.TTF

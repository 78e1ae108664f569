// Package liberationserifregular stands in for the "LiberationSerif
// Regular" face, which schedlab's figures never use: it holds the data
// of Liberation Sans Regular (see package liberation).
package liberationserifregular // import "codeberg.org/go-fonts/liberation/liberationserifregular"

import upstream "github.com/go-fonts/liberation/liberationsansregular"

// TTF is the data of Liberation Sans Regular.
var TTF = upstream.TTF

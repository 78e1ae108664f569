// Package liberationmonoregular stands in for the "LiberationMono
// Regular" face, which schedlab's figures never use: it holds the data
// of Liberation Sans Regular (see package liberation).
package liberationmonoregular // import "codeberg.org/go-fonts/liberation/liberationmonoregular"

import upstream "github.com/go-fonts/liberation/liberationsansregular"

// TTF is the data of Liberation Sans Regular.
var TTF = upstream.TTF

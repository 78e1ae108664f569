// Package liberationsansregular provides the "LiberationSans Regular"
// TrueType font, one of the two faces schedlab's figures draw with (see
// package liberation).
package liberationsansregular // import "codeberg.org/go-fonts/liberation/liberationsansregular"

import upstream "github.com/go-fonts/liberation/liberationsansregular"

// TTF is the data of the "LiberationSans Regular" TrueType font.
var TTF = upstream.TTF

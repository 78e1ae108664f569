// Package liberationserifbold stands in for the "LiberationSerif Bold"
// face, which schedlab's figures never use: it holds the data of
// Liberation Sans Bold (see package liberation).
package liberationserifbold // import "codeberg.org/go-fonts/liberation/liberationserifbold"

import upstream "github.com/go-fonts/liberation/liberationsansbold"

// TTF is the data of Liberation Sans Bold.
var TTF = upstream.TTF

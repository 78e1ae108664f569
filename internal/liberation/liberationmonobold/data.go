// Package liberationmonobold stands in for the "LiberationMono Bold"
// face, which schedlab's figures never use: it holds the data of
// Liberation Sans Bold (see package liberation).
package liberationmonobold // import "codeberg.org/go-fonts/liberation/liberationmonobold"

import upstream "github.com/go-fonts/liberation/liberationsansbold"

// TTF is the data of Liberation Sans Bold.
var TTF = upstream.TTF

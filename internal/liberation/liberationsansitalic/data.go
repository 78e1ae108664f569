// Package liberationsansitalic stands in for the "LiberationSans Italic"
// face, which schedlab's figures never use: it holds the data of
// Liberation Sans Regular (see package liberation).
package liberationsansitalic // import "codeberg.org/go-fonts/liberation/liberationsansitalic"

import upstream "github.com/go-fonts/liberation/liberationsansregular"

// TTF is the data of Liberation Sans Regular.
var TTF = upstream.TTF

// Package liberationmonoitalic stands in for the "LiberationMono Italic"
// face, which schedlab's figures never use: it holds the data of
// Liberation Sans Regular (see package liberation).
package liberationmonoitalic // import "codeberg.org/go-fonts/liberation/liberationmonoitalic"

import upstream "github.com/go-fonts/liberation/liberationsansregular"

// TTF is the data of Liberation Sans Regular.
var TTF = upstream.TTF

// Package liberationsansbold provides the "LiberationSans Bold" TrueType
// font, one of the two faces schedlab's figures draw with (see package
// liberation).
package liberationsansbold // import "codeberg.org/go-fonts/liberation/liberationsansbold"

import upstream "github.com/go-fonts/liberation/liberationsansbold"

// TTF is the data of the "LiberationSans Bold" TrueType font.
var TTF = upstream.TTF

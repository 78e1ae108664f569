//go:build !lazyfaces

package plot

import (
	sansbold "github.com/go-fonts/liberation/liberationsansbold"
	sansregular "github.com/go-fonts/liberation/liberationsansregular"
)

func init() { FaceData = embeddedFaces }

// embeddedFaces returns the faces this build carries.
func embeddedFaces() (regular, bold []byte, err error) {
	return sansregular.TTF, sansbold.TTF, nil
}

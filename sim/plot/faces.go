package plot

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot/font"
)

// FaceData returns the TrueType data of Liberation Sans Regular and Bold,
// the two faces every figure is drawn with. Builds made without the
// lazyfaces tag carry the faces (github.com/go-fonts/liberation) and set
// it to return them. The page's module is built with lazyfaces, which
// leaves the 0.83 MB of faces (0.38 MB with brotli) out of the download
// every visitor makes; its engine workers set FaceData to fetch the two
// files the site serves beside the module, when the first figure is
// drawn (wasm/browser).
var FaceData func() (regular, bold []byte, err error)

// faces is what LoadFaces has loaded. A failed load (a fetch that did not
// reach the site) is tried again at the next figure.
var faces struct {
	sync.Mutex
	loaded atomic.Bool
}

// LoadFaces parses Liberation Sans Regular and Bold and puts them in
// gonum's font cache, once, before the first figure. gonum/plot's start
// registered a 416-byte placeholder for every Liberation face (see
// internal/liberation): parsing the real faces there cost every run of
// the command line and every start of the page's module, in WebAssembly
// mostly the optimising compiler's work on a parser run once, whether or
// not a figure was drawn. Callers that may fetch the faces call it before
// drawing, to report a failed fetch as such; every figure calls it too.
func LoadFaces() error {
	if faces.loaded.Load() {
		return nil
	}
	faces.Lock()
	defer faces.Unlock()
	if faces.loaded.Load() {
		return nil
	}
	if FaceData == nil {
		return errors.New("this build leaves out the figures' fonts and was given no way to fetch them")
	}
	regular, bold, err := FaceData()
	if err != nil {
		return fmt.Errorf("loading the figures' fonts: %w", err)
	}
	coll, err := parseFaces(regular, bold)
	if err != nil {
		return err
	}
	font.DefaultCache.Add(coll)
	faces.loaded.Store(true)
	return nil
}

// parseFaces parses the two faces into a collection for gonum's cache.
func parseFaces(regular, bold []byte) (font.Collection, error) {
	var coll font.Collection
	for _, c := range []struct {
		name   string
		ttf    []byte
		weight xfont.Weight
	}{{"Liberation Sans", regular, xfont.WeightNormal}, {"Liberation Sans Bold", bold, xfont.WeightBold}} {
		face, err := opentype.Parse(c.ttf)
		if err != nil {
			return nil, fmt.Errorf("the figures' font %s (%d bytes) is not a font: %v", c.name, len(c.ttf), err)
		}
		coll = append(coll, font.Face{Font: font.Font{Typeface: "Liberation", Variant: "Sans", Weight: c.weight}, Face: face})
	}
	return coll, nil
}

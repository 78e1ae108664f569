package app_test

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// The gallery read in pieces (as the page reads it, yielding between
// scenarios) is the gallery read at once, and a second one does not
// replace the first.
func TestReadGalleryInPieces(t *testing.T) {
	whole := app.New(apptest.New(t)) // reads the gallery at once
	yields := 0
	g := app.ReadGallery(func() { yields++ })
	if n := len(scenarios.Names()); yields != n {
		t.Errorf("%d yields for %d scenarios", yields, n)
	}
	app.DeferGallery = true
	defer func() { app.DeferGallery = false }()
	a := app.New(apptest.New(t))
	if a.Cards != nil {
		t.Fatal("the gallery was read with DeferGallery set")
	}
	a.SetGallery(g)
	if len(a.Cards) == 0 || !reflect.DeepEqual(a.Cards, whole.Cards) || !reflect.DeepEqual(a.Gallery, whole.Gallery) {
		t.Errorf("the gallery read in pieces differs: %d cards, %d read at once", len(a.Cards), len(whole.Cards))
	}
	first := a.Cards[0]
	a.SetGallery(app.ReadGallery(nil))
	if a.Cards[0] != first {
		t.Error("a second gallery replaced the first")
	}
}

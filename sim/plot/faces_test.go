package plot

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	sansbold "github.com/go-fonts/liberation/liberationsansbold"
	sansregular "github.com/go-fonts/liberation/liberationsansregular"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
)

// TestLoadFacesFromFaceData: a build that fetches its faces (the page's
// engine workers, see FaceData) gets an error naming the problem from
// every figure while the fonts cannot be had, tries again at the next
// figure, and draws the same bytes once they come.
func TestLoadFacesFromFaceData(t *testing.T) {
	want, err := CDF("JCT CDF", "JCT", cdfSeries, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantPNG, err := want.PNG()
	if err != nil {
		t.Fatal(err)
	}
	savedCache, savedHandler, savedLoaded, savedData := font.DefaultCache, plot.DefaultTextHandler, faces.loaded.Load(), FaceData
	defer func() {
		font.DefaultCache, plot.DefaultTextHandler, FaceData = savedCache, savedHandler, savedData
		faces.loaded.Store(savedLoaded)
	}()
	font.DefaultCache = font.NewCache(nil)
	plot.DefaultTextHandler = text.Plain{Fonts: font.DefaultCache}
	faces.loaded.Store(false)

	calls := 0
	for _, c := range []struct {
		data    func() ([]byte, []byte, error)
		wantErr string
	}{
		{nil, "leaves out the figures' fonts"},
		{func() ([]byte, []byte, error) { return nil, nil, fmt.Errorf("fetching fonts/a.ttf: HTTP 404") }, "loading the figures' fonts: fetching fonts/a.ttf: HTTP 404"},
		{func() ([]byte, []byte, error) { return sansregular.TTF, []byte("<html>not found</html>"), nil }, "Liberation Sans Bold (22 bytes) is not a font"},
		{func() ([]byte, []byte, error) { return sansregular.TTF, sansbold.TTF, nil }, ""},
	} {
		FaceData = nil
		if c.data != nil {
			data := c.data
			FaceData = func() ([]byte, []byte, error) { calls++; return data() }
		}
		f, err := CDF("JCT CDF", "JCT", cdfSeries, Options{})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("CDF's error is %v, want one saying %q", err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.PNG()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantPNG) {
			t.Error("with the faces from FaceData the figure differs from the one drawn with the built-in faces")
		}
	}
	// Loaded once, the faces are not asked for again.
	if _, err := Lines("a", "b", "c", []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{3, 1}}}, Options{}); err != nil {
		t.Fatal(err)
	}
	if calls != 3 {
		t.Errorf("FaceData was called %d times, want 3 (once per failed figure and once more)", calls)
	}
}

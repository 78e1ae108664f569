package app_test

import (
	"bytes"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// The CDF's time axis switches to a log scale and back: the figure is
// redrawn each time, and the linear one comes back as it was.
func TestLogTimeAxis(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Start()
	f.Pump(a, apptest.Done(a))
	f.Pump(a, apptest.Drawn(a))
	linear := a.Res.CDF.PNG
	a.SetLogTime(true)
	if !a.Res.CDF.Pending || !a.Res.CDF.LogX {
		t.Fatalf("not redrawing: %+v", a.Res.CDF)
	}
	f.Pump(a, apptest.Drawn(a))
	if len(a.Res.CDF.PNG) == 0 || bytes.Equal(a.Res.CDF.PNG, linear) || a.Res.CDF.Err != "" {
		t.Errorf("log-scale CDF: %d bytes, same as linear: %v, error %q", len(a.Res.CDF.PNG), bytes.Equal(a.Res.CDF.PNG, linear), a.Res.CDF.Err)
	}
	a.SetLogTime(false)
	f.Pump(a, apptest.Drawn(a))
	if !bytes.Equal(a.Res.CDF.PNG, linear) {
		t.Error("the linear CDF did not come back as it was")
	}
}

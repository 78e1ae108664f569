package registry

import (
	"strings"
	"testing"
)

type knobs struct {
	Limit  int
	Levels []float64
}

// New hands out a fresh pointer to the defaults each time, and From gives
// back what was written into it.
func TestParamsRoundTrip(t *testing.T) {
	p := ParamsOf("thing", "x", func() knobs { return knobs{Limit: 3, Levels: []float64{1, 2}} })
	a := p.New().(*knobs)
	a.Limit, a.Levels[0] = 7, 99 // the decoder writes into what New returned
	if b := p.New().(*knobs); b.Limit != 3 || b.Levels[0] != 1 {
		t.Errorf("defaults changed through an earlier New: %+v", b)
	}
	got, err := p.From(a)
	if err != nil || got.Limit != 7 || got.Levels[0] != 99 {
		t.Errorf("From gave %+v, %v", got, err)
	}
	if z := ParamsOf[knobs]("thing", "zero", nil).New().(*knobs); z.Limit != 0 || z.Levels != nil {
		t.Errorf("nil defaults: %+v, want the zero value", z)
	}
}

// Anything but a non-nil *P is an error that names the entry and both
// types, never a panic.
func TestParamsFromWrongValue(t *testing.T) {
	p := ParamsOf[knobs]("thing", "x", nil)
	for _, v := range []any{nil, knobs{}, &struct{}{}, (*knobs)(nil), 3} {
		_, err := p.From(v)
		if err == nil || !strings.Contains(err.Error(), "thing x: parameters are") || !strings.Contains(err.Error(), "*registry.knobs") {
			t.Errorf("From(%T): %v", v, err)
		}
	}
}

// Parameters that are not a struct, and an entry without a name, are
// programming errors that panic at registration.
func TestRegistrationMistakesPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"int":     func() { ParamsOf[int]("thing", "x", nil) },
		"pointer": func() { ParamsOf[*knobs]("thing", "x", nil) },
		"no name": func() { New[int]("thing").Add("", 1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

// A clone has the entries of its source; what is added to it stays out of
// the source.
func TestClone(t *testing.T) {
	r := New[int]("thing")
	r.Add("a", 1)
	c := r.Clone()
	c.Add("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Errorf("the clone lost a: %v %v", v, ok)
	}
	if _, ok := r.Get("b"); ok {
		t.Error("an entry added to the clone entered the source")
	}
}

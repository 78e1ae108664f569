package registry

import (
	"fmt"
	"reflect"
)

// Params converts between a plugin family's parameter struct P and the
// untyped values that the registry's readers (the scenario decoder, the
// schema, the CLI and the page) handle alike for every family: a pointer
// to a fresh P holding the defaults, which the decoder fills, and the
// filled P back, for the family's typed constructor. A family thus never
// casts its parameters, and a wrong value is an error, never a panic.
type Params[P any] struct {
	what, name string
	defaults   func() P
}

// ParamsOf returns the converter of entry name's parameters in a registry
// of things called what (for messages). defaults returns a fresh P on each
// call (the decoder writes into it, slices included); nil means P's zero
// value. P must be a struct, not a pointer to one: anything else is a
// programming error and panics when the registering package is loaded.
func ParamsOf[P any](what, name string, defaults func() P) Params[P] {
	if t := reflect.TypeFor[P](); t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("%s %s: parameters must be a struct, not %s", what, name, t))
	}
	if defaults == nil {
		defaults = func() P { var p P; return p }
	}
	return Params[P]{what: what, name: name, defaults: defaults}
}

// New returns a pointer to fresh defaults.
func (p Params[P]) New() any {
	v := p.defaults()
	return &v
}

// From returns the parameters New's value holds, or an error that names
// both types when v is anything else.
func (p Params[P]) From(v any) (P, error) {
	x, ok := v.(*P)
	if !ok || x == nil {
		var zero P
		return zero, fmt.Errorf("%s %s: parameters are %T, want %T", p.what, p.name, v, x)
	}
	return *x, nil
}

//go:build !noscript

package script

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/schedlab/schedlab/sim/detmath"
)

// mathFunc is one member of the math module scripts see. Its functions
// give the same bits natively and in WebAssembly: exp, log and pow come
// from sim/detmath (the standard library's use assembly on amd64 and
// differ from their WebAssembly versions in the last bit); sqrt, floor
// and ceil are exact IEEE 754 operations, the same on every machine.
type mathFunc struct {
	name, typ, doc string
	value          starlark.Value // a constant, or nil for a function
	f1             func(float64) (float64, error)
	f2             func(float64, float64) (float64, error)
	toInt          bool // floor and ceil return an int, as in Python
}

func positive(name string, f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if !(x > 0) {
			return 0, fmt.Errorf("math.%s needs a number above 0, got %v", name, x)
		}
		return f(x), nil
	}
}

func exact(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) { return f(x), nil }
}

var mathFuncs = []mathFunc{
	{name: "exp", typ: "exp(x) → float", doc: "e to the power x", f1: exact(detmath.Exp)},
	{name: "log", typ: "log(x) → float", doc: "the natural logarithm of x > 0", f1: positive("log", detmath.Log)},
	{name: "log10", typ: "log10(x) → float", doc: "the base-10 logarithm of x > 0", f1: positive("log10", detmath.Log10)},
	{name: "pow", typ: "pow(x, y) → float", doc: "x to the power y", f2: func(x, y float64) (float64, error) {
		r := detmath.Pow(x, y)
		if math.IsNaN(r) && !math.IsNaN(x) && !math.IsNaN(y) {
			return 0, fmt.Errorf("math.pow(%v, %v) is not a real number", x, y)
		}
		return r, nil
	}},
	{name: "sqrt", typ: "sqrt(x) → float", doc: "the square root of x ≥ 0", f1: func(x float64) (float64, error) {
		if x < 0 {
			return 0, fmt.Errorf("math.sqrt needs a number of at least 0, got %v", x)
		}
		return math.Sqrt(x), nil
	}},
	{name: "floor", typ: "floor(x) → int", doc: "the largest whole number ≤ x", f1: exact(math.Floor), toInt: true},
	{name: "ceil", typ: "ceil(x) → int", doc: "the smallest whole number ≥ x", f1: exact(math.Ceil), toInt: true},
	{name: "inf", typ: "float", doc: "infinity, larger than every number (a priority that comes last)", value: starlark.Float(math.Inf(1))},
	{name: "pi", typ: "float", doc: "π", value: starlark.Float(math.Pi)},
	{name: "e", typ: "float", doc: "e", value: starlark.Float(math.E)},
}

// mathModule is the predeclared math module.
var mathModule = func() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "math", Members: starlark.StringDict{}}
	for _, f := range mathFuncs {
		m.Members[f.name] = f.starlark()
	}
	m.Freeze()
	return m
}()

func (f mathFunc) starlark() starlark.Value {
	if f.value != nil {
		return f.value
	}
	return starlark.NewBuiltin("math."+f.name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		want := 1
		if f.f2 != nil {
			want = 2
		}
		if len(kwargs) > 0 || len(args) != want {
			return nil, fmt.Errorf("%s takes %d number(s), got %d argument(s)", b.Name(), want, len(args)+len(kwargs))
		}
		xs := make([]float64, len(args))
		for i, a := range args {
			x, ok := starlark.AsFloat(a)
			if !ok {
				return nil, fmt.Errorf("%s needs numbers, got %s", b.Name(), a.Type())
			}
			xs[i] = x
		}
		var r float64
		var err error
		if f.f2 != nil {
			r, err = f.f2(xs[0], xs[1])
		} else {
			r, err = f.f1(xs[0])
		}
		if err != nil {
			return nil, err
		}
		if f.toInt {
			if math.IsInf(r, 0) || math.IsNaN(r) {
				return nil, fmt.Errorf("%s(%v) is not a whole number", b.Name(), xs[0])
			}
			return starlark.NumberToInt(starlark.Float(r))
		}
		return starlark.Float(r), nil
	})
}

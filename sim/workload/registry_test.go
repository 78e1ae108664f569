package workload

import (
	"strings"
	"testing"
)

// Every registered generator builds from its own defaults, and from
// anything else fails with an error that names it, not a panic.
func TestRegisteredGeneratorsAreTyped(t *testing.T) {
	if len(GeneratorNames()) < 8 {
		t.Fatalf("only %v registered", GeneratorNames())
	}
	for _, name := range GeneratorNames() {
		k, _ := LookupGenerator(name)
		if g, err := k.New(k.NewParams()); err != nil || g == nil {
			t.Errorf("%s from its defaults: %v, %v", name, g, err)
		}
		for _, v := range []any{nil, &struct{}{}, 1} {
			_, err := k.New(v)
			if err == nil || !strings.Contains(err.Error(), "generator "+name+": parameters are") {
				t.Errorf("%s from %T: %v", name, v, err)
			}
		}
	}
}

// A registration without New, or with parameters that are not a struct,
// panics when its package is loaded.
func TestGeneratorRegistrationMistakesPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"no New": func() { RegisterGenerator(GeneratorFamily[PoissonParams]{Name: "test-no-new"}) },
		"duplicate": func() {
			RegisterGenerator(GeneratorFamily[PoissonParams]{Name: "poisson", New: func(PoissonParams) (Generator, error) { return nil, nil }})
		},
		"not struct": func() {
			RegisterGenerator(GeneratorFamily[int]{Name: "test-int", New: func(int) (Generator, error) { return nil, nil }})
		},
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

package perf

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
)

// Every registered model builds from its own defaults, and from anything
// else fails with an error that names it, not a panic.
func TestRegisteredModelsAreTyped(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 2, GPUType: "V100", GPUMemoryGB: 16}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(Names()) < 5 {
		t.Fatalf("only %v registered", Names())
	}
	for _, name := range Names() {
		k, _ := Lookup(name)
		if m, err := k.New(k.NewParams(), c); err != nil || m == nil {
			t.Errorf("%s from its defaults: %v, %v", name, m, err)
		}
		for _, v := range []any{nil, &struct{}{}, 1} {
			_, err := k.New(v, c)
			if err == nil || !strings.Contains(err.Error(), "perf model "+name+": parameters are") {
				t.Errorf("%s from %T: %v", name, v, err)
			}
		}
	}
}

// A registration without New, or with parameters that are not a struct,
// panics when its package is loaded.
func TestModelRegistrationMistakesPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"no New": func() { Register(Family[ConstantParams]{Name: "test-no-new"}) },
		"duplicate": func() {
			Register(Family[ConstantParams]{Name: "constant", New: func(ConstantParams, *cluster.Cluster) (Model, error) { return nil, nil }})
		},
		"not struct": func() {
			Register(Family[int]{Name: "test-int", New: func(int, *cluster.Cluster) (Model, error) { return nil, nil }})
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
	if _, ok := Lookup("test-int"); ok {
		t.Error("a refused registration entered the registry")
	}
}

package policy_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
)

type testParams struct {
	Limit  int       `json:"limit"`
	Levels []float64 `json:"levels"`
}

type nop struct{ p testParams }

func (nop) Options() engine.Options                      { return engine.Options{} }
func (nop) Decide(*engine.State, []engine.Trigger) error { return nil }

// testPolicies holds this file's policies, out of policy.Default.
var testPolicies = func() *policy.Registry {
	reg := policy.NewRegistry()
	reg.Add(policy.Family[testParams]{
		Name: "test-typed", Title: "Typed",
		Defaults: func() testParams { return testParams{Limit: 3, Levels: []float64{1, 2}} },
		New:      func(p testParams) (engine.Policy, error) { return nop{p}, nil },
	}.Factory())
	reg.Add(policy.Family[policy.NoParams]{
		Name: "test-plain",
		New:  func(policy.NoParams) (engine.Policy, error) { return nop{}, nil },
	}.Factory())
	return reg
}()

// The registry hands the decoder a fresh pointer to the defaults and the
// policy the filled struct, without a cast in the policy.
func TestTypedRegistration(t *testing.T) {
	f, ok := testPolicies.Lookup("test-typed")
	if !ok {
		t.Fatal("test-typed is not registered")
	}
	if _, ok := policy.Lookup("test-typed"); ok {
		t.Error("test-typed entered policy.Default")
	}
	a := f.NewParams().(*testParams)
	a.Levels[0] = 99 // the decoder writes into what NewParams returned
	a.Limit = 7
	b := f.NewParams().(*testParams)
	if b.Limit != 3 || b.Levels[0] != 1 {
		t.Errorf("defaults were changed through an earlier NewParams: %+v", b)
	}
	p, err := f.New(a)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.(nop).p; got.Limit != 7 || got.Levels[0] != 99 {
		t.Errorf("the policy got %+v, not the filled parameters", got)
	}
	if _, err := testPolicies.New("test-plain"); err != nil {
		t.Errorf("a policy without parameters: %v", err)
	}
}

// Parameters of another type are an error naming both types, not a panic.
func TestWrongParamsAreAnError(t *testing.T) {
	f, _ := testPolicies.Lookup("test-typed")
	for _, v := range []any{nil, testParams{}, &struct{}{}, (*testParams)(nil)} {
		_, err := f.New(v)
		if err == nil || !strings.Contains(err.Error(), "*policy_test.testParams") {
			t.Errorf("New(%T): %v", v, err)
		}
	}
}

// Registration mistakes panic when the package is loaded.
func TestRegistrationMistakesPanic(t *testing.T) {
	reg := policy.NewRegistry()
	ok := func(policy.NoParams) (engine.Policy, error) { return nop{}, nil }
	reg.Add(policy.Family[policy.NoParams]{Name: "test-plain", New: ok}.Factory())
	cases := map[string]func(){
		"duplicate": func() { reg.Add(policy.Family[policy.NoParams]{Name: "test-plain", New: ok}.Factory()) },
		"no New":    func() { reg.Add(policy.Family[policy.NoParams]{Name: "test-no-new"}.Factory()) },
		"no name":   func() { reg.Add(policy.Family[policy.NoParams]{New: ok}.Factory()) },
		"not a struct": func() {
			reg.Add(policy.Family[int]{Name: "test-int", New: func(int) (engine.Policy, error) { return nop{}, nil }}.Factory())
		},
		"a pointer too": func() {
			reg.Add(policy.Family[*testParams]{Name: "test-ptr", New: func(*testParams) (engine.Policy, error) { return nop{}, nil }}.Factory())
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
	if got := reg.Names(); len(got) != 1 {
		t.Errorf("refused registrations entered the registry: %v", got)
	}
}

package conformance

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

// seeds are the cases of each setting (see Seeds).
var seeds = Seeds

// knownFailure says why a policy fails the settings of a perf model today,
// or "". These are real shortcomings, reported here instead of hidden by
// narrower settings; the test fails when one of them no longer fails, so
// that the list shrinks as they are fixed.
func knownFailure(pol string, set Setting) string {
	switch {
	case strings.HasPrefix(pol, "gavel-") && !slices.Equal(set.Types, gavelTypes):
		return "Gavel's policies price every GPU type and have default prices only for Gavel's V100, P100 and K80, not the 2080 Ti, T4, 1080 Ti or A100 (add prices to the policy's parameters)"
	}
	return ""
}

// Every registered policy runs every setting with every invariant on.
func TestRegisteredPoliciesConform(t *testing.T) {
	names := registered()
	if len(names) < 10 {
		t.Fatalf("only %d policies registered: %v", len(names), names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			ran, refused := 0, 0
			for _, set := range Settings {
				rep := Check(context.Background(), name, []Setting{set}, seeds)
				ran, refused = ran+rep.Ran, refused+rep.Refused
				ps := rep.Problems
				why := knownFailure(name, set)
				switch {
				case why == "":
					for _, p := range ps {
						t.Error(p)
					}
				case len(ps) == 0:
					t.Errorf("%s now passes %s on every seed; it was listed as failing because it %s: remove it from knownFailure", name, set.Name, why)
				default:
					t.Logf("known failure on %s (%d of %d seeds): %s; e.g. %s", set.Name, len(ps), len(seeds), why, ps[0].Msg)
				}
			}
			if ran == 0 {
				t.Errorf("%s declares that it can run none of the %d cases: add a Setting it can run", name, refused)
			}
			t.Logf("ran %d cases; %d refused by the validator as its registration declares", ran, refused)
		})
	}
}

// registered are the policies under test: every registered one but the
// deliberately broken ones of this package's tests.
func registered() []string {
	var out []string
	for _, n := range policy.Names() {
		if !strings.HasPrefix(n, brokenPrefix) {
			out = append(out, n)
		}
	}
	return out
}

// Every registered perf model and generator is exercised by a setting.
func TestSettingsCoverRegistries(t *testing.T) {
	for _, m := range perf.Names() {
		if !slices.ContainsFunc(Settings, func(s Setting) bool { return s.Perf == m }) {
			t.Errorf("perf model %s is registered but no conformance Setting uses it: add one to Settings", m)
		}
	}
	for _, g := range workload.GeneratorNames() {
		if !slices.ContainsFunc(Settings, func(s Setting) bool { return strings.HasSuffix(s.Name, "/"+g) }) {
			t.Errorf("generator %s is registered but no conformance Setting uses it: add one to Settings", g)
		}
	}
	for _, s := range Settings {
		doc := Document(s, 1, "fifo")
		if !strings.Contains(string(doc), `"kind":"`+s.Name[strings.Index(s.Name, "/")+1:]+`"`) {
			t.Errorf("setting %s does not use the generator its name says: %s", s.Name, doc)
		}
		if !strings.HasPrefix(s.Name, s.Perf+"/") {
			t.Errorf("setting %s: its name does not start with its perf model %s", s.Name, s.Perf)
		}
		var p struct{ Model string }
		if s.PerfDoc != nil && (json.Unmarshal(s.PerfDoc, &p) != nil || p.Model != s.Perf) {
			t.Errorf("setting %s: its perf section names model %q, not %s", s.Name, p.Model, s.Perf)
		}
		if _, err := scenario.Parse(doc); err != nil {
			t.Errorf("setting %s: the validator refuses its scenario with fifo: %v", s.Name, err)
		}
	}
}

// The random scenarios are varied: clusters of several types and sizes,
// and some jobs too large for the cluster.
func TestDocumentsVary(t *testing.T) {
	a, b := Document(Settings[0], 1, "fifo"), Document(Settings[0], 2, "fifo")
	if string(a) == string(b) {
		t.Error("seeds 1 and 2 give the same scenario")
	}
	if string(a) != string(Document(Settings[0], 1, "fifo")) {
		t.Error("the same seed gives different scenarios")
	}
}

// The example scripts of the script policy conform, like the built-in
// policies.
func TestScriptExamplesConform(t *testing.T) {
	for _, e := range script.Examples {
		t.Run(e.Name, func(t *testing.T) {
			params, err := json.Marshal(e.Params())
			if err != nil {
				t.Fatal(err)
			}
			rep := CheckParams(context.Background(), "script", params, Settings, seeds)
			for _, p := range rep.Problems {
				t.Error(p)
			}
			if rep.Ran == 0 {
				t.Error("ran no case")
			}
			t.Logf("ran %d cases", rep.Ran)
		})
	}
}

// A script that breaks a rule only on some scenarios passes the check's
// made-up test and is caught here, with the setting and the seed.
func TestBrokenScriptIsCaught(t *testing.T) {
	// it never starts a job that arrives after 1,000 s: those wait forever
	src := "def decide(state):\n    return {'start': [j for j in state.pending if j.arrival_s < 1000]}\n"
	params, _ := json.Marshal(map[string]string{"source": src})
	if ps := script.TestRun(script.Params{Source: src}); ps != nil {
		t.Fatalf("the made-up test catches it already: %v", ps)
	}
	rep := CheckParams(context.Background(), "script", params, Settings, seeds[:3])
	if len(rep.Problems) == 0 {
		t.Fatal("the broken script passed")
	}
	for _, p := range rep.Problems {
		if !strings.Contains(p.Msg, "the policy starts none of them") {
			t.Errorf("reported for something else: %s", p)
		}
	}
	t.Logf("reported %d problems in %d cases, e.g. %s", len(rep.Problems), rep.Ran, rep.Problems[0])
}

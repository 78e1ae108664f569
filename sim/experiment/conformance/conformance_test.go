package conformance

import (
	"bytes"
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

// seeds are the cases of each setting (see Seeds); under the race
// detector, the first two.
var seeds = func() []uint64 {
	if raceDetector {
		return Seeds[:2]
	}
	return Seeds
}()

// knownFailure says why a policy, or one variant of its parameters (its
// Variant.Label, "" for the defaults), fails the settings of a perf model
// today, or "". These are real shortcomings, reported here instead of
// hidden by narrower settings; the test fails when the defaults of one of
// them no longer fail, so that the list shrinks as they are fixed.
func knownFailure(pol, variant string, set Setting) string {
	switch {
	case strings.HasPrefix(pol, "gavel-") && !slices.Equal(set.Types, gavelTypes):
		return "Gavel's policies price every GPU type and have default prices only for Gavel's V100, P100 and K80, not the 2080 Ti, T4, 1080 Ti or A100 (add prices to the policy's parameters)"
	}
	return ""
}

// Every registered policy runs every setting with every invariant on, with
// its defaults and each variant of its enum and boolean parameters.
func TestRegisteredPoliciesConform(t *testing.T) {
	names := policy.Names()
	if len(names) < 10 {
		t.Fatalf("only %d policies registered: %v", len(names), names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep := Suite{Settings: Settings, Seeds: seeds}.Check(context.Background(), name)
			for _, v := range Variants(mustLookup(t, name)) {
				for _, set := range Settings {
					var ps []Problem
					for _, p := range rep.Problems {
						if p.Variant == v.Label && p.Setting == set.Name {
							ps = append(ps, p)
						}
					}
					why := knownFailure(name, v.Label, set)
					switch {
					case why == "":
						for _, p := range ps {
							t.Error(p)
						}
					case len(ps) > 0:
						t.Logf("known failure (%d cases): %s; e.g. %s", len(ps), why, ps[0])
					case v.Label == "" && !raceDetector: // a variant runs one seed, which may pass; so does every case under -race
						t.Errorf("%s now passes %s on every seed; it was listed as failing because it %s: remove it from knownFailure", name, set.Name, why)
					}
				}
			}
			for _, p := range rep.RefusedVariants {
				t.Logf("the validator refuses a variant for its parameters: %s", p)
			}
			if rep.Ran == 0 {
				t.Errorf("%s declares that it can run none of the %d cases: add a Setting it can run", name, rep.Refused)
			}
			t.Logf("%d variants; ran %d cases; %d refused by the validator as its registration declares", len(Variants(mustLookup(t, name))), rep.Ran, rep.Refused)
		})
	}
}

func mustLookup(t *testing.T, name string) policy.Factory {
	t.Helper()
	f, ok := policy.Lookup(name)
	if !ok {
		t.Fatalf("no policy %s", name)
	}
	return f
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
		prefix := s.Perf + "/"
		if s.Interference != nil {
			prefix = s.Perf + "+interference/"
		}
		if !strings.HasPrefix(s.Name, prefix) {
			t.Errorf("setting %s: its name does not start with %s", s.Name, prefix)
		}
		var in bytes.Buffer
		if s.Interference != nil && (json.Compact(&in, s.Interference) != nil || !strings.Contains(string(doc), `"interference":`+in.String())) {
			t.Errorf("setting %s: its scenario lacks its interference section: %s", s.Name, doc)
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

// Every registered policy explains its decisions: each start, preemption
// and wait of its runs has a reason its policy recorded (issue 36).
func TestRegisteredPoliciesExplain(t *testing.T) {
	names := policy.Names()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep := Suite{Settings: Settings, Seeds: seeds[:min(3, len(seeds))]}.Explains(context.Background(), name)
			bySetting := map[string]int{}
			for _, p := range rep.Problems {
				if knownFailure(name, "", settingNamed(p.Setting)) != "" {
					continue
				}
				if bySetting[p.Setting]++; bySetting[p.Setting] == 1 {
					t.Error(p)
				}
			}
			if rep.Ran == 0 && !strings.HasPrefix(name, "gavel-") {
				t.Errorf("%s ran no case", name)
			}
		})
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
			rep := Suite{Settings: Settings, Seeds: seeds, Params: params}.Check(context.Background(), "script")
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

func settingNamed(name string) Setting {
	for _, s := range Settings {
		if s.Name == name {
			return s
		}
	}
	return Setting{Name: name}
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
	done, total := 0, 0
	progress := func(d, n int) {
		if d != done+1 || (total != 0 && n != total) {
			t.Errorf("progress %d of %d after %d of %d", d, n, done, total)
		}
		done, total = d, n
	}
	rep := Suite{Settings: Settings, Seeds: Seeds[:3], Params: params, Progress: progress}.Check(context.Background(), "script")
	if len(rep.Problems) == 0 {
		t.Fatal("the broken script passed")
	}
	if done != total || total < len(Settings)*3 {
		t.Errorf("progress ended at %d of %d for %d settings of 3 seeds", done, total, len(Settings))
	}
	for _, p := range rep.Problems {
		if !strings.Contains(p.Msg, "the policy starts none of them") {
			t.Errorf("reported for something else: %s", p)
		}
		// the problem's scenario runs the broken script again
		var doc struct {
			Policies []struct {
				Name   string
				Params struct{ Source string }
			}
			Seeds []uint64
		}
		if err := json.Unmarshal(p.Document, &doc); err != nil || len(doc.Policies) != 1 || doc.Policies[0].Params.Source != src || len(doc.Seeds) != 1 || doc.Seeds[0] != p.Seed {
			t.Errorf("the problem's scenario does not hold the script and its seed %d: %s", p.Seed, p.Document)
		}
	}
	t.Logf("reported %d problems in %d cases, e.g. %s", len(rep.Problems), rep.Ran, rep.Problems[0])
}

// Variants around given parameters keep them and change one at a time.
func TestVariantsKeepTheGivenParameters(t *testing.T) {
	f := mustLookup(t, "script")
	vs := variantsOf(f, json.RawMessage(`{"source":"def priority(job, now):\n    return 1\n","oracle":true}`))
	var labels []string
	for _, v := range vs {
		labels = append(labels, v.Label)
		var p struct {
			Source string
			Oracle bool
		}
		if err := json.Unmarshal(v.Params, &p); err != nil || p.Source != "def priority(job, now):\n    return 1\n" {
			t.Errorf("variant %q lost the source: %s", v.Label, v.Params)
		}
		if p.Oracle != (v.Label == "") {
			t.Errorf("variant %q: oracle %t", v.Label, p.Oracle)
		}
	}
	if !slices.Equal(labels, []string{"", "oracle=false"}) {
		t.Errorf("variants %q, want the given parameters and oracle=false", labels)
	}
}

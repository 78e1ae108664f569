package experiment

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A study run in parts, one per sweep point and seed, gives the verdicts,
// series and reference rows of the same study run in one piece.
func TestSplitStudyMatchesRunStudy(t *testing.T) {
	for _, name := range []string{"sjf-bsbf-fig6a", "tesserae-fig11-migrations", "sjfbco-wang-demo", "ojpp-fig9", "sjf-bsbf-table2", "sjfbco-fig6"} {
		t.Run(name, func(t *testing.T) {
			data, _ := scenarios.Read(name)
			sc, err := scenario.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := RunStudy(context.Background(), sc, StudyOptions{Quick: true, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			q, err := sc.QuickVariant()
			if err != nil {
				t.Fatal(err)
			}
			parts := splitParts(t, q, SplitsByPolicy(q))
			// Parts arrive in any order.
			for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
				parts[i], parts[j] = parts[j], parts[i]
			}
			split := AssembleStudy(q, parts)
			a, b := whole.Output(), split.Output()
			if !reflect.DeepEqual(a.Checks, b.Checks) {
				t.Errorf("verdicts differ:\nwhole %+v\nsplit %+v", a.Checks, b.Checks)
			}
			if !reflect.DeepEqual(a.Series, b.Series) || !reflect.DeepEqual(a.Reference, b.Reference) || a.Summary != b.Summary {
				t.Errorf("series or reference differ:\nwhole %+v %+v\nsplit %+v %+v", a.Series, a.Reference, b.Series, b.Reference)
			}
		})
	}
}

// splitParts runs every point and seed of sc's quick plan apart, through
// JSON as the page's workers send them.
func splitParts(t *testing.T, sc *scenario.Scenario, byPolicy bool) []*results.StudyValues {
	seeds, xs := SplitPlan(sc)
	policies := []int{-1}
	if byPolicy {
		policies = policies[:0]
		for i := range sc.Policies {
			policies = append(policies, i)
		}
	}
	var parts []*results.StudyValues
	for _, x := range xs {
		for _, seed := range seeds {
			for _, pol := range policies {
				p, err := RunSplitPart(context.Background(), sc, x, seed, pol, nil)
				if err != nil {
					t.Fatal(err)
				}
				data, err := json.Marshal(p)
				if err != nil {
					t.Fatal(err)
				}
				var back results.StudyValues
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				parts = append(parts, &back)
			}
		}
	}
	return parts
}

// Until every part is in, checks on the missing points say so and fail.
func TestSplitStudyMissingPart(t *testing.T) {
	data, _ := scenarios.Read("sjf-bsbf-fig6a")
	sc, _ := scenario.Parse(data)
	q, err := sc.QuickVariant()
	if err != nil {
		t.Fatal(err)
	}
	parts := splitParts(t, q, true)
	if st := AssembleStudy(q, parts); !st.SplitComplete() {
		t.Error("every part is in, yet the study is not complete")
	}
	st := AssembleStudy(q, parts[:len(parts)-1])
	if st.SplitComplete() {
		t.Error("a part is missing, yet the study is complete")
	}
	missing := 0
	for _, v := range st.Verdicts() {
		if strings.Contains(v.Observed, ErrNotRun.Error()) {
			missing++
			if v.Passed {
				t.Errorf("%s passed without its runs", v.ID)
			}
		}
	}
	if missing == 0 {
		t.Error("no check said its runs were missing")
	}
}

// A study whose metrics compare policies runs its policies together.
func TestSplitsByPolicy(t *testing.T) {
	for name, want := range map[string]bool{"gavel-fig10-ftf-multi": false, "gavel-fig8-las-single": true, "sjfbco-fig6": false} {
		data, _ := scenarios.Read(name)
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := SplitsByPolicy(sc); got != want {
			t.Errorf("%s: SplitsByPolicy %v, want %v", name, got, want)
		}
	}
}

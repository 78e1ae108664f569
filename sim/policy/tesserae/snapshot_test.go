package tesserae_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/policy/tesserae"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Each round snapshot of a Tesserae run agrees with what the engine did:
// After is the placement held just after the round, Before the one held
// just before, a migrated job changed GPUs, the pairs share GPUs, and the
// snapshots' migrations add up to the run's.
func TestRoundSnapshots(t *testing.T) {
	data, err := fs.ReadFile(scenarios.FS, "tesserae-fig11-migrations.json")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"jobs": 900`), []byte(`"jobs": 120`), 1)
	data = ownPolicies(t, data)
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	sc, err = sc.WithPolicy(0)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{1}, Snapshots: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Runs[0]
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	snaps := r.Result.Snapshots
	if len(snaps) < 5 {
		t.Fatalf("%d snapshots", len(snaps))
	}
	moved, pairs, size := 0, 0, 0
	for _, sn := range snaps {
		size += len(sn.Data)
		var rs tesserae.RoundSnapshot
		if err := json.Unmarshal(sn.Data, &rs); err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(rs.After, held(r.Result, sn.TimeS, false), sameSet) {
			t.Fatalf("round %d at %.0f s: after %v, the engine holds %v", rs.Round, sn.TimeS, rs.After, held(r.Result, sn.TimeS, false))
		}
		was := held(r.Result, sn.TimeS, true)
		for g, js := range rs.Before {
			for _, j := range js {
				if !slices.Contains(was[g], j) {
					t.Fatalf("round %d at %.0f s: before puts job %d on GPU %d, the engine held %v", rs.Round, sn.TimeS, j, g, was[g])
				}
			}
		}
		for _, j := range rs.Migrated {
			if slices.Equal(gpusOf(rs.Before, j), gpusOf(rs.After, j)) {
				t.Errorf("round %d: job %d flagged migrated but stays on %v", rs.Round, j, gpusOf(rs.After, j))
			}
		}
		for _, p := range rs.Pairs {
			if !slices.Equal(gpusOf(rs.After, p.Host), gpusOf(rs.After, p.Guest)) || !(p.Combined > 0) {
				t.Errorf("round %d: pair %+v does not share GPUs", rs.Round, p)
			}
		}
		moved += len(rs.Migrated)
		pairs += len(rs.Pairs)
	}
	total := 0
	for _, j := range r.Result.Jobs {
		total += j.Migrations
	}
	if moved == 0 || pairs == 0 || moved < total {
		t.Errorf("snapshots flag %d migrations and %d pairs; the run counts %d migrations", moved, pairs, total)
	}
	t.Logf("%d snapshots, %d bytes, %d migrations flagged (run: %d), %d pairs", len(snaps), size, moved, total, pairs)
}

// held lists the jobs on each GPU just before (or at) time t.
func held(res *engine.Result, t float64, before bool) [][]int {
	out := make([][]int, 80) // the scenario's 20 servers of 4 GPUs
	for _, iv := range res.Intervals {
		in := iv.StartS <= t && t < iv.EndS
		if before {
			in = iv.StartS < t && t <= iv.EndS
		}
		if in {
			out[iv.GPU] = append(out[iv.GPU], int(iv.Job))
		}
	}
	return out
}

func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func gpusOf(m [][]int, j int) []int {
	var out []int
	for g, js := range m {
		if slices.Contains(js, j) {
			out = append(out, g)
		}
	}
	return out
}

// ownPolicies keeps only the scenario's policies of this family (the
// figure also runs Gavel's and tiresias-rounds, which this package's tests
// do not link).
func ownPolicies(t *testing.T, data []byte) []byte {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var policies []map[string]any
	if err := json.Unmarshal(doc["policies"], &policies); err != nil {
		t.Fatal(err)
	}
	var own []map[string]any
	for _, p := range policies {
		if name, _ := p["name"].(string); strings.HasPrefix(name, "tesserae") || name == "tiresias-single" {
			own = append(own, p)
		}
	}
	raw, err := json.Marshal(own)
	if err != nil {
		t.Fatal(err)
	}
	doc["policies"] = raw
	delete(doc, "checks")
	delete(doc, "quick")
	delete(doc, "reference")
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

package policy_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Four 4-GPU servers with two GPUs taken on each: 8 GPUs are free, but no
// server has 4. Strict placement makes a 4-GPU job wait and says why;
// consolidated spreads it over two servers.
func TestStrictWaitsOnHalfFreeServers(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 4, GPUs: 4, GPUType: "V100"}}}
	taken := []cluster.GPUID{0, 1, 4, 5, 8, 9, 12, 13}
	probe(t, spec, taken, func(s *engine.State, ids []workload.JobID) {
		four, two := ids[0], ids[1]
		if got := placeWith(t, s, "strict", false, four); got != nil {
			t.Errorf("strict placed a 4-GPU job on %v", got)
		}
		p, _ := policy.PlacementByName("strict")
		if why := p.WhyNot(policy.RequestFor(s, four)); !strings.Contains(why, "8 GPUs free but no server has 4") {
			t.Errorf("why: %q", why)
		}
		if got := placeWith(t, s, "consolidated", false, four); len(got) != 4 || s.Cluster().ServersSpanned(got) != 2 {
			t.Errorf("consolidated: %v", got)
		}
		if got := placeWith(t, s, "strict", false, two); !slices.Equal(got, []cluster.GPUID{2, 3}) {
			t.Errorf("strict, 2 GPUs: %v, want the first server with room (GPUs 2, 3)", got)
		}
	}, workload.Job{GPUs: 4}, workload.Job{GPUs: 2})
}

// Servers 1 and 3 are wholly free, servers 0 and 2 have one GPU taken:
// an 8-GPU job takes the two whole servers; a 6-GPU job takes whole
// server 1 and 2 GPUs on the first server with room (server 0); a 12-GPU
// job would need three whole servers and waits, while consolidated
// places it on all four.
func TestStrictTakesWholeServers(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 4, GPUs: 4, GPUType: "V100"}}}
	taken := []cluster.GPUID{0, 8}
	probe(t, spec, taken, func(s *engine.State, ids []workload.JobID) {
		eight, six, twelve := ids[0], ids[1], ids[2]
		if got := placeWith(t, s, "strict", false, eight); !slices.Equal(servers(s, got), []cluster.ServerID{1, 3}) || len(got) != 8 {
			t.Errorf("8 GPUs on servers %v (%v), want whole servers 1 and 3", servers(s, got), got)
		}
		if got := placeWith(t, s, "strict", false, six); !slices.Equal(got, []cluster.GPUID{4, 5, 6, 7, 1, 2}) {
			t.Errorf("6 GPUs on %v, want server 1 whole and GPUs 1, 2 of server 0", got)
		}
		if got := placeWith(t, s, "strict", true, six); len(got) != 6 || servers(s, got)[0] != 1 {
			t.Errorf("6 GPUs, best fit: %v", got)
		}
		if got := placeWith(t, s, "strict", false, twelve); got != nil {
			t.Errorf("strict placed 12 GPUs with two whole servers free: %v", got)
		}
		if got := placeWith(t, s, "consolidated", false, twelve); len(got) != 12 {
			t.Errorf("consolidated: %v", got)
		}
	}, workload.Job{GPUs: 8}, workload.Job{GPUs: 6}, workload.Job{GPUs: 12})
}

// With best fit, strict puts a small job on the fullest server that
// holds it; without, on the first.
func TestStrictBestFit(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 3, GPUs: 4, GPUType: "V100"}}}
	probe(t, spec, []cluster.GPUID{8, 9}, func(s *engine.State, ids []workload.JobID) {
		if got := placeWith(t, s, "strict", true, ids[0]); !slices.Equal(got, []cluster.GPUID{10, 11}) {
			t.Errorf("best fit: %v", got)
		}
		if got := placeWith(t, s, "strict", false, ids[0]); !slices.Equal(got, []cluster.GPUID{0, 1}) {
			t.Errorf("first fit: %v", got)
		}
	}, workload.Job{GPUs: 2})
}

// The enum tag of the placement knob lists exactly the placements, so a
// new one is accepted by the validator and shown in forms.
func TestPlacementParamsListsEveryPlacement(t *testing.T) {
	f, _ := reflect.TypeOf(policy.PlacementParams{}).FieldByName("Placement")
	if got, want := f.Tag.Get("enum"), strings.Join(policy.PlacementNames(), ","); got != want {
		t.Errorf("enum tag %q, placements %q", got, want)
	}
	if _, err := policy.PlacementByName("packed"); err == nil || !strings.Contains(err.Error(), `placement: must be one of consolidated, strict, got "packed"`) {
		t.Errorf("unknown name: %v", err)
	}
	var p struct {
		policy.PlacementParams
	}
	p.PlacementParams = policy.DefaultPlacementParams()
	ps := schema.DecodeBytes([]byte(`{"placement": "spread"}`), &p)
	if len(ps) != 1 || ps[0].String() != `placement: must be one of consolidated, strict, got "spread"` {
		t.Errorf("problems %v", ps)
	}
}

func TestStrictWhyNotLargeJob(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 4, GPUs: 4, GPUType: "V100"}}}
	probe(t, spec, []cluster.GPUID{0, 8}, func(s *engine.State, ids []workload.JobID) {
		p, _ := policy.PlacementByName("strict")
		want := "14 GPUs free, 2 whole servers free; strict placement needs 3 whole servers and 2 GPUs on one more"
		if why := p.WhyNot(policy.RequestFor(s, ids[0])); why != want {
			t.Errorf("why %q\nwant %q", why, want)
		}
	}, workload.Job{GPUs: 14})
}

// Both placements say when too few GPUs of the job's type or memory are
// free.
func TestWhyNotTooFew(t *testing.T) {
	mixed := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 2, GPUType: "K80", GPUMemoryGB: 12},
		{Count: 1, GPUs: 4, GPUType: "V100", GPUMemoryGB: 32},
	}}
	asked := []workload.Job{{GPUs: 4, GPUType: "V100"}, {GPUs: 4}, {GPUs: 2, MemoryGB: 20, GPUType: "K80"}}
	want := []string{"needs 4 V100 GPUs, 3 free", "needs 4 GPUs of one type, at most 3 free of any type", "needs 2 K80 GPUs with 20 GB free, 0 free"}
	probe(t, mixed, []cluster.GPUID{2}, func(s *engine.State, ids []workload.JobID) {
		for _, name := range policy.PlacementNames() {
			p, _ := policy.PlacementByName(name)
			for i, id := range ids {
				r := policy.RequestFor(s, id)
				if got := p.Pick(r); got != nil {
					t.Errorf("%s placed %v", name, got)
				}
				if why := p.WhyNot(r); why != want[i] {
					t.Errorf("%s: %q, want %q", name, why, want[i])
				}
			}
		}
	}, asked...)
}

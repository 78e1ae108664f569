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
)

func pick(t *testing.T, s *engine.State, name string, r policy.Request) []cluster.GPUID {
	t.Helper()
	p, err := policy.PlacementByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.Pick(s, r)
}

// Four 4-GPU servers with two GPUs taken on each: 8 GPUs are free, but no
// server has 4. Strict placement makes a 4-GPU job wait and says why;
// consolidated spreads it over two servers.
func TestStrictWaitsOnHalfFreeServers(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 4, GPUs: 4, GPUType: "V100"}}}
	taken := []cluster.GPUID{0, 1, 4, 5, 8, 9, 12, 13}
	probe(t, spec, taken, func(s *engine.State) {
		r := policy.Request{GPUs: 4}
		if got := pick(t, s, "strict", r); got != nil {
			t.Errorf("strict placed a 4-GPU job on %v", got)
		}
		p, _ := policy.PlacementByName("strict")
		if why := p.WhyNot(s, r); !strings.Contains(why, "8 GPUs free but no server has 4") {
			t.Errorf("why: %q", why)
		}
		if got := pick(t, s, "consolidated", r); len(got) != 4 || s.Cluster().ServersSpanned(got) != 2 {
			t.Errorf("consolidated: %v", got)
		}
		if got := pick(t, s, "strict", policy.Request{GPUs: 2}); !slices.Equal(got, []cluster.GPUID{2, 3}) {
			t.Errorf("strict, 2 GPUs: %v, want the first server with room (GPUs 2, 3)", got)
		}
	})
}

// Servers 1 and 3 are wholly free, servers 0 and 2 have one GPU taken:
// an 8-GPU job takes the two whole servers; a 6-GPU job takes whole
// server 1 and 2 GPUs on the first server with room (server 0); a 12-GPU
// job would need three whole servers and waits, while consolidated
// places it on all four.
func TestStrictTakesWholeServers(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 4, GPUs: 4, GPUType: "V100"}}}
	taken := []cluster.GPUID{0, 8}
	probe(t, spec, taken, func(s *engine.State) {
		if got := pick(t, s, "strict", policy.Request{GPUs: 8}); !slices.Equal(servers(s, got), []cluster.ServerID{1, 3}) || len(got) != 8 {
			t.Errorf("8 GPUs on servers %v (%v), want whole servers 1 and 3", servers(s, got), got)
		}
		if got := pick(t, s, "strict", policy.Request{GPUs: 6}); !slices.Equal(got, []cluster.GPUID{4, 5, 6, 7, 1, 2}) {
			t.Errorf("6 GPUs on %v, want server 1 whole and GPUs 1, 2 of server 0", got)
		}
		if got := pick(t, s, "strict", policy.Request{GPUs: 6, BestFit: true}); len(got) != 6 || servers(s, got)[0] != 1 {
			t.Errorf("6 GPUs, best fit: %v", got)
		}
		if got := pick(t, s, "strict", policy.Request{GPUs: 12}); got != nil {
			t.Errorf("strict placed 12 GPUs with two whole servers free: %v", got)
		}
		if got := pick(t, s, "consolidated", policy.Request{GPUs: 12}); len(got) != 12 {
			t.Errorf("consolidated: %v", got)
		}
	})
}

// With best fit, strict puts a small job on the fullest server that
// holds it; without, on the first.
func TestStrictBestFit(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 3, GPUs: 4, GPUType: "V100"}}}
	probe(t, spec, []cluster.GPUID{8, 9}, func(s *engine.State) {
		if got := pick(t, s, "strict", policy.Request{GPUs: 2, BestFit: true}); !slices.Equal(got, []cluster.GPUID{10, 11}) {
			t.Errorf("best fit: %v", got)
		}
		if got := pick(t, s, "strict", policy.Request{GPUs: 2}); !slices.Equal(got, []cluster.GPUID{0, 1}) {
			t.Errorf("first fit: %v", got)
		}
	})
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
	probe(t, spec, []cluster.GPUID{0, 8}, func(s *engine.State) {
		p, _ := policy.PlacementByName("strict")
		want := "14 GPUs free, 2 whole servers free; strict placement needs 3 whole servers and 2 GPUs on one more"
		if why := p.WhyNot(s, policy.Request{GPUs: 14}); why != want {
			t.Errorf("why %q\nwant %q", why, want)
		}
	})
}

// Both placements say when too few GPUs of the job's type or memory are
// free.
func TestWhyNotTooFew(t *testing.T) {
	mixed := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 2, GPUType: "K80", GPUMemoryGB: 12},
		{Count: 1, GPUs: 4, GPUType: "V100", GPUMemoryGB: 32},
	}}
	probe(t, mixed, []cluster.GPUID{2}, func(s *engine.State) {
		for _, name := range policy.PlacementNames() {
			p, _ := policy.PlacementByName(name)
			for _, tc := range []struct {
				r    policy.Request
				want string
			}{
				{policy.Request{GPUs: 4, GPUType: "V100"}, "needs 4 V100 GPUs, 3 free"},
				{policy.Request{GPUs: 4}, "needs 4 GPUs of one type, at most 3 free of any type"},
				{policy.Request{GPUs: 2, MemoryGB: 20, GPUType: "K80"}, "needs 2 K80 GPUs with 20 GB free, 0 free"},
			} {
				if got := p.Pick(s, tc.r); got != nil {
					t.Errorf("%s placed %v", name, got)
				}
				if why := p.WhyNot(s, tc.r); why != tc.want {
					t.Errorf("%s: %q, want %q", name, why, tc.want)
				}
			}
		}
	})
}

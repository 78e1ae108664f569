package cluster

import (
	"math"
	"testing"
)

func testCluster(t *testing.T) *Cluster {
	t.Helper()
	c, err := New(Spec{
		Servers: []ServerGroup{
			{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16},
			{Count: 1, GPUs: 8, GPUType: "K80", GPUMemoryGB: 12, IntraServerGBps: 20},
		},
		ServersPerRack: 2,
		Network:        Network{InterServerGBps: 3, InterRackGBps: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewNumbersDensely(t *testing.T) {
	c := testCluster(t)
	if c.NumGPUs() != 16 || len(c.Servers) != 3 || c.NumRacks != 2 {
		t.Fatalf("got %d GPUs, %d servers, %d racks", c.NumGPUs(), len(c.Servers), c.NumRacks)
	}
	for i, g := range c.GPUs {
		if int(g.ID) != i {
			t.Fatalf("GPU %d has ID %d", i, g.ID)
		}
	}
	if g := c.GPUs[9]; g.Server != 2 || g.Slot != 1 || g.Type != "K80" || g.MemoryGB != 12 {
		t.Fatalf("GPU 9 = %+v", g)
	}
	if got := c.Types(); len(got) != 2 || got[0] != "K80" || got[1] != "V100" {
		t.Fatalf("types %v", got)
	}
	if c.GPUsOfType("V100") != 8 || c.MaxGPUsPerServer() != 8 {
		t.Fatal("type counts wrong")
	}
}

func TestRingBandwidth(t *testing.T) {
	c := testCluster(t)
	cases := []struct {
		gpus []GPUID
		want float64
	}{
		{[]GPUID{0}, 0},
		{[]GPUID{0, 1, 2}, DefaultIntraServerGBps},
		{[]GPUID{8, 9}, 20},
		{[]GPUID{0, 4}, 3},
		{[]GPUID{0, 8}, 1},
	}
	for _, tc := range cases {
		if got := c.RingBandwidthGBps(tc.gpus); got != tc.want {
			t.Errorf("RingBandwidthGBps(%v) = %v, want %v", tc.gpus, got, tc.want)
		}
	}
	if n := c.ServersSpanned([]GPUID{0, 1, 4, 8, 9}); n != 3 {
		t.Errorf("ServersSpanned = %d, want 3", n)
	}
}

func TestFit(t *testing.T) {
	c := testCluster(t)
	cases := []struct {
		gpus int
		mem  float64
		typ  string
		ok   bool
	}{
		{8, 0, "", true},
		{9, 0, "", false}, // no type has 9 GPUs
		{8, 14, "", true}, // V100 has 8 with 16 GB
		{8, 17, "", false},
		{4, 0, "A100", false},
		{8, 13, "K80", false},
	}
	for _, tc := range cases {
		ok, why := c.Fit(tc.gpus, tc.mem, tc.typ)
		if ok != tc.ok {
			t.Errorf("Fit(%d, %v, %q) = %v (%s), want %v", tc.gpus, tc.mem, tc.typ, ok, why, tc.ok)
		}
		if !ok && why == "" {
			t.Errorf("Fit(%d, %v, %q) gave no reason", tc.gpus, tc.mem, tc.typ)
		}
	}
}

// Fit with types that differ in count and memory, so that each type's
// numbers must be its own: only the two A100s have 40 GB.
func TestFitByType(t *testing.T) {
	c, err := New(Spec{Servers: []ServerGroup{
		{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16},
		{Count: 1, GPUs: 2, GPUType: "A100", GPUMemoryGB: 40},
		{Count: 3, GPUs: 4, GPUType: "K80", GPUMemoryGB: 12},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		gpus int
		mem  float64
		typ  string
		ok   bool
	}{
		{2, 30, "", true}, {3, 30, "", false}, {12, 0, "", true}, {12, 13, "", false}, {8, 13, "", true},
		{9, 13, "", false}, {12, 0, "K80", true}, {3, 0, "A100", false}, {2, 0, "A100", true},
	} {
		if ok, why := c.Fit(tc.gpus, tc.mem, tc.typ); ok != tc.ok {
			t.Errorf("Fit(%d, %v, %q) = %v (%s), want %v", tc.gpus, tc.mem, tc.typ, ok, why, tc.ok)
		}
	}
}

// FitsAnyType, the engine's shortcut, may say yes only where Fit does,
// and says yes for the usual job of no type that every type can hold.
func TestFitsAnyTypeAgreesWithFit(t *testing.T) {
	mixed, err := New(Spec{Servers: []ServerGroup{
		{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16},
		{Count: 1, GPUs: 2, GPUType: "A100", GPUMemoryGB: 40},
		{Count: 3, GPUs: 4, GPUType: "K80"}, // memory not stated
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Cluster{testCluster(t), mixed} {
		for gpus := -1; gpus <= 20; gpus++ {
			for _, mem := range []float64{-1, 0, 8, 12, 16, 17, 40, 41, math.NaN()} {
				ok, _ := c.Fit(gpus, mem, "")
				if c.FitsAnyType(gpus, mem) && !ok {
					t.Errorf("FitsAnyType(%d, %v) says yes, Fit no", gpus, mem)
				}
			}
		}
	}
	if !mixed.FitsAnyType(12, 16) || mixed.FitsAnyType(13, 0) || mixed.FitsAnyType(1, 17) || mixed.FitsAnyType(0, 0) {
		t.Error("FitsAnyType: want yes for 12 GPUs of 16 GB, no for 13 GPUs, 17 GB or no GPUs")
	}
}

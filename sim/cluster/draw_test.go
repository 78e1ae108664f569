package cluster

import (
	"strings"
	"testing"
)

func drawnGPUs(t *testing.T, s Spec) []int {
	t.Helper()
	var out []int
	for _, g := range s.Servers {
		if g.Count != 1 {
			t.Fatalf("a drawn group holds one server, got %d", g.Count)
		}
		out = append(out, g.GPUs)
	}
	return out
}

// TestServerDraw: a draw gives its number of servers, each with a count
// from the set, the same for a seed and another for another seed; a run's
// own draw (per seed) differs from run to run and is the same for a seed.
func TestServerDraw(t *testing.T) {
	d := &ServerDraw{Servers: 20, GPUsFrom: []int{4, 8, 16, 32}, GPUType: "V100", Seed: 2022}
	a := Spec{Draw: d}
	if err := a.Expand(); err != nil {
		t.Fatal(err)
	}
	if err := a.Expand(); err != nil { // a second call keeps the draw
		t.Fatalf("Expand twice: %v", err)
	}
	ga := drawnGPUs(t, a)
	if len(ga) != 20 {
		t.Fatalf("%d servers, want 20", len(ga))
	}
	seen := map[int]int{}
	for _, g := range ga {
		seen[g]++
	}
	for g := range seen {
		if g != 4 && g != 8 && g != 16 && g != 32 {
			t.Fatalf("a server with %d GPUs, not in the set", g)
		}
	}
	if len(seen) < 3 {
		t.Errorf("20 servers drawn from 4 counts used only %v", seen)
	}
	b := Spec{Draw: &ServerDraw{Servers: 20, GPUsFrom: []int{4, 8, 16, 32}, GPUType: "V100", Seed: 2022}}
	if err := b.Expand(); err != nil {
		t.Fatal(err)
	}
	if fmtInts(drawnGPUs(t, b)) != fmtInts(ga) {
		t.Errorf("the same seed drew two clusters")
	}
	c := Spec{Draw: &ServerDraw{Servers: 20, GPUsFrom: []int{4, 8, 16, 32}, GPUType: "V100", Seed: 2023}}
	_ = c.Expand()
	if fmtInts(drawnGPUs(t, c)) == fmtInts(ga) {
		t.Errorf("seeds 2022 and 2023 drew the same cluster")
	}
	// A fixed draw: every run uses it.
	if s, _ := a.ForSeed(7); fmtInts(drawnGPUs(t, s)) != fmtInts(ga) {
		t.Errorf("a fixed draw changed with the run's seed")
	}
	d.PerSeed = true
	s1, err := a.ForSeed(1)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := a.ForSeed(2)
	s1b, _ := a.ForSeed(1)
	if fmtInts(drawnGPUs(t, s1)) == fmtInts(drawnGPUs(t, s2)) {
		t.Errorf("per seed: runs 1 and 2 drew the same cluster")
	}
	if fmtInts(drawnGPUs(t, s1)) != fmtInts(drawnGPUs(t, s1b)) {
		t.Errorf("per seed: run 1 drew two clusters")
	}
	if _, err := New(s1); err != nil {
		t.Errorf("a drawn cluster does not build: %v", err)
	}
	both := Spec{Servers: []ServerGroup{{Count: 1, GPUs: 4, GPUType: "V100"}}, Draw: d}
	if err := both.Expand(); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("servers and draw together: %v, want refused", err)
	}
	for _, bad := range []ServerDraw{{Servers: 0, GPUsFrom: []int{4}}, {Servers: 2}, {Servers: 2, GPUsFrom: []int{0}}} {
		s := Spec{Draw: &bad}
		if err := s.Expand(); err == nil {
			t.Errorf("draw %+v accepted", bad)
		}
	}
}

func fmtInts(xs []int) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString(" ")
		b.WriteString(strings.Repeat("|", x))
	}
	return b.String()
}

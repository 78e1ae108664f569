package pack

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// The Blox-derived table is in the ranges spec 003 §5.6 quotes from the
// same file, and every value names its source.
func TestBloxTable(t *testing.T) {
	tab, err := Blox()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m      string
		lo, hi float64
	}{{"DCGAN", 1.36, 2.0}, {"resnet50", 1.04, 1.30}, {"PointNet", 1.26, 1.34}, {"vgg19", 0.86, 1.10}} {
		a, b, ok := tab.Pair(c.m, c.m, 1)
		if !ok || a+b < c.lo || a+b > c.hi {
			t.Errorf("%s+%s combined %.3f (ok %v), spec range %.2f–%.2f", c.m, c.m, a+b, ok, c.lo, c.hi)
		}
	}
	if _, _, ok := tab.Pair("Bert-Large", "GPT2-Medium", 2); ok {
		t.Error("an unmeasured pair of language models has an edge")
	}
	if a, b, ok := tab.Pair("DCGAN", "resnet50", 8); !ok || a+b < 1 {
		t.Errorf("8-GPU DCGAN+resnet50 (from the 4-GPU rows) %.3f, ok %v", a+b, ok)
	}
	for c := range tab.GPUs {
		for i := range tab.Models {
			for k := range tab.Models {
				if tab.T[c][i][k] > 0 && tab.Source[c][i][k] == "" {
					t.Errorf("%s|%s has no source", tab.Models[i], tab.Models[k])
				}
			}
		}
	}
}

func toy() *Table {
	// a–x 1.9, a–y 1.05, b–x 1.05 (spec §3.5); b–y not profiled. The two
	// sides of each pair differ (host first: a–x 1.2 + 0.7, a–y
	// 0.3 + 0.75, b–x 0.25 + 0.8), so that a weight that swapped host and
	// guest, or counted one side twice, would change the matching: with
	// the host's side twice a–x would weigh 2.4 against 0.6 + 0.5.
	ms := []string{"a", "b", "x", "y"}
	T := make([][]float64, 4)
	for i := range T {
		T[i] = make([]float64, 4)
	}
	set := func(h, g int, host, guest float64) { T[h][g], T[g][h] = host, guest }
	set(0, 2, 1.2, 0.7)
	set(0, 3, 0.3, 0.75)
	set(1, 2, 0.25, 0.8)
	return &Table{GPUs: []int{1}, Models: ms, T: [][][]float64{T}}
}

// Spec §3.5: the two objectives pick different matchings, with the
// combined throughputs the table gives (host side + guest side).
func TestObjectives(t *testing.T) {
	placed := []Job{{ID: 0, Model: "a", GPUs: 1}, {ID: 1, Model: "b", GPUs: 1}}
	pending := []Job{{ID: 2, Model: "x", GPUs: 1}, {ID: 3, Model: "y", GPUs: 1}}
	got, err := Match(placed, pending, toy(), Options{Objective: Combined})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Guest != 3 || got[1].Guest != 2 || math.Abs(got[0].Combined-1.05) > 1e-12 || math.Abs(got[1].Combined-1.05) > 1e-12 {
		t.Errorf("combined: %+v, want a–y and b–x, 1.05 each", got)
	}
	got, _ = Match(placed, pending, toy(), Options{Objective: Gain})
	if len(got) != 1 || got[0].Host != 0 || got[0].Guest != 2 || math.Abs(got[0].Score-0.9) > 1e-12 {
		t.Errorf("gain: %+v, want a–x only, gain 0.9", got)
	}
	if _, err := Match(placed, pending, toy(), Options{Objective: "best"}); err == nil {
		t.Error("accepted an unknown objective")
	}
}

// On random small graphs the matching's total weight (job-level
// Hungarian and model buckets alike) equals brute force
// over every matching, edges join equal GPU counts only, and a guest
// runs at most once.
func TestMatchAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	ms := []string{"m0", "m1", "m2", "m3"}
	for trial := 0; trial < 300; trial++ {
		T := make([][]float64, 4)
		for i := range T {
			T[i] = make([]float64, 4)
			for k := range T[i] {
				if r.IntN(5) > 0 {
					T[i][k] = float64(r.IntN(10)) / 10
				}
			}
		}
		tab := &Table{GPUs: []int{1}, Models: ms, T: [][][]float64{T}}
		mk := func(n, base int) []Job {
			js := make([]Job, n)
			for i := range js {
				js[i] = Job{ID: workload.JobID(base + i), Model: ms[r.IntN(4)], GPUs: 1 + r.IntN(2)}
			}
			return js
		}
		placed, pending := mk(1+r.IntN(4), 0), mk(1+r.IntN(5), 10)
		for _, hung := range []bool{true, false} {
			o := Options{Objective: []Objective{Combined, Gain}[trial%2], Solver: map[bool]Solver{true: Hungarian, false: Buckets}[hung]}
			got, err := Match(placed, pending, tab, o)
			if err != nil {
				t.Fatal(err)
			}
			sum, seen := 0.0, map[workload.JobID]bool{}
			for _, p := range got {
				if seen[p.Guest] {
					t.Fatalf("guest %d matched twice", p.Guest)
				}
				seen[p.Guest] = true
				sum += p.Score
			}
			if want := bruteMatch(placed, pending, tab, o, 0, map[int]bool{}); math.Abs(sum-want) > 1e-6 {
				t.Fatalf("trial %d (hungarian %v): matched %.4f, optimum %.4f", trial, hung, sum, want)
			}
		}
	}
}

func bruteMatch(placed, pending []Job, tab *Table, o Options, i int, used map[int]bool) float64 {
	if i == len(placed) {
		return 0
	}
	best := bruteMatch(placed, pending, tab, o, i+1, used)
	for k, g := range pending {
		if used[k] {
			continue
		}
		if _, s, ok := Score(placed[i], g, tab, o); ok {
			used[k] = true
			best = max(best, s+bruteMatch(placed, pending, tab, o, i+1, used))
			used[k] = false
		}
	}
	return best
}

package pack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// folded is the objective matchClass hands the Hungarian method, summed
// over the GPU-count classes: each pair's integer score times tieBase plus
// the guest's tie-break (m − its position among the class's guests).
func folded(t *testing.T, placed, pending []Job, pairs []Pair, tab *Table, o Options) int64 {
	t.Helper()
	job := map[workload.JobID]Job{}
	for _, j := range append(append([]Job(nil), placed...), pending...) {
		job[j.ID] = j
	}
	var total int64
	for _, k := range counts(placed) {
		hosts, guests := byCount(placed, k), byCount(pending, k)
		B := tieBase(len(hosts), len(guests))
		pos := map[workload.JobID]int{}
		for i, g := range guests {
			pos[g.ID] = i
		}
		for _, p := range pairs {
			h, g := job[p.Host], job[p.Guest]
			if h.GPUs != k {
				continue
			}
			_, s, ok := Score(h, g, tab, o)
			if !ok {
				t.Fatalf("pair %d+%d has no edge", p.Host, p.Guest)
			}
			total += int64(math.Round(s*scale)) * B
			if B > 1 {
				total += int64(len(guests) - pos[g.ID])
			}
		}
	}
	return total
}

// bruteFolded is the largest folded objective over every matching.
func bruteFolded(placed, pending []Job, tab *Table, o Options) int64 {
	var total int64
	for _, k := range counts(placed) {
		hosts, guests := byCount(placed, k), byCount(pending, k)
		B := tieBase(len(hosts), len(guests))
		used := make([]bool, len(guests))
		var rec func(i int) int64
		rec = func(i int) int64 {
			if i == len(hosts) {
				return 0
			}
			best := rec(i + 1)
			for q, g := range guests {
				if _, s, ok := Score(hosts[i], g, tab, o); ok && !used[q] {
					w := int64(math.Round(s*scale)) * B
					if B > 1 {
						w += int64(len(guests) - q)
					}
					used[q] = true
					best = max(best, w+rec(i+1))
					used[q] = false
				}
			}
			return best
		}
		total += rec(0)
	}
	return total
}

// randomCase draws a pair table with few distinct values (ties) over nm
// models and nh hosts and ng guests of 1 or 2 GPUs, some kept out of
// packing.
func randomCase(r *rand.Rand, nm, nh, ng int) (*Table, []Job, []Job) {
	ms := make([]string, nm)
	T := make([][]float64, nm)
	for i := range T {
		ms[i] = fmt.Sprintf("m%d", i)
		T[i] = make([]float64, nm)
		for k := range T[i] {
			if r.IntN(5) > 0 {
				T[i][k] = float64(r.IntN(8)) / 8
			}
		}
	}
	tab := &Table{GPUs: []int{1}, Models: ms, T: [][][]float64{T}}
	mk := func(n, base int) []Job {
		js := make([]Job, n)
		for i := range js {
			js[i] = Job{ID: workload.JobID(base + i), Model: ms[r.IntN(nm)], GPUs: 1 + r.IntN(2), NoPack: r.IntN(10) == 0}
		}
		return js
	}
	return tab, mk(nh, 0), mk(ng, 1000)
}

// The exact solver reaches the job-level Hungarian's objective, tie-break
// included, and both reach the brute-force optimum, on hundreds of small
// random tie-heavy cases under both objectives.
func TestExactAgainstHungarianAndBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 4))
	for trial := 0; trial < 600; trial++ {
		tab, placed, pending := randomCase(r, 1+r.IntN(4), 1+r.IntN(5), 1+r.IntN(7))
		o := Options{Objective: []Objective{Combined, Gain}[trial%2], MinCombined: []float64{0, 0.9}[trial%3/2]}
		want := bruteFolded(placed, pending, tab, o)
		if trial%2 == 1 {
			// Current pairs to keep (the exact solver may only pick them
			// among equal optima).
			o.Keep = func(h, g workload.JobID) bool { return (int(h)*7+int(g))%3 == 0 }
		}
		for _, sv := range []Solver{Exact, Hungarian} {
			o.Solver = sv
			got, err := Match(placed, pending, tab, o)
			if err != nil {
				t.Fatal(err)
			}
			checkDistinct(t, got)
			if v := folded(t, placed, pending, got, tab, o); v != want {
				t.Fatalf("trial %d, %s: folded objective %d, optimum %d (pairs %v)", trial, sv, v, want, got)
			}
		}
	}
}

// At the sizes of a real round (hundreds of hosts, thousands of guests,
// where brute force is out of reach) the exact solver's objective equals
// the job-level Hungarian's.
func TestExactAgainstHungarianLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for trial := 0; trial < 12; trial++ {
		tab, placed, pending := randomCase(r, 2+r.IntN(10), 20+r.IntN(120), 50+r.IntN(600))
		o := Options{Objective: []Objective{Combined, Gain}[trial%2]}
		var vals []int64
		for _, sv := range []Solver{Exact, Hungarian} {
			o.Solver = sv
			got, err := Match(placed, pending, tab, o)
			if err != nil {
				t.Fatal(err)
			}
			checkDistinct(t, got)
			vals = append(vals, folded(t, placed, pending, got, tab, o))
		}
		if vals[0] != vals[1] {
			t.Fatalf("trial %d: exact %d, hungarian %d", trial, vals[0], vals[1])
		}
	}
}

// Among interchangeable hosts, the exact solver gives a guest the host it
// shares GPUs with now.
func TestExactKeepsCurrentPairs(t *testing.T) {
	tab := &Table{GPUs: []int{1}, Models: []string{"a", "b"}, T: [][][]float64{{{0.6, 0.5}, {0.5, 0.6}}}}
	placed := []Job{{ID: 0, Model: "a", GPUs: 1}, {ID: 1, Model: "a", GPUs: 1}, {ID: 2, Model: "a", GPUs: 1}}
	pending := []Job{{ID: 10, Model: "a", GPUs: 1}, {ID: 11, Model: "a", GPUs: 1}}
	now := map[workload.JobID]workload.JobID{2: 10, 0: 11}
	o := Options{Objective: Combined, Keep: func(h, g workload.JobID) bool { return now[h] == g }}
	got, err := Match(placed, pending, tab, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != (Pair{Host: 0, Guest: 11, Combined: 1.2, Score: 1.2}) || got[1].Host != 2 || got[1].Guest != 10 {
		t.Fatalf("pairs %v, want 0+11 and 2+10 (the current pairs)", got)
	}
	o.Keep = nil
	if got, _ := Match(placed, pending, tab, o); got[0].Host != 0 || got[0].Guest != 10 || got[1].Host != 1 {
		t.Fatalf("without Keep: pairs %v, want 0+10 and 1+11 (host and guest order)", got)
	}
}

func checkDistinct(t *testing.T, pairs []Pair) {
	t.Helper()
	seen := map[workload.JobID]bool{}
	for _, p := range pairs {
		if seen[p.Host] || seen[p.Guest] {
			t.Fatalf("job matched twice in %v", pairs)
		}
		seen[p.Host], seen[p.Guest] = true, true
	}
}

func TestMatchBadSolver(t *testing.T) {
	tab, placed, pending := randomCase(rand.New(rand.NewPCG(1, 1)), 2, 2, 2)
	if _, err := Match(placed, pending, tab, Options{Solver: "simplex"}); err == nil {
		t.Error("accepted an unknown solver")
	}
}

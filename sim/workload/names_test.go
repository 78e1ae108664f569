package workload

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"testing"
)

// numberNames writes what fmt.Sprintf("%s%d") writes, across the lengths
// where the number of digits changes, and nothing for no jobs.
func TestNumberNamesAsSprintf(t *testing.T) {
	for _, prefix := range []string{"", "j", "job-"} {
		for _, first := range []int{0, 1, 7, 9, 95, -12} {
			for _, n := range []int{0, 1, 3, 94, 1005} {
				jobs := make([]Job, n)
				numberNames(jobs, prefix, first)
				for i := range jobs {
					if want := fmt.Sprintf("%s%d", prefix, first+i); jobs[i].Name != want {
						t.Fatalf("prefix %q, first %d, n %d: job %d named %q, want %q", prefix, first, n, i, jobs[i].Name, want)
					}
				}
			}
		}
	}
}

func TestDecimalLen(t *testing.T) {
	for _, x := range []int{0, 1, 9, 10, 11, 99, 100, 999_999, 1_000_000, -1, -10, math.MaxInt64} {
		if got, want := decimalLen(x), len(strconv.Itoa(x)); got != want {
			t.Errorf("decimalLen(%d) = %d, want %d", x, got, want)
		}
	}
}

// sortByArrival gives sort.SliceStable's order: on sorted input (kept as
// it is), on unsorted input with ties (equal arrivals keep their order)
// and with a NaN, whose place only the sort defines.
func TestSortByArrivalAsStableSort(t *testing.T) {
	nan := math.NaN()
	for _, arr := range [][]float64{
		{0, 0, 1, 2, 2, 5},
		{3, 1, 2, 1, 0, 3, 2},
		{1, nan, 0, 2},
		{0, 1, 2, 3, nan, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 1, 0},
		// no neighbours out of order, yet the sort's merge of its blocks
		// of 20 moves the zeros before the ones
		{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, nan, 0, 0, 0},
	} {
		jobs := make([]Job, len(arr))
		for i, a := range arr {
			jobs[i] = Job{Name: strconv.Itoa(i), ArrivalS: a}
		}
		want := append([]Job(nil), jobs...)
		sort.SliceStable(want, func(a, b int) bool { return want[a].ArrivalS < want[b].ArrivalS })
		sortByArrival(jobs)
		for i := range jobs {
			if jobs[i].Name != want[i].Name {
				t.Fatalf("arrivals %v: order %v, want %v", arr, names(jobs), names(want))
			}
		}
	}
}

func names(jobs []Job) []string {
	out := make([]string, len(jobs))
	for i := range jobs {
		out[i] = jobs[i].Name
	}
	return out
}

// Generators that name jobs with numberNames skip Finalize's duplicate
// check: every registered generator, at its defaults and with an
// explicit prefix, must still give unique, non-empty names, numbered in
// arrival order.
func TestGeneratedNamesUnique(t *testing.T) {
	for _, name := range GeneratorNames() {
		kind, _ := LookupGenerator(name)
		g, err := kind.New(kind.NewParams())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for seed := range uint64(3) {
			jobs, err := g.Generate(seed)
			if err != nil {
				t.Fatalf("%s seed %d: %v", name, seed, err)
			}
			seen := map[string]bool{}
			for i, j := range jobs {
				if j.Name == "" || seen[j.Name] {
					t.Fatalf("%s seed %d: job %d named %q, empty or used twice", name, seed, i, j.Name)
				}
				seen[j.Name] = true
				if j.ID != JobID(i) || (i > 0 && j.ArrivalS < jobs[i-1].ArrivalS) {
					t.Fatalf("%s seed %d: job %d has ID %d, arrival %v after %v", name, seed, i, j.ID, j.ArrivalS, jobs[max(i-1, 0)].ArrivalS)
				}
			}
		}
	}
}

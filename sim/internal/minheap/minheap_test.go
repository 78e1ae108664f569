package minheap

import (
	"math/rand/v2"
	"sort"
	"testing"
)

type num int

func (a num) Less(b num) bool { return a < b }

func TestPopsInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		var h Heap[num]
		var want []int
		for i := 0; i < r.IntN(200); i++ {
			x := r.IntN(50)
			h.Push(num(x))
			want = append(want, x)
			if r.IntN(4) == 0 { // interleave pops
				sort.Ints(want)
				if got := int(h.Pop()); got != want[0] {
					t.Fatalf("popped %d, want %d", got, want[0])
				}
				want = want[1:]
			}
		}
		sort.Ints(want)
		for _, w := range want {
			if got := int(h.Pop()); got != w {
				t.Fatalf("popped %d, want %d", got, w)
			}
		}
		if h.Len() != 0 {
			t.Fatal("heap not empty")
		}
	}
}

// Values dropped in place and the rest re-ordered with Init pop in order.
func TestInitAfterFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		var h Heap[num]
		for i := 0; i < r.IntN(300); i++ {
			h.Push(num(r.IntN(100)))
		}
		kept := h[:0]
		var want []int
		for _, x := range h {
			if x%3 != 0 {
				kept = append(kept, x)
				want = append(want, int(x))
			}
		}
		h = kept
		h.Init()
		sort.Ints(want)
		for _, w := range want {
			if got := int(h.Pop()); got != w {
				t.Fatalf("popped %d, want %d", got, w)
			}
		}
	}
}

package mechanism

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// TestByKeySameAsMap: random puts, deletes and clears on byKey and on a
// plain map give the same lookups, for singles and pairs alike.
func TestByKeySameAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b byKey[int]
	want := map[ckey]int{}
	key := func() ckey {
		a := workload.JobID(r.IntN(50))
		if r.IntN(3) == 0 {
			return ckey{a, a + 1 + workload.JobID(r.IntN(5))}
		}
		return ckey{a, -1}
	}
	for step := range 20000 {
		k := key()
		switch op := r.IntN(10); {
		case op < 5:
			b.put(k, step)
			want[k] = step
		case op < 8:
			b.del(k)
			delete(want, k)
		case op == 8:
			var keys []ckey
			for k := range want {
				keys = append(keys, k)
			}
			b.clear(keys)
			clear(want)
		}
		for range 5 {
			k := key()
			v, ok := b.get(k)
			w, wok := want[k]
			if v != w || ok != wok {
				t.Fatalf("step %d: get(%v) = %v, %v; want %v, %v", step, k, v, ok, w, wok)
			}
		}
	}
}

package schema

import (
	"sync"
	"testing"
)

// Nested types, so that building their cache entries takes a while and a
// concurrent reader has time to see one half built.
type (
	raceLeaf struct {
		A int     `json:"a" min:"1"`
		B float64 `json:"b,omitempty" max:"10"`
		C string  `json:"c,omitempty" enum:"x,y"`
	}
	raceMid struct {
		Leaf   raceLeaf   `json:"leaf"`
		Leaves []raceLeaf `json:"leaves,omitempty"`
		Note   string     `json:"note,omitempty"`
	}
	RaceEmbedded struct {
		E1 int `json:"e1,omitempty"`
		E2 int `json:"e2,omitempty"`
	}
	raceTop struct {
		RaceEmbedded
		Name string             `json:"name"`
		Mid  raceMid            `json:"mid"`
		Mids []raceMid          `json:"mids,omitempty"`
		Ptr  *raceMid           `json:"ptr,omitempty"`
		Map  map[string]float64 `json:"map,omitempty"`
		Self []raceTop          `json:"self,omitempty"` // recursive
	}
)

const raceDoc = `{"name": "n", "e1": 1, "e2": 2, "mid": {"leaf": {"a": 1, "b": 2, "c": "x"}, "leaves": [{"a": 2, "c": "y"}], "note": "m"},
	"mids": [{"leaf": {"a": 3, "c": "x"}}], "ptr": {"leaf": {"a": 4, "c": "x"}}, "map": {"k": 1},
	"self": [{"name": "inner", "mid": {"leaf": {"a": 5, "c": "y"}}}]}`

// TestColdCacheConcurrentDecode decodes one valid document from many
// goroutines at once on an empty type cache, many times over: every
// decode must find no problem. The cache used to publish an entry before
// filling it, so a concurrent decode could call every field "unknown"
// (and go test -race reported the unlocked map access at once).
func TestColdCacheConcurrentDecode(t *testing.T) {
	const rounds, goroutines = 300, 8
	for round := range rounds {
		typeInfos.Clear()
		var wg sync.WaitGroup
		bad := make([][]Problem, goroutines)
		start := make(chan struct{})
		for g := range goroutines {
			wg.Go(func() {
				<-start
				var v raceTop
				bad[g] = DecodeBytes([]byte(raceDoc), &v)
				if len(bad[g]) == 0 && (v.Mid.Leaf.A != 1 || v.E2 != 2 || len(v.Self) != 1 || v.Self[0].Mid.Leaf.A != 5) {
					bad[g] = []Problem{{Path: "", Msg: "decoded wrong values"}}
				}
			})
		}
		close(start)
		wg.Wait()
		for g, ps := range bad {
			if len(ps) > 0 {
				t.Fatalf("round %d, goroutine %d: a valid document has problems on a cold cache: %v", round, g, Problems(ps))
			}
		}
	}
}

package doc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
)

// Every built-in scenario survives a round trip, keeps its key order and
// means the same as the original.
func TestRoundTrip(t *testing.T) {
	for _, name := range scenarios.Names() {
		data, _ := scenarios.Read(name)
		tree, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := Marshal(tree)
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: reparse: %v", name, err)
		}
		if !bytes.Equal(Marshal(again), out) {
			t.Errorf("%s: second round trip differs", name)
		}
		var a, b any
		json.Unmarshal(data, &a)
		json.Unmarshal(Compact(tree), &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the round trip changed the meaning", name)
		}
	}
	src := `{"z": 1, "a": [1.50, "x<y", true, null, {}], "m": {"b": 2, "a": 1e3}}`
	tree, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(Compact(tree)), `{"z":1,"a":[1.50,"x<y",true,null,{}],"m":{"b":2,"a":1e3}}`; got != want {
		t.Errorf("compact = %s, want %s", got, want)
	}
}

func TestPaths(t *testing.T) {
	tree, _ := Parse([]byte(`{"cluster": {"servers": [{"count": 4, "gpus": 4}]}}`))
	if v, ok := Get(tree, "cluster.servers[0].gpus"); !ok || v != json.Number("4") {
		t.Errorf("get = %v %v", v, ok)
	}
	tree, err := Set(tree, "cluster.servers[0].gpus", "abc")
	if err != nil {
		t.Fatal(err)
	}
	if Str(tree, "cluster.servers[0].gpus") != "abc" {
		t.Error("set string")
	}
	if tree, err = Set(tree, "cluster.servers[1].count", json.Number("2")); err != nil {
		t.Fatal(err)
	}
	if n := len(List(tree, "cluster.servers")); n != 2 {
		t.Errorf("append: %d servers", n)
	}
	if _, err := Set(tree, "cluster.servers[5].count", json.Number("2")); err == nil {
		t.Error("set past the end should fail")
	}
	if tree, err = Set(tree, "perf.interference.uniform", json.Number("1.5")); err != nil {
		t.Fatal(err)
	}
	if f, ok := Num(tree, "perf.interference.uniform"); !ok || f != 1.5 {
		t.Errorf("created path: %v %v", f, ok)
	}
	tree = Delete(tree, "cluster.servers[0]")
	if c, _ := Num(tree, "cluster.servers[0].count"); c != 2 || len(List(tree, "cluster.servers")) != 1 {
		t.Errorf("delete element: %s", Compact(tree))
	}
	tree = Delete(tree, "perf")
	if _, ok := Get(tree, "perf"); ok {
		t.Error("delete key")
	}
	if got := string(Compact(tree)); got != `{"cluster":{"servers":[{"count":2}]}}` {
		t.Errorf("final tree %s", got)
	}
}

func TestCloneIsDeep(t *testing.T) {
	tree, _ := Parse([]byte(`{"a": [{"b": 1}]}`))
	c := Clone(tree)
	Set(c, "a[0].b", json.Number("2"))
	if v, _ := Num(tree, "a[0].b"); v != 1 {
		t.Error("clone shares structure")
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{``, `{"a": }`, `{"a": 1} x`, `[1, 2`} {
		if _, err := Parse([]byte(src)); err == nil {
			t.Errorf("%q: no error", src)
		}
	}
}

// Objects keep their order and find their keys, small (no index) and big
// (indexed), through sets, replacements and deletions.
func TestObjectSizes(t *testing.T) {
	for _, n := range []int{3, indexFrom, indexFrom + 1, 40} {
		o := NewObject()
		for i := range n {
			o.Set(Index("k", i), json.Number(strconv.Itoa(i)))
		}
		o.Set("k[1]", "one")
		o.Delete("k[0]")
		o.Delete("absent")
		o.Set("k[0]", true)
		c := Clone(o).(*Object)
		c.Delete(Index("k", n-1))
		for _, obj := range []*Object{o, c} {
			if v, _ := obj.Get("k[1]"); v != "one" {
				t.Errorf("%d keys: k[1] = %v", n, v)
			}
			if v, ok := obj.Get("k[0]"); v != true || !ok || obj.Keys()[obj.Len()-1] != "k[0]" {
				t.Errorf("%d keys: k[0] = %v, keys %v", n, v, obj.Keys())
			}
			for i := 2; i < n-1; i++ {
				if v, _ := obj.Get(Index("k", i)); v != json.Number(strconv.Itoa(i)) {
					t.Errorf("%d keys: k[%d] = %v", n, i, v)
				}
			}
		}
		if _, ok := c.Get(Index("k", n-1)); ok || o.Len() != n || c.Len() != n-1 {
			t.Errorf("%d keys: deleted from the clone: %v; lengths %d %d", n, ok, o.Len(), c.Len())
		}
	}
}

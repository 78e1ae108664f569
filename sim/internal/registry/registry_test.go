package registry

import "testing"

func TestRegistry(t *testing.T) {
	r := New[int]("thing")
	r.Add("b", 2)
	r.Add("a", 1)
	if v, ok := r.Get("a"); !ok || v != 1 {
		t.Fatalf("get a: %v %v", v, ok)
	}
	if _, ok := r.Get("c"); ok {
		t.Fatal("c found")
	}
	if n := r.Names(); len(n) != 2 || n[0] != "a" {
		t.Fatalf("names %v", n)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("duplicate accepted")
		}
	}()
	r.Add("a", 3)
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed list is well formed: every mutant has its fields, a
// unique id, a Go file of the repository whose text contains orig exactly
// once, and a mutation that compiles is not checked here (the pass
// reports it as invalid).
func TestMutantListApplies(t *testing.T) {
	root := filepath.Join("..", "..")
	ms, err := readList("mutants.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 40 {
		t.Errorf("%d mutants; the pass asks for at least 40", len(ms))
	}
	for _, m := range ms {
		if !strings.HasSuffix(m.File, ".go") || strings.HasSuffix(m.File, "_test.go") {
			t.Errorf("mutant %s (line %d): %s is not a non-test Go file", m.ID, m.Line, m.File)
			continue
		}
		if _, err := apply(root, m); err != nil {
			t.Errorf("line %d: %v", m.Line, err)
		}
	}
}

func TestParseListErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"missing field", "id: a\nfile: x.go\norig: a\nwhy: b\n", "has no mut"},
		{"same text", "id: a\nfile: x.go\norig: a\nmut: a\nwhy: b\n", "changes nothing"},
		{"duplicate id", "id: a\nfile: x.go\norig: a\nmut: b\nwhy: c\n\nid: a\nfile: x.go\norig: b\nmut: c\nwhy: d\n", "already used"},
		{"unknown key", "id: a\nfiel: x.go\n", "unknown key"},
		{"no colon", "id a\n", "want \"key: value\""},
		{"twice", "id: a\nid: b\n", "given twice"},
	} {
		_, err := parseList(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

func TestApplyNeedsExactlyOneMatch(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte("a := x + y\nb := x + y\nc := x - y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := apply(dir, Mutant{ID: "m", File: "f.go", Orig: "x + y", Mut: "x * y"}); err == nil || !strings.Contains(err.Error(), "2 times") {
		t.Errorf("two matches: %v", err)
	}
	if _, err := apply(dir, Mutant{ID: "m", File: "f.go", Orig: "x / y", Mut: "x * y"}); err == nil || !strings.Contains(err.Error(), "no longer contains") {
		t.Errorf("no match: %v", err)
	}
	got, err := apply(dir, Mutant{ID: "m", File: "f.go", Orig: "x - y", Mut: "y - x"})
	if err != nil || !strings.Contains(string(got), "c := y - x") || !strings.Contains(string(got), "a := x + y") {
		t.Errorf("one match: %q, %v", got, err)
	}
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Mutant is one small change to a formula: in File, the text Orig (which
// must occur exactly once) becomes Mut. Equivalent, when set, explains
// why no test can tell the mutant from the original (the mutant is then
// not counted when it escapes).
type Mutant struct {
	ID         string
	File       string // relative to the repository root
	Orig, Mut  string
	Why        string
	Equivalent string
	Line       int // where the entry starts in the list
}

// Dir is the package directory whose unit tests judge the mutant.
func (m Mutant) Dir() string { return filepath.Dir(m.File) }

// parseList reads the mutant list: blocks of "key: value" lines
// separated by blank lines, '#' starting a comment line. Keys: id, file,
// orig, mut, why (all required) and equivalent (optional). A value is the
// rest of the line after "key:", without surrounding spaces.
func parseList(r io.Reader) ([]Mutant, error) {
	var out []Mutant
	var cur *Mutant
	seen := map[string]int{}
	finish := func() error {
		if cur == nil {
			return nil
		}
		m := *cur
		cur = nil
		for _, f := range []struct{ key, v string }{{"id", m.ID}, {"file", m.File}, {"orig", m.Orig}, {"mut", m.Mut}, {"why", m.Why}} {
			if f.v == "" {
				return fmt.Errorf("line %d: the mutant %q has no %s", m.Line, m.ID, f.key)
			}
		}
		if m.Orig == m.Mut {
			return fmt.Errorf("line %d: mutant %s changes nothing (orig and mut are the same)", m.Line, m.ID)
		}
		if at, ok := seen[m.ID]; ok {
			return fmt.Errorf("line %d: id %s is already used on line %d", m.Line, m.ID, at)
		}
		seen[m.ID] = m.Line
		out = append(out, m)
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "#"):
			continue
		case trimmed == "":
			if err := finish(); err != nil {
				return nil, err
			}
			continue
		}
		key, val, ok := strings.Cut(trimmed, ":")
		if !ok {
			return nil, fmt.Errorf("line %d: want \"key: value\", got %q", n, line)
		}
		if cur == nil {
			cur = &Mutant{Line: n}
		}
		val = strings.TrimSpace(val)
		var dst *string
		switch strings.TrimSpace(key) {
		case "id":
			dst = &cur.ID
		case "file":
			dst = &cur.File
		case "orig":
			dst = &cur.Orig
		case "mut":
			dst = &cur.Mut
		case "why":
			dst = &cur.Why
		case "equivalent":
			dst = &cur.Equivalent
		default:
			return nil, fmt.Errorf("line %d: unknown key %q (want id, file, orig, mut, why or equivalent)", n, key)
		}
		if *dst != "" {
			return nil, fmt.Errorf("line %d: %s is given twice in one mutant", n, key)
		}
		*dst = val
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out, nil
}

// readList parses the list at path.
func readList(path string) ([]Mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ms, err := parseList(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ms, nil
}

// apply returns the source of m's file with the mutation made, or an
// error when the original text does not occur exactly once.
func apply(root string, m Mutant) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join(root, m.File))
	if err != nil {
		return nil, fmt.Errorf("mutant %s: %w", m.ID, err)
	}
	s := string(src)
	switch n := strings.Count(s, m.Orig); n {
	case 1:
	case 0:
		return nil, fmt.Errorf("mutant %s: %s no longer contains %q (update the list)", m.ID, m.File, m.Orig)
	default:
		return nil, fmt.Errorf("mutant %s: %q occurs %d times in %s; make orig longer so that it names one place", m.ID, m.Orig, n, m.File)
	}
	return []byte(strings.Replace(s, m.Orig, m.Mut, 1)), nil
}

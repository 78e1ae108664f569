// Package wording holds a test over every string a user of schedlab can
// see: the scenarios' texts, the Go string literals and struct-tag help
// texts of the simulator, the page and the command line, and the page's
// templates. A reader cannot open the project's specifications or its
// rulings, so no such string may cite them; paper citations (section,
// figure, equation) are fine.
package wording

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, relative to this package.
const root = "../.."

// forbidden names the citations of documents outside the repository:
// a spec by number or section ("spec 004 §4.4", "spec §5.5", "spec 004
// A10"), "the spec" or "the spec's", and a ruling ("ruling R4"). No
// user-visible string uses the word "spec" otherwise (an enum value such
// as spec_tight is not a word), so the word itself is refused.
var forbidden = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bspec(s|'s|’s)?\b[^_\-]`),
	regexp.MustCompile(`(?i)\bspec(s|'s|’s)?$`),
	regexp.MustCompile(`(?i)\brulings?\b`),
	regexp.MustCompile(`\bR\d\b.{0,20}\bruling`),
}

// section is a section sign with its number; paper names a paper (or
// says "the paper").
var (
	section = regexp.MustCompile(`§\s*[0-9IVX]`)
	paper   = regexp.MustCompile(`(?i)paper|et al\.|Gavel|Tesserae|OJPP|SJF-BSBF|SJF-BCO|Pollux|Tiresias|Themis`)
)

// offending returns the forbidden citation s holds, or "". A section
// ("§4.4") is a citation of the spec that numbers it unless the same
// text says which paper's section it is.
func offending(s string) string {
	for _, re := range forbidden {
		if m := re.FindString(s); m != "" {
			return m
		}
	}
	if m := section.FindString(s); m != "" && !paper.MatchString(s) {
		return m
	}
	return ""
}

// TestNoCitationOfOutsideDocuments fails on every user-visible string
// that cites a spec or a ruling, naming the file and the citation.
func TestNoCitationOfOutsideDocuments(t *testing.T) {
	var bad []string
	report := func(where, s string) {
		if m := offending(s); m != "" {
			bad = append(bad, fmt.Sprintf("%s: %q in %q", where, m, clip(s)))
		}
	}
	walk(t, func(path string) {
		switch {
		case strings.HasSuffix(path, "_test.go"):
		case path == "web/codeeditor.js":
			// a third-party editor, bundled and minified: none of its
			// text is schedlab's wording
		case strings.HasSuffix(path, ".go"):
			goStrings(t, path, report)
		case strings.HasSuffix(path, ".json") && strings.HasPrefix(path, "scenarios/"):
			jsonStrings(t, path, report)
		case strings.HasPrefix(path, "web/") && (strings.HasSuffix(path, ".vugu") || strings.HasSuffix(path, ".html") || strings.HasSuffix(path, ".js")):
			textLines(t, path, report)
		case path == "index.html":
			textLines(t, path, report)
		}
	})
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// TestForbiddenCitationsAreFound keeps the patterns honest: each
// citation the issue named is caught, and a paper's own section is not.
func TestForbiddenCitationsAreFound(t *testing.T) {
	for _, s := range []string{"as in spec 000 §5.3", "spec 004 §4.4", "ruling R4", "(spec §6.7)", "spec 004 A10: 1", "the spec's recommendation", "a bound from §1.6"} {
		if offending(s) == "" {
			t.Errorf("%q is not caught", s)
		}
	}
	for _, s := range []string{"SJF-BSBF, Luo et al. 2024, §4.2", "the paper's Fig. 8 (§5.2)", "(§IV of the paper)", "spec_tight", "a job's specification", "memory_preset spec_tight"} {
		if m := offending(s); m != "" {
			t.Errorf("%q is caught (%q), but it cites nothing outside the repository", s, m)
		}
	}
}

// walk calls f with every tracked-looking file's slash path under root,
// skipping build output, caches and test data.
func walk(t *testing.T, f func(string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "out", "axe":
				return filepath.SkipDir
			}
			return nil
		}
		f(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// goStrings reports every string literal of a Go file, and each value
// of its struct tags (help texts), but not its comments.
func goStrings(t *testing.T, path string, report func(where, s string)) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, filepath.Join(root, path), nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tags := map[*ast.BasicLit]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if n.Tag != nil {
				tags[n.Tag] = true
				if tag, err := strconv.Unquote(n.Tag.Value); err == nil {
					report(fmt.Sprintf("%s:%d help", path, fset.Position(n.Pos()).Line), reflect.StructTag(tag).Get("help"))
				}
			}
			return true
		case *ast.BasicLit:
			if n.Kind == token.STRING && !tags[n] {
				if s, err := strconv.Unquote(n.Value); err == nil {
					report(fmt.Sprintf("%s:%d", path, fset.Position(n.Pos()).Line), s)
				}
			}
		}
		return true
	})
}

// jsonStrings reports every string value of a scenario file.
func jsonStrings(t *testing.T, path string, report func(where, s string)) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var visit func(key string, v any)
	visit = func(key string, v any) {
		switch v := v.(type) {
		case string:
			report(path+" "+key, v)
		case []any:
			for i, e := range v {
				visit(fmt.Sprintf("%s[%d]", key, i), e)
			}
		case map[string]any:
			for k, e := range v {
				visit(key+"."+k, e)
			}
		}
	}
	visit("", v)
}

// textLines reports every line of a page template or script.
func textLines(t *testing.T, path string, report func(where, s string)) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		report(fmt.Sprintf("%s:%d", path, i+1), line)
	}
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

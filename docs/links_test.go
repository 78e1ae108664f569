package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, one level up from this package.
const root = ".."

// TestLinks: every relative link and image in the repository's Markdown
// files (README.md, docs/*.md, REPRODUCTION.md and the others) names a
// file or folder that exists, and an anchor ("page.md#limits", "#usage")
// names a heading or an element id of the Markdown file it points into.
func TestLinks(t *testing.T) {
	files := markdownFiles(t)
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		anchors[path] = Anchors(string(data))
		return anchors[path]
	}
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range Links(string(data)) {
			n++
			if problem := check(file, l, anchorsOf); problem != "" {
				rel, _ := filepath.Rel(root, file)
				t.Errorf("%s:%d: link %q: %s", rel, l.Line, l.Target, problem)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d links found: the link pattern misses some", n)
	}
}

// check returns what is wrong with link l of file, or "".
func check(file string, l Link, anchorsOf func(string) map[string]bool) string {
	target, anchor, _ := strings.Cut(l.Target, "#")
	path := file
	if target != "" {
		path = filepath.Join(filepath.Dir(file), filepath.FromSlash(target))
		if _, err := os.Stat(path); err != nil {
			return "no such file"
		}
	}
	if anchor == "" || !strings.HasSuffix(path, ".md") {
		return ""
	}
	if !anchorsOf(path)[anchor] {
		return fmt.Sprintf("no heading or id %q in %s", anchor, filepath.Base(path))
	}
	return ""
}

// markdownFiles lists the repository's Markdown files, leaving out build
// output and dependencies.
func markdownFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || path == filepath.Join(root, "build", "out")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Link is a relative link of a Markdown file.
type Link struct {
	Target string
	Line   int
}

var (
	linkRE   = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeRE   = regexp.MustCompile("`[^`]*`")
	headRE   = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	idRE     = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	schemeRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// Links returns the relative links of a Markdown document, outside code
// blocks and code spans (absolute URLs and mailto: are not checked).
func Links(doc string) []Link {
	var out []Link
	fence := false
	for i, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(line, ""), -1) {
			if !schemeRE.MatchString(m[1]) {
				out = append(out, Link{Target: m[1], Line: i + 1})
			}
		}
	}
	return out
}

// Anchors returns the anchors a Markdown document defines: its headings'
// slugs as GitHub makes them (the second heading of a name gets "-1") and
// the ids of its <a id="..."> elements.
func Anchors(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for _, m := range idRE.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if m := headRE.FindStringSubmatch(line); m != nil {
			s := Slug(m[1])
			if k := seen[s]; k > 0 {
				out[fmt.Sprintf("%s-%d", s, k)] = true
			} else {
				out[s] = true
			}
			seen[s]++
		}
	}
	return out
}

// Slug is GitHub's anchor for a heading: lower case, letters, digits,
// spaces, hyphens and underscores kept, spaces made hyphens.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// TestSlugAndLinks: headings get GitHub's anchors, and links inside code
// are not links.
func TestSlugAndLinks(t *testing.T) {
	for h, want := range map[string]string{
		"Reproducing every figure: `schedlab reproduce`":  "reproducing-every-figure-schedlab-reproduce",
		"Gavel: heterogeneity-aware policies (spec 001)":  "gavel-heterogeneity-aware-policies-spec-001",
		"SJF-BCO (ring-all-reduce jobs under contention)": "sjf-bco-ring-all-reduce-jobs-under-contention",
		"Validation and notices":                          "validation-and-notices",
	} {
		if got := Slug(h); got != want {
			t.Errorf("Slug(%q) = %q, want %q", h, got, want)
		}
	}
	doc := "# A\n# A\nsee [x](b.md#a-1), `[y](no.md)`, [z](https://example.org)\n```\n[w](in-code.md)\n```\n![i](img.svg \"title\")\n"
	links := Links(doc)
	if len(links) != 2 || links[0] != (Link{"b.md#a-1", 3}) || links[1] != (Link{"img.svg", 7}) {
		t.Errorf("links: %v", links)
	}
	if a := Anchors(doc); !a["a"] || !a["a-1"] || len(a) != 2 {
		t.Errorf("anchors: %v", a)
	}
}

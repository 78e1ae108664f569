package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/policy"
	_ "github.com/schedlab/schedlab/sim/policy/all"
)

// TestPoliciesListed: the table of docs/policies.md names every registered
// policy, so a new one is documented where readers look for it.
func TestPoliciesListed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "docs", "policies.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, name := range policy.Names() {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("docs/policies.md does not name policy %q", name)
		}
	}
}

// TestExamplesAreTheCode: each Go block of docs/policies.md marked
// "<!-- code: PATH -->" is the file at PATH as it is, so the examples a
// reader copies are the ones make test builds and the conformance check
// runs (docs/examples).
func TestExamplesAreTheCode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "docs", "policies.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	rest := string(data)
	for {
		_, after, found := strings.Cut(rest, "<!-- code: ")
		if !found {
			break
		}
		path, after, _ := strings.Cut(after, " -->\n")
		body, ok := strings.CutPrefix(after, "```go\n")
		if !ok {
			t.Fatalf("the marker for %s is not followed by a ```go block", path)
		}
		body, rest, _ = strings.Cut(body, "```\n")
		file, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Errorf("docs/policies.md shows %s, which cannot be read: %v", path, err)
			continue
		}
		if body != string(file) {
			t.Errorf("docs/policies.md shows %s, but the file differs: copy it into the page again", path)
		}
		blocks++
	}
	if blocks < 3 {
		t.Errorf("found %d marked code blocks, want the three examples", blocks)
	}
}

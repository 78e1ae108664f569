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

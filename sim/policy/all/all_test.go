package all

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/schedlab/schedlab/"

// Every package under sim/policy that registers a policy is imported here:
// a forgotten import would otherwise show only when a scenario names the
// policy ("unknown policy").
func TestAllImportsEveryRegisteringPackage(t *testing.T) {
	imported := imports(t, "all.go")
	registering := registeringPackages(t, "..")
	if len(registering) < 6 {
		t.Fatalf("found only %d packages that register policies under sim/policy: %v", len(registering), registering)
	}
	for _, pkg := range registering {
		if !imported[pkg] {
			t.Errorf("%s registers a policy but sim/policy/all does not import it: add _ %q to all.go", pkg, pkg)
		}
	}
	for pkg := range imported {
		if !contains(registering, pkg) {
			t.Errorf("sim/policy/all imports %s, which registers no policy", pkg)
		}
	}
}

// imports returns the import paths of a Go file.
func imports(t *testing.T, file string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		out[p] = true
	}
	return out
}

// registeringPackages walks the policy tree (root is sim/policy) and
// returns the import paths of the packages whose non-test files call
// policy.Register, sorted.
func registeringPackages(t *testing.T, root string) []string {
	t.Helper()
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if callsRegister(f) {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			found[module+"sim/policy/"+filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range found {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// callsRegister reports whether the file calls policy.Register (with or
// without type arguments).
func callsRegister(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		fun := call.Fun
		switch x := fun.(type) {
		case *ast.IndexExpr:
			fun = x.X
		case *ast.IndexListExpr:
			fun = x.X
		}
		if sel, ok := fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Register" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "policy" {
				found = true
			}
		}
		return !found
	})
	return found
}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}

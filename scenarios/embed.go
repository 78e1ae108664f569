// Package scenarios holds schedlab's built-in scenarios, embedded so that
// the page, the CLI and the tests all see the same set.
package scenarios

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.json
var files embed.FS

// Default is the scenario the page opens with.
const Default = "fifo-vs-sjf"

// FS is the embedded scenario files, one NAME.json each.
var FS fs.FS = files

// Names lists the embedded scenarios, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Read returns the document of an embedded scenario.
func Read(name string) ([]byte, bool) {
	data, err := fs.ReadFile(files, name+".json")
	return data, err == nil
}

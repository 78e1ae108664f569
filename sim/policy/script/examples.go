package script

import (
	"embed"
	"strings"
)

//go:embed examples/*.star
var exampleFiles embed.FS

// Example is a script to start from, for the page's menu and the tests.
type Example struct {
	Name, Title string
	Source      string
	// Oracle says the script reads job.remaining_s, so it needs the
	// policy's oracle parameter.
	Oracle bool
}

// Params returns the parameters that run the example.
func (e Example) Params() Params { return Params{Source: e.Source, Oracle: e.Oracle} }

// Examples are the scripts offered in the page, in menu order; the
// conformance test runs each of them.
var Examples = []Example{
	{Name: "fifo", Title: "FIFO: first come, first served"},
	{Name: "sjf", Title: "SJF: shortest job first"},
	{Name: "las", Title: "LAS: least attained service, preemptive"},
	{Name: "srgt", Title: "Shortest remaining GPU time, preemptive (oracle)", Oracle: true},
	{Name: "fairshare", Title: "Weighted fair share between owners (decide)"},
	{Name: "sharing", Title: "A sharing-aware key"},
	{Name: "las-decide", Title: "LAS written as a full decision (decide)"},
}

// Template is the script a new script policy starts with.
var Template = read("template")

func init() {
	for i := range Examples {
		Examples[i].Source = read(Examples[i].Name)
	}
}

func read(name string) string {
	data, err := exampleFiles.ReadFile("examples/" + name + ".star")
	if err != nil {
		panic(err) // embedded: a programming error
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n")
}

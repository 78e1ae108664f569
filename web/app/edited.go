package app

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/doc"
)

// editedFrom reports whether a scenario document carries the name of a
// built-in scenario but differs from it, with the built-in's title: its
// title, description and figure titles then describe something else.
func editedFrom(compact string) (title string, edited bool) {
	tree, err := doc.Parse([]byte(compact))
	if err != nil {
		return "", false
	}
	data, ok := builtinDocument(doc.Str(tree, "name"))
	if !ok {
		return "", false
	}
	orig, err := doc.Parse(data)
	if err != nil || string(doc.Compact(orig)) == compact {
		return "", false
	}
	title = doc.Str(orig, "title")
	if title == "" {
		title = doc.Str(orig, "name")
	}
	return title, true
}

// markEdited makes the results of an edited built-in scenario say so:
// the title is marked, and the description, written for the original,
// is replaced by one generated from what was run.
func (res *Results) markEdited(sc *scenario.Scenario, original string) {
	res.Edited = true
	res.Title = original + " (edited)"
	res.Description = fmt.Sprintf("You changed the built-in scenario “%s”, so its description no longer applies. What ran: %s.", original, Describe(sc))
}

// Describe says in one sentence what a scenario simulates: its GPUs, its
// jobs and its policies, generated from the scenario itself.
func Describe(sc *scenario.Scenario) string {
	var groups []string
	total := 0
	for _, g := range sc.Cluster.Servers {
		total += g.Count * g.GPUs
		groups = append(groups, fmt.Sprintf("%s of %d %s", plural(g.Count, "server"), g.GPUs, g.GPUType))
	}
	gpus := fmt.Sprintf("%s (%s)", plural(total, "GPU"), strings.Join(groups, ", "))
	jobs := "its jobs"
	if n, _ := sc.JobCount(); n > 0 {
		jobs = plural(int(n), "job")
	}
	if len(sc.Workload.Jobs) > 0 {
		jobs += " listed one by one"
	} else if kind := doc.Str(mustParse(sc.Workload.Generator), "kind"); kind != "" {
		jobs += " from the " + kind + " generator"
	}
	var labels []string
	for i := range sc.Policies {
		labels = append(labels, sc.PolicyLabel(i))
	}
	return fmt.Sprintf("%s on %s, scheduled by %s", jobs, gpus, andList(labels))
}

func mustParse(data []byte) any {
	t, _ := doc.Parse(data)
	return t
}

// andList joins "a", "b" and "c" as "a, b and c".
func andList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// drawDocument is the document figures are drawn from: for an edited
// built-in scenario, its name is marked, so that no figure title names
// the original as what was run.
func (res *Results) drawDocument() string {
	if !res.Edited {
		return res.Doc
	}
	tree, err := doc.Parse([]byte(res.Doc))
	if err != nil {
		return res.Doc
	}
	tree, err = doc.Set(tree, "name", doc.Str(tree, "name")+" (edited)")
	if err != nil {
		return res.Doc
	}
	return string(doc.Compact(tree))
}

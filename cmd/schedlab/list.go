package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
)

func cmdList(w io.Writer) int {
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		title := "(invalid: run schedlab validate)"
		if sc, err := scenario.Parse(data); err == nil {
			title = sc.Title
		}
		mark := " "
		if n == scenarios.Default {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %-22s %s\n", mark, n, title)
	}
	fmt.Fprintln(w, "\n* the page's default scenario")
	return exitOK
}

func cmdPolicies(w io.Writer) int {
	for _, n := range policy.Names() {
		f, _ := policy.Lookup(n)
		fmt.Fprintf(w, "%s (%s)\n  from: %s\n  %s\n", n, f.Title, f.Paper, wrap(f.Doc, 90, "  "))
		if needs := f.Needs(); needs != "" {
			fmt.Fprintf(w, "  %s\n", wrap(needs, 90, "  "))
		}
		for _, p := range schema.Describe(f.NewParams()) {
			unit := ""
			if p.Unit != "" {
				unit = " [" + p.Unit + "]"
			}
			def := fmt.Sprint(p.Default)
			if lines := strings.Count(def, "\n"); lines > 0 {
				def = fmt.Sprintf("(a script of %d lines)", lines)
			}
			fmt.Fprintf(w, "  - %s%s = %s: %s\n", p.Name, unit, def, p.Help)
		}
		if n == "script" {
			fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(strings.TrimSpace(script.Reference()), "\n", "\n  "))
		}
		fmt.Fprintln(w)
	}
	return exitOK
}

func wrap(s string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		if i > 0 && n+len(word)+1 > width {
			b.WriteString("\n" + indent)
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}

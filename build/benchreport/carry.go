package main

import "strings"

// earlier marks a figure carried over from the table already in the docs.
const earlier = " (from an earlier run of make bench; not measured in this one)"

// carryOver keeps, for each row this run did not measure, the figure the
// docs' table already holds for it, marked as earlier; and the Philly
// rows when this run did not run the log. So a quick run (no -gavel, no
// -philly, no -site) updates what it measured without blanking the rest.
func carryOver(doc string, rows, philly []row) ([]row, []row) {
	oldRows, oldPhilly := parseTable(doc)
	for i, r := range rows {
		if !strings.HasPrefix(r.Value, "not measured") {
			continue
		}
		if o, ok := oldRows[r.Measure]; ok && measured(o.Value) {
			rows[i].Value = strings.TrimSuffix(o.Value, earlier) + earlier
			rows[i].Peer, rows[i].Verdict = o.Peer, o.Verdict
		}
	}
	if len(philly) == 0 {
		for _, o := range oldPhilly {
			if measured(o.Value) && !strings.HasSuffix(o.Value, earlier) {
				o.Value += earlier
			}
			philly = append(philly, o)
		}
	}
	return rows, philly
}

// measured reports whether a table cell holds a figure.
func measured(v string) bool {
	return v != "" && !strings.HasPrefix(v, "not measured") && !strings.HasPrefix(v, "failed")
}

// parseTable reads the rows render wrote into doc's section: the main
// table by measure, and the Philly table in order.
func parseTable(doc string) (map[string]row, []row) {
	i, j := strings.Index(doc, beginMark), strings.Index(doc, endMark)
	main := map[string]row{}
	if i < 0 || j < i {
		return main, nil
	}
	var philly []row
	for _, line := range strings.Split(doc[i+len(beginMark):j], "\n") {
		c := cells(line)
		switch {
		case len(c) == 5 && c[0] != "measure" && !strings.HasPrefix(c[0], "---"):
			main[c[0]] = row{Measure: c[0], Value: c[1], Target: c[2], Peer: c[3], Verdict: c[4]}
		case len(c) == 4 && c[0] != "policy" && !strings.HasPrefix(c[0], "---"):
			philly = append(philly, row{Measure: c[0], Value: c[1], Target: c[2], Verdict: c[3]})
		}
	}
	return main, philly
}

// cells splits a Markdown table line into its cells, undoing cell's
// escapes; a line that is not a table row gives none.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	if len(line) < 2 || line[0] != '|' || line[len(line)-1] != '|' {
		return nil
	}
	var out []string
	var b strings.Builder
	for k := 1; k < len(line); k++ {
		switch {
		case line[k] == '\\' && k+1 < len(line) && line[k+1] == '|':
			b.WriteByte('|')
			k++
		case line[k] == '|':
			out = append(out, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[k])
		}
	}
	return out
}

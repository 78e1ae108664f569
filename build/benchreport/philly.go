package main

import (
	"context"
	"fmt"

	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// phillyLimitS is the CPU each policy may take on the whole Philly log.
const phillyLimitS = 60

// phillyLog imports the whole Philly log twice (the default cluster, and
// 64 V100 for the Gavel family, whose default prices name no RTX 2080 Ti)
// and runs every registered policy on it, one at a time, each stopped
// after phillyLimitS seconds of CPU.
func (m *measurer) phillyLog(ctx context.Context, log string) []row {
	target := fmt.Sprintf("< %d s", phillyLimitS)
	plain, c64 := filepath.Join(m.tmp, "philly.json"), filepath.Join(m.tmp, "philly-constant-64.json")
	progress("importing the Philly log")
	for _, imp := range [][]string{{"import", "philly", log, "--out", plain}, {"import", "philly", log, "--cluster", "constant-64", "--out", c64}} {
		if _, err := m.runNative(ctx, imp...); err != nil {
			return []row{failed("importing the log", target, err)}
		}
	}
	names, err := m.policyNames(ctx)
	if err != nil {
		return []row{failed("listing the policies", target, err)}
	}
	var rows []row
	for _, p := range names {
		file := plain
		if strings.HasPrefix(p, "gavel-") {
			file = c64
		}
		progress("the Philly log under " + p)
		u, stopped, err := limited(ctx, phillyLimitS, m.native, "run", file, "--policies", p, "--workers", "1", "--format", "json")
		r := row{Measure: "`" + p + "`", Target: target}
		switch {
		case stopped:
			r.Value, r.Verdict = fmt.Sprintf("not done in %d s", phillyLimitS), "not met"
		case err != nil:
			r.Value = "cannot run it: " + err.Error()
		default:
			r.Value, r.Verdict = seconds(u.CPU), verdict(u.CPU, phillyLimitS, true)
		}
		if file == c64 && err == nil {
			r.Value += " (64 V100, `--cluster constant-64`)"
		}
		rows = append(rows, r)
	}
	return rows
}

var policyLine = regexp.MustCompile(`(?m)^([a-z0-9][a-z0-9-]*) \(`)

// policyNames lists the registered policies as `schedlab policies` does.
func (m *measurer) policyNames(ctx context.Context) ([]string, error) {
	out, err := exec.CommandContext(ctx, m.native, "policies").Output()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, mm := range policyLine.FindAllStringSubmatch(string(out), -1) {
		names = append(names, mm[1])
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("schedlab policies listed none")
	}
	return names, nil
}

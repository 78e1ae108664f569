package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// page times cold loads of the built site in headless Chromium, on
// localhost and throttled to 20 Mbit/s with 40 ms of latency, and a
// second visit in one browser profile (the module compiled from the
// browser's kept code), through build/e2e's TestLoadFigures.
func (m *measurer) page(ctx context.Context, site string) []row {
	const bytesRow, localRow, slowRow = "page, cold load, bytes transferred (desktop)", "page, cold desktop load on localhost, first results on screen", "page, cold load at 20 Mbit/s and 40 ms, first results on screen"
	if site == "" {
		why := "give -site build/out after make site"
		return []row{skipped(bytesRow, "≤ 4.5 MB", why), skipped(localRow, "< 1.5 s", why), skipped(slowRow, "< 3 s", why), skipped(secondVisitRow, "", why)}
	}
	abs, err := filepath.Abs(site)
	if err != nil {
		return []row{failed(bytesRow, "≤ 4.5 MB", err)}
	}
	progress("cold loads of the page in headless Chromium")
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-timeout", "20m", "-run", `^TestLoadFigures$/^(cold|a_second_visit)`, "-v", "./build/e2e/")
	cmd.Dir = m.root
	cmd.Env = append(os.Environ(), "SCHEDLAB_SITE="+abs, "SCHEDLAB_REQUIRE_E2E=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		err = fmt.Errorf("%v: %s", err, oneLine(string(out), 200))
		return []row{failed(bytesRow, "≤ 4.5 MB", err), failed(localRow, "< 1.5 s", err), failed(slowRow, "< 3 s", err)}
	}
	var rows []row
	loads := parseLoads(string(out))
	for _, l := range loads {
		switch l.Where {
		case "localhost":
			rows = append(rows,
				row{Measure: bytesRow, Value: fmt.Sprintf("%.2f MB", l.TransferredMB), Target: "≤ 4.5 MB", Verdict: verdict(l.TransferredMB, 4.5, true)},
				row{Measure: localRow, Value: fmt.Sprintf("%s%s (the page usable at %s; its own results at %s)", seconds(l.Results), drawnBy(l), seconds(l.Usable), seconds(l.Live)), Target: "< 1.5 s", Verdict: verdict(l.Results, 1.5, true)})
		case "20 Mbit/s 40 ms":
			rows = append(rows, row{Measure: slowRow, Value: fmt.Sprintf("%s%s (the page usable at %s; its own results at %s)", seconds(l.Results), drawnBy(l), seconds(l.Usable), seconds(l.Live)), Target: "< 3 s", Verdict: verdict(l.Results, 3, true)})
		}
	}
	if len(rows) != 3 {
		return []row{failed(bytesRow, "≤ 4.5 MB", fmt.Errorf("TestLoadFigures logged %d of the 2 cold loads it should", len(rows)/2))}
	}
	return append(rows, secondVisit(loads))
}

// secondVisitRow is the page's second visit in one browser profile: no
// target, but what a student coming back waits for.
const secondVisitRow = "page, a second desktop visit on localhost (the module compiled from the browser's kept code): the page usable / its own results"

// secondVisit is the row of the two visits' loads.
func secondVisit(loads []coldLoad) row {
	var first, second *coldLoad
	for i := range loads {
		switch loads[i].Where {
		case "first visit":
			first = &loads[i]
		case "second visit":
			second = &loads[i]
		}
	}
	if first == nil || second == nil {
		return failed(secondVisitRow, "", fmt.Errorf("TestLoadFigures logged no first and second visit"))
	}
	return row{Measure: secondVisitRow, Value: fmt.Sprintf("%s / %s (the same profile's first visit: %s / %s)",
		seconds(second.Usable), seconds(second.Live), seconds(first.Usable), seconds(first.Live))}
}

// drawnBy says who drew the first results, when the load's line says.
func drawnBy(l coldLoad) string {
	if l.DrawnBy == "" {
		return ""
	}
	return ", the build-time results drawn by " + l.DrawnBy
}

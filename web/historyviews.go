package web

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/web/app"
	"github.com/vugu/vugu"
)

// HistorySection is the editor's run history: the runs kept, two of them
// compared side by side, and a way back to each (app/history.go).
type HistorySection struct {
	App *app.App
}

// Hint says what the history keeps, and for how long.
func (c *HistorySection) Hint() string {
	return fmt.Sprintf("Every run of the scenario in this editor is kept here, the last %d (the oldest goes first). Pick two, A and B, to compare them side by side below, or go back to a run's scenario. The %d runs you saw last keep everything, Gantt charts included; the others keep their metrics and completion times, and this browser keeps those across visits. Going back to a run whose full results were not kept runs it again: the same seed gives the same results.", app.HistoryLimit, app.HistoryFull)
}

// Cmp is the comparison on show, nil with fewer than two runs.
func (c *HistorySection) Cmp() *app.RunComparison { return c.App.Compare() }

// RowID is a run's row.
func (c *HistorySection) RowID(r *app.HistoryRun) string { return "history-run-" + strconv.Itoa(r.N) }

// RowClass marks the runs being compared.
func (c *HistorySection) RowClass(r *app.HistoryRun) string {
	if c.IsA(r) || c.IsB(r) {
		return "picked"
	}
	return ""
}

// PickID is the id of a run's A or B choice.
func (c *HistorySection) PickID(which string, r *app.HistoryRun) string {
	return "compare-" + which + "-" + strconv.Itoa(r.N)
}

// PickLabel names a run's A or B choice for screen readers.
func (c *HistorySection) PickLabel(which string, r *app.HistoryRun) string {
	return fmt.Sprintf("Compare run %d as %s", r.N, which)
}

// IsA and IsB say whether r is being compared as A or as B.
func (c *HistorySection) IsA(r *app.HistoryRun) bool { a, _ := c.App.Comparing(); return a == r.N }

// IsB: see IsA.
func (c *HistorySection) IsB(r *app.HistoryRun) bool { _, b := c.App.Comparing(); return b == r.N }

// PickA compares r as A.
func (c *HistorySection) PickA(r *app.HistoryRun) {
	_, b := c.App.Comparing()
	c.App.CompareRuns(r.N, b)
}

// PickB compares r as B.
func (c *HistorySection) PickB(r *app.HistoryRun) {
	a, _ := c.App.Comparing()
	c.App.CompareRuns(a, r.N)
}

// RunName is "Run 3".
func (c *HistorySection) RunName(r *app.HistoryRun) string { return "Run " + strconv.Itoa(r.N) }

// When says how long ago r ran.
func (c *HistorySection) When(r *app.HistoryRun) string { return app.Ago(c.App.P.Now(), r.At) }

// BackID is the id of a run's Go back button.
func (c *HistorySection) BackID(r *app.HistoryRun) string { return "history-back-" + strconv.Itoa(r.N) }

// BackLabel names a run's Go back button for screen readers.
func (c *HistorySection) BackLabel(r *app.HistoryRun) string {
	return fmt.Sprintf("Go back to this run (run %d): its scenario into the editor", r.N)
}

// Heading is the comparison's title.
func (c *HistorySection) Heading() string {
	cmp := c.Cmp()
	return fmt.Sprintf("Run %d (A) against run %d (B)", cmp.A.N, cmp.B.N)
}

// ColumnA and ColumnB head the two runs' columns.
func (c *HistorySection) ColumnA() string { return fmt.Sprintf("Run %d (A)", c.Cmp().A.N) }

// ColumnB: see ColumnA.
func (c *HistorySection) ColumnB() string { return fmt.Sprintf("Run %d (B)", c.Cmp().B.N) }

// OtherText says the runs are of different scenarios.
func (c *HistorySection) OtherText() string {
	cmp := c.Cmp()
	return fmt.Sprintf("These are runs of two different scenarios, “%s” and “%s”, so their fields are not compared one by one.", cmp.A.Title, cmp.B.Title)
}

// ChangesLead introduces the list of changes.
func (c *HistorySection) ChangesLead() string {
	cmp := c.Cmp()
	return fmt.Sprintf("What is different in run %d's scenario from run %d's (everything else is the same):", cmp.B.N, cmp.A.N)
}

// MoreText counts the changes not listed.
func (c *HistorySection) MoreText() string {
	n := c.Cmp().More
	if n == 1 {
		return "…and 1 more change."
	}
	return fmt.Sprintf("…and %d more changes.", n)
}

// DiffClass colours a difference (its words say better or worse too).
func (c *HistorySection) DiffClass(row app.CompareRow) string {
	switch {
	case row.Better:
		return "diff better"
	case row.Worse:
		return "diff worse"
	}
	return "diff"
}

// CDF is the comparison's chart of completion times.
func (c *HistorySection) CDF() vugu.HTML { return vugu.HTML(c.Cmp().CDF) }

// SolidText and DashedText explain the two line styles.
func (c *HistorySection) SolidText() string { return fmt.Sprintf("solid: run %d (A)", c.Cmp().A.N) }

// DashedText: see SolidText.
func (c *HistorySection) DashedText() string { return fmt.Sprintf("dashed: run %d (B)", c.Cmp().B.N) }

// GanttAlt describes a Gantt chart of the comparison.
func (c *HistorySection) GanttAlt(policy string, r *app.HistoryRun) string {
	return fmt.Sprintf("Gantt chart of %s in run %d: which job held which GPU over time", policy, r.N)
}

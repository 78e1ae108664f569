package web

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/web/app"
)

// JobStory shows the story of the job the student clicked, beside the
// page (see app.StoryShown). Any view opens it with App.OpenStory; the
// page shows one at a time.
type JobStory struct {
	App *app.App
	V   *app.StoryView
}

// Compute builds the story once per render.
func (c *JobStory) Compute() { c.V = c.App.StoryShown() }

// Job is the job's name.
func (c *JobStory) Job() string {
	name, _, _ := strings.Cut(c.V.Title, " under ")
	return name
}

// Heading is the rest of the title.
func (c *JobStory) Heading() string {
	_, under, _ := strings.Cut(c.V.Title, " under ")
	return "under " + under
}

// kindLabels name the steps of a story.
var kindLabels = map[string]string{
	"arrived": "Arrived", "waited": "Waited", "blocked": "Blocked", "skipped": "Passed by", "started": "Started",
	"preempted": "Preempted", "paused": "Paused", "migrated": "Moved", "resized": "Resized", "shared": "Shares a GPU",
	"log": "Policy's note", "why": "Why", "finished": "Finished", "unfinished": "Not finished", "unschedulable": "Can never run",
}

// KindLabel names a step's kind.
func (c *JobStory) KindLabel(k string) string {
	if l, ok := kindLabels[k]; ok {
		return l
	}
	return k
}

// Itoa prints an int.
func (c *JobStory) Itoa(i int) string { return strconv.Itoa(i) }

// Expanded is aria-expanded of a step's table button.
func (c *JobStory) Expanded(s app.StepView) string { return boolString(s.Open) }

// TableLabel is the text of a step's table button.
func (c *JobStory) TableLabel(s app.StepView) string {
	if s.Open {
		return "Hide the candidate servers"
	}
	if s.Kind == "started" {
		return "Why there: show every candidate server"
	}
	return "Show every candidate server"
}

// Term explains a filter or score.
func (c *JobStory) Term(name string) string { return app.TermText(name) }

// Terms lists the filters and scores of a table.
func (c *JobStory) Terms(t *app.TableView) []string {
	return append(append([]string(nil), t.Filters...), t.Scores...)
}

// RowClass marks the servers chosen and refused.
func (c *JobStory) RowClass(r app.TableRow) string {
	switch {
	case r.Chosen:
		return "chosen"
	case r.Refused:
		return "refused"
	}
	return ""
}

// HiddenRows says how many servers the table leaves out.
func (c *JobStory) HiddenRows(n int) string {
	return fmt.Sprintf("%d more servers are not shown.", n)
}

// AskLabel is the text of the button that asks for the whole story.
func (c *JobStory) AskLabel() string {
	if c.V.Asking {
		return "Running the policy again…"
	}
	return "Tell its whole story (runs this policy again)"
}

// JobTable lists one policy's jobs (app.JobTable); a job's name opens its
// story.
type JobTable struct {
	App  *app.App
	rows []app.JobLine
}

// Compute pages the table once per render.
func (c *JobTable) Compute() { c.rows, _ = c.App.JobRows() }

// Rows are the jobs on show.
func (c *JobTable) Rows() []app.JobLine { return c.rows }

// Columns are the table's columns.
func (c *JobTable) Columns() []app.JobColumn { return app.JobColumns }

// Itoa prints an int.
func (c *JobTable) Itoa(i int) string { return strconv.Itoa(i) }

// Pressed is aria-pressed of a policy button.
func (c *JobTable) Pressed(i int) string { return boolString(c.App.Jobs().Policy == i) }

// AriaSort says how a column sorts the table.
func (c *JobTable) AriaSort(key string) string {
	t := c.App.Jobs()
	switch {
	case t.Sort != key:
		return "none"
	case t.Desc:
		return "descending"
	}
	return "ascending"
}

package web

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/trace"
	"github.com/schedlab/schedlab/web/app"
)

// ImportTrace shows the trace last imported: its summary, the warnings
// and the options to import it again.
type ImportTrace struct {
	App *app.App
}

// WarningsTitle counts the warnings listed.
func (c *ImportTrace) WarningsTitle() string {
	n := c.App.Trace.Warned
	if n == 1 {
		return "1 warning"
	}
	return fmt.Sprintf("%d warnings", n)
}

// Formats are the formats offered.
func (c *ImportTrace) Formats() []trace.Format { return app.TraceFormats() }

// Clusters are the cluster presets offered.
func (c *ImportTrace) Clusters() []trace.Cluster { return app.TraceClusters() }

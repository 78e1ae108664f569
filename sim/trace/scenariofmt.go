package trace

import (
	"io"

	"github.com/schedlab/schedlab/sim/scenario"
)

func init() {
	formats = append(formats, Format{Name: "scenario", Title: "a schedlab scenario JSON with an explicit job list",
		Columns: `{"workload": {"jobs": [...]}, ...}`, Cluster: "constant-64", absolute: true, read: readScenario})
}

// readScenario takes the explicit jobs of a scenario document (checked
// in full by scenario.Parse); "line" numbers are job positions, from 1.
func readScenario(r io.Reader, b *builder) error {
	data, err := io.ReadAll(io.LimitReader(r, 256<<20))
	if err != nil {
		return err
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		return err
	}
	if len(sc.Workload.Jobs) == 0 {
		return Errors{{0, "workload: the scenario has a generator, not a job list; run it instead"}}
	}
	for i, j := range sc.Workload.Jobs {
		b.rowsIn++
		rw := row{line: i + 1, job: j, submitS: j.ArrivalS}
		rw.job.ID = 0
		b.rows = append(b.rows, rw)
	}
	return nil
}

package trace

import (
	"errors"
	"fmt"
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
	data, err := io.ReadAll(r)
	var le *LimitError
	if errors.As(err, &le) {
		return &LimitError{fmt.Sprintf("the scenario is larger than %s, the most a scenario file may be", size(b.lim.MaxScenarioBytes))}
	}
	if err != nil {
		return readError(err, 0)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		return err
	}
	if len(sc.Workload.Jobs) == 0 {
		return Errors{{0, "workload: the scenario has a generator, not a job list; run it instead"}}
	}
	for i, j := range sc.Workload.Jobs {
		if !b.nextRow(i + 1) {
			break
		}
		rw := parsed{line: i + 1, job: j, submitS: j.ArrivalS}
		rw.job.ID = 0
		b.add(rw)
	}
	return nil
}

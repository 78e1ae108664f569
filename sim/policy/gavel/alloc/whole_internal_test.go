package alloc

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
)

// wholeGPUs gives each holder X = 1 on its type, in the input's order,
// and says which job it is when a holder is missing from the input
// rather than indexing past it.
func TestWholeGPUsRowsAndMissingHolder(t *testing.T) {
	in := &plan.Input{
		Types: []string{"k80", "v100"},
		Jobs:  []plan.Job{{ID: 4, SF: 1}, {ID: 2, SF: 1}, {ID: 7, SF: 1}},
	}
	var h holding
	h.set(7, 0)
	h.set(4, 1)
	h.mark(in)
	al, err := wholeGPUs(in, &h)
	h.unmark(in)
	if err != nil {
		t.Fatal(err)
	}
	// Job 4 is input 0 on v100, job 7 input 2 on k80; job 2 holds nothing.
	if len(al.Combos) != 2 || al.Combos[0].A != 0 || al.Combos[1].A != 2 || al.Combos[0].B != -1 || al.Combos[1].B != -1 ||
		al.Combos[0].X[1] != 1 || al.Combos[0].X[0] != 0 || al.Combos[1].X[0] != 1 || al.Combos[1].X[1] != 0 || al.Objective != 2 {
		t.Fatalf("combos %+v, objective %v", al.Combos, al.Objective)
	}
	h.set(9, 0) // a holder the input does not list
	h.mark(in)
	defer h.unmark(in)
	if _, err := wholeGPUs(in, &h); err == nil || !strings.Contains(err.Error(), "job 9") {
		t.Fatalf("a holder missing from the input: error %v, want one naming job 9", err)
	}
}

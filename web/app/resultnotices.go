package app

import "github.com/schedlab/schedlab/sim/scenario"

// resultNotices words the notices of the scenario that ran (see
// scenario.Notices) for the results, so that "29 of 30" jobs done comes
// with its reason: a generator that made jobs bigger than the cluster.
func resultNotices(sc *scenario.Scenario) []string {
	var out []string
	for _, n := range sc.Notices() {
		switch n.Path {
		case "workload.generator":
			out = append(out, "The generator "+n.Msg+".")
		case "":
			out = append(out, n.Msg)
		default:
			out = append(out, Where(n.Path)+": "+n.Msg+".")
		}
	}
	return out
}

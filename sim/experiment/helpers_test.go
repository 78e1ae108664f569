package experiment

import "github.com/schedlab/schedlab/sim/plot"

func plotOptions() plot.Options { return plot.Options{} }

// Shuffled returns o with its runs handed out in a random order drawn from
// seed, for tests that a run's result does not depend on the others.
func Shuffled(o Options, seed uint64) Options { o.shuffle = seed; return o }

// ShuffledStudy is Shuffled for RunStudy.
func ShuffledStudy(o StudyOptions, seed uint64) StudyOptions { o.shuffle = seed; return o }

// Compact drops the records of every run of st after evaluating them, as
// a compact study (StudyOptions.Compact) does when a sweep value and seed
// are done.
func Compact(st *Study) {
	for _, p := range st.Points {
		var groups []*runGroup
		at := map[uint64]int{}
		for _, r := range p.Report.Runs {
			i, ok := at[r.Seed]
			if !ok {
				i = len(groups)
				at[r.Seed] = i
				groups = append(groups, &runGroup{point: p})
			}
			groups[i].runs = append(groups[i].runs, r)
		}
		for _, g := range groups {
			g.compact(nil)
		}
	}
}

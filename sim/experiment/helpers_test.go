package experiment

import "github.com/schedlab/schedlab/sim/plot"

func plotOptions() plot.Options { return plot.Options{} }

// Shuffled returns o with its runs handed out in a random order drawn from
// seed, for tests that a run's result does not depend on the others.
func Shuffled(o Options, seed uint64) Options { o.shuffle = seed; return o }

// ShuffledStudy is Shuffled for RunStudy.
func ShuffledStudy(o StudyOptions, seed uint64) StudyOptions { o.shuffle = seed; return o }

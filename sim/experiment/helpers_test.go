package experiment

import "github.com/schedlab/schedlab/sim/plot"

func plotOptions() plot.Options { return plot.Options{} }

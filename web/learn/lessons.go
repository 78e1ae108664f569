package learn

import (
	"fmt"
	"math"
)

// Lessons is the path, in order.
func Lessons() []*Lesson { return path }

var path = []*Lesson{
	lessonQueues,
	lessonBlocking,
	lessonSJF,
	lessonLoad,
	lessonLAS,
	lessonPlacement,
	lessonGavel,
	lessonSharing,
	lessonTesserae,
	lessonContention,
	lessonClaims,
}

// baseGPUs and the like read the scenario a run ran, for facts.
func facts(r *Run, more map[string]string) map[string]string {
	m := map[string]string{
		"gpus":    fmt.Sprint(r.GPUs()),
		"servers": fmt.Sprint(len(r.Servers)),
		"jobs":    fmt.Sprint(r.JobCount()),
	}
	if len(r.Servers) > 0 {
		m["pergpus"] = fmt.Sprint(r.Servers[0].GPUs)
	}
	if g := r.Generator(); g != nil {
		m["sizes"] = g.Sizes()
		m["meanrun"] = about(g.Duration.MeanS)
		if g.JobsPerHour > 0 {
			m["rate"] = num(g.JobsPerHour)
			m["arrival"] = about(float64(g.Jobs) / g.JobsPerHour * 3600)
		}
	}
	for k, v := range more {
		m[k] = v
	}
	return m
}

// baseCount is the number of jobs of the lesson's own scenario.
func baseCount(r *Run) int {
	if r.Base == nil {
		return 0
	}
	b := Run{Scenario: r.Base}
	return b.JobCount()
}

// mean of the finite values of xs.
func mean(xs []float64) float64 {
	s, n := 0.0, 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			s += x
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

package engine

import "github.com/schedlab/schedlab/sim/workload"

// Series is a named time series a policy recorded during a run, e.g. the
// objective of the linear program it solves, or one job's target share of
// a GPU type. Job is -1 for series not about one job.
type Series struct {
	Name string         `json:"name"`
	Job  workload.JobID `json:"job"`
	T    []float64      `json:"t"`
	V    []float64      `json:"v"`
}

type seriesKey struct {
	name string
	job  workload.JobID
}

// Record appends the point (now, v) to the series name of job (-1 for
// none). Lean runs (NoLog) record nothing. Values must be finite.
func (s *State) Record(name string, job workload.JobID, v float64) {
	if s.cfg.NoLog {
		return
	}
	k := seriesKey{name, job}
	if s.seriesIndex == nil {
		s.seriesIndex = map[seriesKey]int{}
	}
	i, ok := s.seriesIndex[k]
	if !ok {
		i = len(s.res.Series)
		s.seriesIndex[k] = i
		s.res.Series = append(s.res.Series, Series{Name: name, Job: job})
	}
	ser := &s.res.Series[i]
	if n := len(ser.T); n > 0 && ser.T[n-1] == s.now {
		ser.V[n-1] = v // one value per instant: the last one
		return
	}
	if s.seriesTotal >= s.caps.SeriesTotal {
		s.res.Stats.DroppedSeries++
		return
	}
	if len(ser.T) >= s.caps.SeriesPoints {
		before := len(ser.T)
		ser.T, ser.V = thinSeries(ser.T), thinSeries(ser.V)
		s.seriesTotal -= before - len(ser.T)
		s.res.Stats.SeriesThinned++
	}
	ser.T = append(ser.T, s.now)
	ser.V = append(ser.V, v)
	s.seriesTotal++
}

// thinSeries keeps every other point, in place.
func thinSeries(x []float64) []float64 {
	k := 0
	for i := 0; i < len(x); i += 2 {
		x[k] = x[i]
		k++
	}
	return x[:k]
}

// Recording reports whether Record keeps anything, so that a policy can
// skip computing values nobody will see.
func (s *State) Recording() bool { return !s.cfg.NoLog }

// FindSeries returns the series with that name and job, or nil.
func (r *Result) FindSeries(name string, job workload.JobID) *Series {
	for i := range r.Series {
		if r.Series[i].Name == name && r.Series[i].Job == job {
			return &r.Series[i]
		}
	}
	return nil
}

package plot

import (
	"fmt"
	"math"
)

// errorf prefixes messages with the public function, so a caller that
// draws several figures knows which one complained.
func errorf(fn, format string, args ...any) error {
	return fmt.Errorf("plot."+fn+": "+format, args...)
}

// seriesName names a series in error messages: by index, and by name when
// it has one.
func seriesName(i int, name string) string {
	if name == "" {
		return fmt.Sprintf("series[%d]", i)
	}
	return fmt.Sprintf("series[%d] (%q)", i, name)
}

// checkFinite reports the first NaN or infinity in xs.
func checkFinite(fn, what string, xs []float64) error {
	for i, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errorf(fn, "%s[%d] must be finite, got %v", what, i, v)
		}
	}
	return nil
}

// checkPositive reports the first value that a log axis cannot show.
func checkPositive(fn, what, option string, xs []float64) error {
	for i, v := range xs {
		if !(v > 0) {
			return errorf(fn, "%s[%d] must be > 0 with %s, got %v", what, i, option, v)
		}
	}
	return nil
}

// checkLabels rejects an empty list of labels (rows, categories, ...).
func checkLabels(fn, what string, labels []string) error {
	if len(labels) == 0 {
		return errorf(fn, "%s is empty", what)
	}
	return nil
}

// checkXY validates the common shape of a Series used by CDF and Lines.
func checkXY(fn string, i int, s Series, o Options) error {
	name := seriesName(i, s.Name)
	if len(s.X) == 0 {
		return errorf(fn, "%s has no points", name)
	}
	if len(s.Y) != len(s.X) {
		return errorf(fn, "%s: X and Y have different lengths (%d and %d)", name, len(s.X), len(s.Y))
	}
	if err := checkFinite(fn, name+".X", s.X); err != nil {
		return err
	}
	if err := checkFinite(fn, name+".Y", s.Y); err != nil {
		return err
	}
	if o.LogX {
		if err := checkPositive(fn, name+".X", "Options.LogX", s.X); err != nil {
			return err
		}
	}
	if o.LogY {
		if err := checkPositive(fn, name+".Y", "Options.LogY", s.Y); err != nil {
			return err
		}
	}
	return nil
}

// checkMaxRows rejects negative caps.
func checkMaxRows(fn string, o Options) error {
	if o.MaxRows < 0 {
		return errorf(fn, "Options.MaxRows must be >= 0 (0 means %d), got %d", defaultMaxRows, o.MaxRows)
	}
	return nil
}

package plot

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// niceTicks places about n labelled ticks at 1, 2, 2.5 or 5 times a power
// of ten. gonum's default asks for only three, which leaves too few grid
// lines to read values off a JCT curve.
type niceTicks struct{ n int }

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: formatTick(lo, 0)}}
	}
	step, prec := niceStep((hi - lo) / float64(max(t.n, 2)))
	first := math.Ceil(lo/step-1e-9) * step
	var ticks []plot.Tick
	for i := 0; i < 1000; i++ {
		v := first + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0 // avoid "-0" from rounding
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v, prec)})
	}
	return ticks
}

// niceStep returns the step of 1, 2, 2.5, 5 or 10 times a power of ten
// nearest to raw, with the number of decimals its labels need.
func niceStep(raw float64) (step float64, prec int) {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	bestErr := math.Inf(1)
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		// raw/(m*mag) is the tick count relative to the one asked for;
		// compare on a log scale so that half and double weigh the same.
		if e := math.Abs(math.Log(raw / (m * mag))); e < bestErr-1e-9 {
			step, bestErr = m*mag, e
		}
	}
	e := math.Floor(math.Log10(step) + 1e-9)
	prec = max(0, -int(e))
	if e <= 0 && math.Abs(step/math.Pow(10, e)-2.5) < 1e-6 {
		prec++ // 0.25, 0.5, 0.75 need one more decimal than 0.2, 0.4
	}
	return step, prec
}

// formatTick writes a tick value without noise digits; very large or small
// magnitudes switch to exponent form so labels stay short.
func formatTick(v float64, prec int) string {
	if a := math.Abs(v); a != 0 && (a >= 1e7 || a < 1e-4) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// timeUnit is a unit a time axis can be shown in.
type timeUnit struct {
	name    string  // as written in the axis label
	seconds float64 // length of one unit in seconds
}

// chooseTimeUnit picks the unit in which the largest time on an axis reads
// best: seconds up to 2 minutes, minutes up to 2 hours, hours beyond.
func chooseTimeUnit(maxAbsSeconds float64) timeUnit {
	switch {
	case maxAbsSeconds >= 2*3600:
		return timeUnit{"h", 3600}
	case maxAbsSeconds >= 120:
		return timeUnit{"min", 60}
	default:
		return timeUnit{"s", 1}
	}
}

// timeLabel appends the unit to an axis label, e.g. "JCT (h)".
func timeLabel(label string, u timeUnit) string {
	if label == "" {
		label = "time"
	}
	return label + " (" + u.name + ")"
}

// setLogAxis switches an axis to a log scale.
func setLogAxis(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = logTicks{}
}

// logTicks labels decades on a wide log axis, and 1-2-5 (then every
// integer mantissa) on a narrow one, where gonum's LogTicks would leave the
// axis without a single label.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	for _, mantissas := range [][]float64{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		if ticks := mantissaTicks(lo, hi, mantissas); len(ticks) >= 3 || len(mantissas) == 9 {
			return ticks
		}
	}
	return nil
}

// mantissaTicks returns the ticks m x 10^k within [lo, hi] for the given
// mantissas m.
func mantissaTicks(lo, hi float64, mantissas []float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range mantissas {
			v := m * math.Pow(10, e)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ticks
}

// roundOut widens [lo, hi] to the nearest multiples of the tick step that
// about n ticks would use, so that the axis ends on labelled ticks.
func roundOut(lo, hi float64, n int) (float64, float64) {
	if !(hi > lo) {
		return lo, hi
	}
	step, _ := niceStep((hi - lo) / float64(n))
	return math.Floor(lo/step+1e-9) * step, math.Ceil(hi/step-1e-9) * step
}

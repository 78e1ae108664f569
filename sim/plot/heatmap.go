package plot

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Heatmap draws a matrix as coloured cells with each value written in its
// cell (e.g. an interference matrix). values[i][j] is the cell of row i
// (drawn top to bottom) and column j; NaN leaves the cell blank (grey).
// Colours run from light (smallest value) to dark (largest).
func Heatmap(title string, rowLabels, colLabels []string, values [][]float64, o Options) (*Figure, error) {
	if err := LoadFaces(); err != nil {
		return nil, err
	}
	const fn = "Heatmap"
	w, h, err := figureSize(fn, o, defaultHeight)
	if err != nil {
		return nil, err
	}
	if err := checkMatrix(fn, rowLabels, colLabels, values); err != nil {
		return nil, err
	}
	nr, nc := len(rowLabels), len(colLabels)

	p := newPlot(title, "", "")
	p.X.Min, p.X.Max = -0.5, float64(nc)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(nr)-0.5
	setCategoryTicks(&p.X, colLabels)
	rows := make([]string, nr)
	for i, l := range rowLabels {
		rows[nr-1-i] = l // row 0 on top, as a matrix is read
	}
	setCategoryTicks(&p.Y, rows)
	p.Add(heatCells(values))
	fitCategoryLabels(p, nil, colLabels, w, h)
	return newFigure(p, nil, w, h, o), nil
}

// checkMatrix validates the shape and values of a heat map.
func checkMatrix(fn string, rowLabels, colLabels []string, values [][]float64) error {
	if err := checkLabels(fn, "rowLabels", rowLabels); err != nil {
		return err
	}
	if err := checkLabels(fn, "colLabels", colLabels); err != nil {
		return err
	}
	if len(values) != len(rowLabels) {
		return errorf(fn, "values has %d rows for %d rowLabels", len(values), len(rowLabels))
	}
	for i, row := range values {
		if len(row) != len(colLabels) {
			return errorf(fn, "values[%d] has %d columns for %d colLabels", i, len(row), len(colLabels))
		}
		for j, v := range row {
			if math.IsInf(v, 0) {
				return errorf(fn, "values[%d][%d] must be finite or NaN (blank cell), got %v", i, j, v)
			}
		}
	}
	return nil
}

// heatCells turns the matrix into labelled cells coloured on one scale.
func heatCells(values [][]float64) *boxes {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range values {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	nr := len(values)
	bx := &boxes{
		outline:   draw.LineStyle{Color: color.White, Width: vg.Points(1)},
		fontSizes: []vg.Length{11, 10, 9, 8, 7, 6},
		uniform:   true,
	}
	for i, row := range values {
		y := float64(nr - 1 - i)
		for j, v := range row {
			cell := box{x0: float64(j) - 0.5, x1: float64(j) + 0.5, y0: y - 0.5, y1: y + 0.5}
			if math.IsNaN(v) {
				cell.fill = color.Gray{Y: 225}
			} else {
				cell.fill = heatColor(unitPosition(v, lo, hi))
				cell.label = formatValue(v)
			}
			bx.items = append(bx.items, cell)
		}
	}
	return bx
}

// unitPosition maps v from [lo, hi] to [0, 1]; a constant matrix sits in
// the middle of the ramp.
func unitPosition(v, lo, hi float64) float64 {
	if hi <= lo {
		return 0.5
	}
	return (v - lo) / (hi - lo)
}

// formatValue writes a cell value with about three significant digits,
// keeping one number of decimals per magnitude so columns line up.
func formatValue(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 1e6 || a < 0.01:
		return strconv.FormatFloat(v, 'g', 2, 64)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

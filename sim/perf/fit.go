package perf

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// ComputePoint is one single-GPU measurement: the compute time of one
// iteration at a per-GPU batch size.
type ComputePoint struct {
	Batch float64
	CompS float64
}

// ReadPolluxPlacements reads a Pollux profile (traces/<app>/placements.csv:
// placement, local_bsz, step_time, sync_time) and returns its single-GPU
// rows (placement "1") as compute points: step time minus sync time.
func ReadPolluxPlacements(r io.Reader) ([]ComputePoint, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("empty profile")
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"placement", "local_bsz", "step_time", "sync_time"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("profile has no %q column", name)
		}
	}
	var pts []ComputePoint
	for n, row := range rows[1:] {
		if row[col["placement"]] != "1" {
			continue
		}
		var v [3]float64
		for k, name := range []string{"local_bsz", "step_time", "sync_time"} {
			if v[k], err = strconv.ParseFloat(row[col[name]], 64); err != nil {
				return nil, fmt.Errorf("line %d: %s: %v", n+2, name, err)
			}
		}
		pts = append(pts, ComputePoint{Batch: v[0], CompS: v[1] - v[2]})
	}
	return pts, nil
}

// FitCompute fits Eq. 3, t_comp(b) = α + β·b, to points by ordinary least
// squares.
func FitCompute(pts []ComputePoint) (alpha, beta float64, err error) {
	if len(pts) < 2 {
		return 0, 0, fmt.Errorf("need at least two points, got %d", len(pts))
	}
	var mx, my float64
	for _, p := range pts {
		mx += p.Batch
		my += p.CompS
	}
	n := float64(len(pts))
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for _, p := range pts {
		sxy += (p.Batch - mx) * (p.CompS - my)
		sxx += (p.Batch - mx) * (p.Batch - mx)
	}
	if sxx == 0 {
		return 0, 0, fmt.Errorf("every point has the same batch size")
	}
	beta = sxy / sxx
	return my - beta*mx, beta, nil
}

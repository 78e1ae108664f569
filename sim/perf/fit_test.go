package perf

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The α_comp and β_comp columns of the default table are least-squares
// fits to Pollux's single-GPU profiles (spec 000 §5.5). This test redoes
// the fit from ../shared/data/pollux and checks the table against it; run
// it with -v to print the fitted values.
func TestFitMatchesPolluxProfiles(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "pollux", "traces")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("Pollux profiles not present:", err)
	}
	for _, row := range DefaultModelTable() {
		f, err := os.Open(filepath.Join(dir, row.Model, "placements.csv"))
		if err != nil {
			t.Fatal(err)
		}
		pts, err := ReadPolluxPlacements(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", row.Model, err)
		}
		alpha, beta, err := FitCompute(pts)
		if err != nil {
			t.Fatalf("%s: %v", row.Model, err)
		}
		t.Logf("%-12s %2d points: alpha_comp_s %.4g, beta_comp_s %.4g (table: %g, %g)", row.Model, len(pts), alpha, beta, row.AlphaCompS, row.BetaCompS)
		// The table rounds the fit to two or three significant digits.
		if rel(alpha, row.AlphaCompS) > 0.01 || rel(beta, row.BetaCompS) > 0.01 {
			t.Errorf("%s: fit α %.4g β %.4g, table α %g β %g", row.Model, alpha, beta, row.AlphaCompS, row.BetaCompS)
		}
	}
}

func rel(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }

func TestFitComputeRecoversALine(t *testing.T) {
	pts := []ComputePoint{{1, 0.3}, {2, 0.5}, {4, 0.9}, {8, 1.7}}
	a, b, err := FitCompute(pts)
	if err != nil || math.Abs(a-0.1) > 1e-12 || math.Abs(b-0.2) > 1e-12 {
		t.Fatalf("α %v β %v err %v", a, b, err)
	}
	if _, _, err := FitCompute(pts[:1]); err == nil {
		t.Error("one point fitted")
	}
	if _, _, err := FitCompute([]ComputePoint{{2, 1}, {2, 3}}); err == nil {
		t.Error("a vertical line fitted")
	}
}

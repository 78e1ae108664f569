package gaveltable

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

const artifact = "../../../../shared/data/gavel/simulation_throughputs.json"

// The committed table is exactly what the converter makes of the artifact.
func TestEmbeddedTableIsTheConvertedArtifact(t *testing.T) {
	data, err := os.ReadFile(artifact)
	if os.IsNotExist(err) {
		t.Skip("../shared/data is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := Convert(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Embedded()) {
		t.Fatal("throughputs.txt is stale: run go run ./sim/perf/gaveltable/convert")
	}
}

func table(t *testing.T) *Table {
	t.Helper()
	tb, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// Spot values of spec 001 §5.3.
func TestSoloThroughputsOfTheSpec(t *testing.T) {
	tb := table(t)
	for _, c := range []struct {
		key  string
		sf   int
		gpu  string
		want float64
	}{
		{"ResNet-50 (batch size 64)", 1, "V100", 4.395},
		{"ResNet-50 (batch size 64)", 1, "K80", 0.619},
		{"Recommendation (batch size 512)", 1, "P100", 48.882},
		{"A3C", 1, "K80", 3.439},
		{"CycleGAN", 1, "V100", 4.426},
		{"LM (batch size 5)", 8, "V100", 698.77},
		{"ResNet-50 (batch size 128)", 2, "K80", 0},
		{"Transformer (batch size 256)", 4, "P100", 5.24},
	} {
		got := tb.Solo(tb.Index(c.key, c.sf), tb.GPUIndex(c.gpu), Consolidated)
		if math.Abs(got-c.want) > 0.006 {
			t.Errorf("%s sf %d on %s: %v, want %v", c.key, c.sf, c.gpu, got, c.want)
		}
	}
	if len(tb.Jobs()) != 26+3*19 {
		t.Errorf("%d job rows, want 83", len(tb.Jobs()))
	}
	if tb.Index("nope", 1) != -1 || tb.GPUIndex("A100") != -1 || tb.Solo(-1, 0, Consolidated) != 0 {
		t.Error("unknown keys must give -1 and throughput 0")
	}
}

// The distribution of pair benefit α+β over the 351 single-GPU type pairs
// (spec 001 §1.4) and a Figure 15 cell.
func TestPairStatisticsOfTheSpec(t *testing.T) {
	tb := table(t)
	want := map[string][5]int{ // infeasible, >1.0, >1.2, >1.5, max×100
		"K80":  {45, 225, 42, 0, 128},
		"P100": {11, 294, 127, 24, 186},
		"V100": {21, 258, 235, 111, 200},
	}
	var single []int
	for i, jt := range tb.Jobs() {
		if jt.SF == 1 {
			single = append(single, i)
		}
	}
	for gpu, w := range want {
		g := tb.GPUIndex(gpu)
		var got [5]int
		maxSum := 0.0
		for x, a := range single {
			for _, b := range single[x:] {
				ta, tb2 := tb.Pair(a, b, g, Consolidated)
				sum := ta/tb.Solo(a, g, Consolidated) + tb2/tb.Solo(b, g, Consolidated)
				switch {
				case ta == 0:
					got[0]++
				case sum > 1.5:
					got[3]++
					fallthrough
				case sum > 1.2:
					got[2]++
					fallthrough
				case sum > 1.0:
					got[1]++
				}
				maxSum = math.Max(maxSum, sum)
			}
		}
		got[4] = int(math.Round(100 * maxSum))
		if got != w {
			t.Errorf("%s: infeasible/>1/>1.2/>1.5/max = %v, want %v", gpu, got, w)
		}
	}
	// Pairs read the same either way round.
	a, b := tb.Index("A3C", 1), tb.Index("CycleGAN", 1)
	g := tb.GPUIndex("p100")
	x1, y1 := tb.Pair(a, b, g, Consolidated)
	y2, x2 := tb.Pair(b, a, g, Consolidated)
	if x1 != x2 || y1 != y2 || x1 == 0 {
		t.Errorf("pair lookups disagree: %v %v / %v %v", x1, y1, x2, y2)
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	for _, doc := range []string{
		"",
		"something else\n",
		"schedlab-gavel-throughputs 1\nsolo 0 1\n",
		"schedlab-gavel-throughputs 1\njob 0 1 A\ntable v100 consolidated\nsolo 5 1\n",
		"schedlab-gavel-throughputs 1\njob 0 1 A\ntable v100 sideways\n",
		"schedlab-gavel-throughputs 1\njob 1 1 A\n",
		"schedlab-gavel-throughputs 1\njob 0 1 A\ntable v100 consolidated\npair 0 0 1\n",
	} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("accepted %q", doc)
		}
	}
	if _, err := Convert([]byte(`{"v100": {"bad key": {"null": 1}}}`)); err == nil {
		t.Error("converted a bad key")
	}
}

// GPUIndex's lowering as it compares finds what strings.ToLower would,
// for ASCII, mixed-case and non-ASCII names.
func TestGPUIndexAnyCase(t *testing.T) {
	tb := &Table{gpus: []string{"v100", "K80", "ǆ1", "k80"}}
	for _, name := range []string{"v100", "V100", "v10", "v1000", "K80", "k80", "Ǆ1", "ǅ1", "ǆ1", "V١00", ""} {
		want := -1
		for i, x := range tb.gpus {
			if x == strings.ToLower(name) {
				want = i
			}
		}
		if got := tb.GPUIndex(name); got != want {
			t.Errorf("GPUIndex(%q) = %d, want %d", name, got, want)
		}
	}
}

// Every pair record of the embedded file reads back through Pair, in both
// orders, on its own GPU type and placement only; pairs without a record
// read as zeros. The records are read from the file's text here, not
// through Parse.
func TestPairEveryRecord(t *testing.T) {
	tb := table(t)
	type at struct{ g, p, a, b int }
	want := map[at][2]float64{}
	g, p := -1, Consolidated
	for _, line := range strings.Split(string(Embedded()), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "table":
			g = tb.GPUIndex(f[1])
			p = Consolidated
			if f[2] == "unconsolidated" {
				p = Unconsolidated
			}
		case len(f) == 5 && f[0] == "pair":
			var a, b int
			var va, vb float64
			if _, err := fmt.Sscan(f[1], &a); err != nil {
				t.Fatal(err)
			}
			fmt.Sscan(f[2], &b)
			fmt.Sscan(f[3], &va)
			fmt.Sscan(f[4], &vb)
			want[at{g, int(p), a, b}] = [2]float64{va, vb}
		}
	}
	if len(want) < 1000 {
		t.Fatalf("only %d pair records read", len(want))
	}
	n := len(tb.jobs)
	for g := range tb.gpus {
		for _, p := range []Placement{Consolidated, Unconsolidated} {
			for a := 0; a < n; a++ {
				for b := a; b < n; b++ {
					v := want[at{g, int(p), a, b}]
					x, y := tb.Pair(a, b, g, p)
					y2, x2 := tb.Pair(b, a, g, p)
					if x != v[0] || y != v[1] || x2 != v[0] || y2 != v[1] {
						t.Fatalf("GPU %d placement %d rows %d, %d: Pair gives %g, %g and reversed %g, %g; the file says %g, %g",
							g, p, a, b, x, y, x2, y2, v[0], v[1])
					}
				}
			}
		}
	}
	if x, y := tb.Pair(0, n, 0, Consolidated); x != 0 || y != 0 {
		t.Errorf("a row past the table: %g, %g, want zeros", x, y)
	}
}

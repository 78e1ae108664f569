package ojpp_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"math"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/policy/ojpp"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// runWithSnapshots runs a built-in scenario's first seed with snapshots on
// and returns its JSON output.
func runWithSnapshots(t *testing.T, name string) results.Output {
	t.Helper()
	data, err := fs.ReadFile(scenarios.FS, name+".json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	seed := sc.RunSeeds()[0]
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{seed}, Snapshots: true, Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Output(seed)
}

func decode(t *testing.T, sn results.Snapshot) ojpp.Snapshot {
	t.Helper()
	if sn.Kind != ojpp.SnapshotKind {
		t.Fatalf("snapshot kind %q", sn.Kind)
	}
	var s ojpp.Snapshot
	if err := json.Unmarshal(sn.Data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// Fig. 4 by hand (spec 002 §6.4): best-fit puts ResNet, VGG19 and AlexNet
// on one GPU, where ResNet suffers 1.22 from VGG19 plus 0.73 from AlexNet;
// OJPP keeps ResNet alone. The snapshot carries those cells, the memory
// stack within capacity and OJPP's τ within τ̄.
func TestSnapshotFig4(t *testing.T) {
	out := runWithSnapshots(t, "ojpp-fig4")
	for _, po := range out.Results {
		if len(po.Snapshots) == 0 {
			t.Fatalf("%s: no snapshots", po.Policy)
		}
		s := decode(t, po.Snapshots[0])
		jobID := func(j int) string { return po.Jobs[j].ID }
		for _, g := range s.GPUs {
			if g.Memory > 1+1e-9 {
				t.Errorf("%s: GPU %d memory %.3f over capacity", po.Policy, g.GPU, g.Memory)
			}
			sum := 0.0
			for _, w := range g.Workers {
				sum += w.Gamma
				cells := 0.0
				for _, b := range w.From {
					cells += b.Cell
				}
				if math.Abs(cells-w.Interference) > 1e-12 || math.Abs(w.Interference+w.Collision-w.Slowdown) > 1e-12 {
					t.Errorf("%s: %s: cells %.4f, interference %.4f, slowdown %.4f", po.Policy, jobID(w.Job), cells, w.Interference, w.Slowdown)
				}
				if jobID(w.Job) != "resnet" {
					continue
				}
				got := map[string]float64{}
				for _, b := range w.From {
					got[jobID(b.Job)] = b.Cell
				}
				switch po.Name {
				case "ojpp-best-fit":
					if math.Abs(got["vgg19"]-1.22) > 1e-9 || math.Abs(got["alexnet"]-0.73) > 1e-9 || len(got) != 2 {
						t.Errorf("best-fit: ResNet slowed by %v, want vgg19 1.22 and alexnet 0.73", got)
					}
				case "ojpp":
					if len(got) != 0 {
						t.Errorf("OJPP: ResNet shares with %v, want alone", got)
					}
				}
			}
			if math.Abs(g.Memory-g.Peak-sum) > 1e-12 {
				t.Errorf("%s: GPU %d memory %.3f is not Σγ %.3f plus peak %.3f", po.Policy, g.GPU, g.Memory, sum, g.Peak)
			}
			if po.Name == "ojpp" && g.Tau > 0.1+1e-12 {
				t.Errorf("OJPP: GPU %d τ %.3f over τ̄", g.GPU, g.Tau)
			}
		}
	}
}

// Every snapshot of an online run matches the run's GPU intervals: the
// workers a snapshot puts on a GPU are the jobs holding it just after.
func TestSnapshotMatchesIntervals(t *testing.T) {
	data, _ := fs.ReadFile(scenarios.FS, "ojpp-online.json")
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	seed := sc.RunSeeds()[0]
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{seed}, Snapshots: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.ForSeed(seed) {
		if len(r.Result.Snapshots) < 10 {
			t.Fatalf("%s: %d snapshots", r.Policy, len(r.Result.Snapshots))
		}
		for _, sn := range r.Result.Snapshots {
			var s ojpp.Snapshot
			if err := json.Unmarshal(sn.Data, &s); err != nil {
				t.Fatal(err)
			}
			for _, g := range s.GPUs {
				for _, w := range g.Workers {
					held := false
					for _, iv := range r.Result.Intervals {
						held = held || int(iv.GPU) == g.GPU && int(iv.Job) == w.Job && iv.StartS <= sn.TimeS && sn.TimeS < iv.EndS
					}
					if !held {
						t.Fatalf("%s at %.0f s: job %d is not on GPU %d", r.Policy, sn.TimeS, w.Job, g.GPU)
					}
				}
			}
		}
	}
}

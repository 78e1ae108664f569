package tesserae_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/perf"
	_ "github.com/schedlab/schedlab/sim/policy/tesserae"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

// family are the policies this package registers.
var family = []string{"tesserae", "tesserae-ftf", "tesserae-gavel-migration", "tiresias-single"}

// runAll runs every policy of the family on the cluster, jobs and perf
// model given as JSON, with every engine invariant checked, and fails
// unless each job finishes.
func runAll(t *testing.T, servers, jobs, perf string) {
	t.Helper()
	var pols []string
	for _, p := range family {
		pols = append(pols, fmt.Sprintf(`{"name": %q}`, p))
	}
	doc := fmt.Sprintf(`{"name": "t", "cluster": {"servers": %s}, "workload": {"jobs": %s}, "perf": %s, "policies": [%s], "seeds": [1]}`,
		servers, jobs, perf, strings.Join(pols, ", "))
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Runs {
		if r.Err != nil {
			t.Errorf("%s: %v", r.PolicyName, r.Err)
			continue
		}
		for _, j := range r.Result.Jobs {
			if j.Status != engine.Finished {
				t.Errorf("%s: job %s is %s (%s)", r.PolicyName, j.Name, j.Status, j.Reason)
			}
		}
	}
}

// An 8-GPU job on a cluster whose first GPU type, in server order, has too
// few GPUs for it (two 2-GPU P100 servers) and whose second has enough
// (three 4-GPU V100 servers) runs on the V100s. It was left waiting on an
// idle cluster, a livelock the engine stopped, when the exclusive pass
// gave up after the first type.
func TestLargeJobTakesALaterType(t *testing.T) {
	runAll(t, `[{"count": 2, "gpus": 2, "gpu_type": "P100"}, {"count": 3, "gpus": 4, "gpu_type": "V100"}]`,
		`[{"id": "big", "arrival_s": 0, "model": "resnet50", "gpus": 8, "duration_s": 1000},
		  {"id": "a", "arrival_s": 10, "model": "vgg19", "gpus": 1, "duration_s": 500},
		  {"id": "b", "arrival_s": 20, "model": "DCGAN", "gpus": 2, "duration_s": 700}]`,
		`{"model": "constant"}`)
}

// A 4-GPU job that needs 14 GB per GPU runs on the 16 GB V100 server, not
// on the first server, whose 12 GB K80s the engine refuses to start it on.
func TestJobSkipsGPUsWithTooLittleMemory(t *testing.T) {
	runAll(t, `[{"count": 1, "gpus": 4, "gpu_type": "K80", "gpu_memory_gb": 12}, {"count": 1, "gpus": 4, "gpu_type": "V100", "gpu_memory_gb": 16}]`,
		`[{"id": "big", "arrival_s": 0, "model": "resnet50", "gpus": 4, "memory_gb": 14, "duration_s": 1000},
		  {"id": "a", "arrival_s": 10, "model": "vgg19", "gpus": 1, "memory_gb": 4, "duration_s": 500}]`,
		`{"model": "constant"}`)
}

// A job that Gavel's throughput table gives no throughput on K80s at 2
// GPUs (a ResNet-50, for one) would never progress there (the engine stops
// the run with "the perf model gives rate 0"); it runs on the V100 server
// instead, though the K80 server comes first and holds it as well.
func TestJobSkipsTypesWithoutThroughput(t *testing.T) {
	m, err := perf.NewThroughput(perf.ThroughputParams{})
	if err != nil {
		t.Fatal(err)
	}
	var jobs []string
	for _, tm := range workload.GavelZoo {
		j := &workload.Job{Model: tm.Model, BatchSize: tm.BatchSize, GPUs: 2}
		if m.SoloThroughput(j, "K80") == 0 && m.SoloThroughput(j, "V100") > 0 {
			jobs = append(jobs, fmt.Sprintf(`{"id": "j%d", "arrival_s": %d, "model": %q, "batch_size": %d, "gpus": 2, "duration_s": 1000}`,
				len(jobs), 10*len(jobs), tm.Model, tm.BatchSize))
		}
	}
	if len(jobs) == 0 {
		t.Fatal("Gavel's table gives every 2-GPU job throughput on K80s; the test needs one it does not")
	}
	runAll(t, `[{"count": 1, "gpus": 2, "gpu_type": "K80"}, {"count": 1, "gpus": 2, "gpu_type": "V100"}]`,
		"["+strings.Join(jobs, ", ")+"]", `{"model": "throughput"}`)
}

// A 16-GPU job spread over T4 servers of two sizes (three of 2 GPUs, three
// of 4) starts on 16 GPUs under Gavel's migration rule too; the rule once
// looked for GPUs only on servers of the size of the job's first one and
// gave it 6.
func TestGangAcrossServerSizes(t *testing.T) {
	runAll(t, `[{"count": 3, "gpus": 2, "gpu_type": "T4"}, {"count": 3, "gpus": 4, "gpu_type": "T4"}]`,
		`[{"id": "big", "arrival_s": 0, "model": "resnet50", "gpus": 16, "duration_s": 1000},
		  {"id": "a", "arrival_s": 0, "model": "vgg19", "gpus": 1, "duration_s": 2500},
		  {"id": "b", "arrival_s": 400, "model": "DCGAN", "gpus": 2, "duration_s": 700}]`,
		`{"model": "constant"}`)
}

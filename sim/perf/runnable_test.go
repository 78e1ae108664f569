package perf

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// A job that Gavel's table gives no throughput on the only type the
// cluster has enough GPUs of can never run; the same job runs where that
// type is another.
func TestRunnableKnowsThroughputs(t *testing.T) {
	m, err := NewThroughput(ThroughputParams{})
	if err != nil {
		t.Fatal(err)
	}
	var job *workload.Job
	for _, tm := range workload.GavelZoo {
		j := &workload.Job{Name: "j", Model: tm.Model, BatchSize: tm.BatchSize, GPUs: 4}
		if m.SoloThroughput(j, "K80") == 0 && m.SoloThroughput(j, "V100") > 0 {
			job = j
			break
		}
	}
	if job == nil {
		t.Skip("every 4-GPU job type of the table runs on K80s")
	}
	mk := func(big string) *cluster.Cluster {
		c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{
			{Count: 1, GPUs: 2, GPUType: "P100", GPUMemoryGB: 16},
			{Count: 1, GPUs: 4, GPUType: big, GPUMemoryGB: 16},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ok, why := Runnable(m, mk("K80"), job, 4, 0)
	if ok || !strings.Contains(why, "no throughput on K80") {
		t.Errorf("%s on 4 K80s: runnable %v (%s), want not runnable", job.Model, ok, why)
	}
	if ok, why := Runnable(&Composite{Base: m}, mk("K80"), job, 4, 0); ok {
		t.Errorf("behind interference factors: runnable (%s)", why)
	}
	if ok, why := Runnable(m, mk("V100"), job, 4, 0); !ok {
		t.Errorf("%s on 4 V100s: not runnable: %s", job.Model, why)
	}
	if ok, _ := Runnable(NewConstant(ConstantParams{}), mk("K80"), job, 4, 0); !ok {
		t.Error("a model without per-type throughputs refused the job")
	}
}

package trace

import (
	"bytes"
	"os"
	"testing"
)

// FuzzImport feeds every format arbitrary bytes: an import either fails
// with an error or gives jobs that a scenario accepts, and never panics.
func FuzzImport(f *testing.F) {
	for _, p := range []string{"testdata/gavel-sample.trace", "testdata/tiresias-sample.csv", "testdata/helios-sample.csv", "testdata/pai-sample.csv"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data[:min(len(data), 2000)])
		}
	}
	f.Add([]byte("timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"))
	f.Add([]byte("name,time,application,num_replicas,batch_size\ncifar10-0,107,cifar10,6,2048\n"))
	f.Add([]byte("id,arrival_s,model,gpus,duration_s\na,0,m,1,5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range Formats() {
			if fm.Name == "scenario" {
				continue // scenario.Parse has its own fuzz target
			}
			res, err := Import(fm.Name, bytes.NewReader(data), Options{Sample: 3, Seed: 1})
			if err != nil {
				continue
			}
			for i := range res.Jobs {
				j := &res.Jobs[i]
				if j.GPUs < 1 || j.ArrivalS < 0 || !(j.DurationS > 0 || j.Iterations > 0) {
					t.Fatalf("%s: job %+v", fm.Name, *j)
				}
			}
		}
	})
}

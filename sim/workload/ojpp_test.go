package workload

import "testing"

func TestOJPPQueues(t *testing.T) {
	for q, allowed := range map[int][]string{
		OJPPMixed:   {"LeNet", "LSTM", "ResNet", "VGG19", "CNN", "AlexNet"},
		OJPPCHigh:   {"LeNet", "LSTM", "CNN", "AlexNet"},
		OJPPIHigh:   {"ResNet", "VGG19", "CNN", "AlexNet"},
		OJPPAverage: {"CNN", "AlexNet"},
	} {
		p := DefaultOJPPParams()
		p.Queue, p.Jobs = q, 400
		jobs, err := ojppGen{*p}.Generate(7)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := ojppGen{*p}.Generate(7)
		count := map[string]int{}
		for i, j := range jobs {
			if j != again[i] {
				t.Fatalf("queue %d: not deterministic at job %d", q, i)
			}
			if j.GPUs < 1 || j.GPUs > 10 || j.ArrivalS != 0 {
				t.Fatalf("queue %d: job %+v", q, j)
			}
			count[j.Model]++
		}
		for m := range count {
			if !contains(allowed, m) {
				t.Errorf("queue %d draws %s", q, m)
			}
		}
		special := count["LeNet"] + count["LSTM"] + count["ResNet"] + count["VGG19"]
		want := map[int]float64{OJPPMixed: 0.5, OJPPCHigh: 0.8, OJPPIHigh: 0.8, OJPPAverage: 0}[q]
		if got := float64(special) / 400; got < want-0.07 || got > want+0.07 {
			t.Errorf("queue %d: %.2f of the jobs are C-high or I-high, want about %.2f", q, got, want)
		}
	}
}

package results

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func encoded(t *testing.T, o Output) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func f(x float64) *float64 { return &x }

// WriteOutput must write exactly what encoding/json writes, for every
// kind of field and the awkward values: floats in exponent form, strings
// that need escaping, empty and nil lists, omitted fields.
func TestWriteOutputMatchesEncodingJSON(t *testing.T) {
	jobs := []JobOutput{
		{ID: "j1", Model: "resnet50", GPUs: 4, Weight: 1, Status: "finished", ArrivalS: 0, StartS: f(0), FinishS: f(1e-7), JCTS: f(1e21), QueueS: f(0.1 + 0.2)},
		{ID: `we<ird> & "name"\`, Model: "é\u2028\x01", GPUs: 1, Weight: 2.5, Entity: "team-a", Status: "unschedulable", ArrivalS: 123456789.125,
			Reason: "needs 9 GPUs <of> 8", Preemptions: 3, Migrations: 1},
		{ID: "j3", Status: "finished", ArrivalS: math.Copysign(0, -1), StartS: f(5e-324), FinishS: f(math.MaxFloat64), JCTS: f(1e20), QueueS: f(1e-6),
			Servers: []int32{0, 3}, IterSplit: &IterSplit{Compute: 0.5, Inter: 1e-9}, SoloS: f(12), Slowdown: f(-0.25)},
	}
	po := PolicyOutput{Policy: "FIFO", Name: "fifo", Metrics: Summary{Jobs: 3, AvgJCT: 1.5e-8}, ByModel: []Group{{Name: "a"}},
		Small: Group{Name: "small"}, Large: Group{Name: "large"}, Jobs: jobs, Named: map[string]float64{"z": 1, "a": 2},
		Series:    []Series{{Name: "s", Job: -1, T: []float64{0, 1}, V: []float64{2, 3}}},
		Snapshots: []Snapshot{{T: 1, Kind: "k", Data: json.RawMessage(`{"a":[1,2,{"b":null}]}`)}},
		Notes:     []string{"a note"}, Streamed: true, JCTCDF: &CDF{X: []float64{1}, Y: []float64{1}, MaxError: 0.0005}}
	for _, o := range []Output{
		{},
		{Scenario: "empty", Results: []PolicyOutput{}},
		{Scenario: "s", Seed: 18446744073709551615, Results: []PolicyOutput{po, {Policy: "none", Jobs: []JobOutput{}}, {Error: "boom", Jobs: nil}}},
	} {
		want := encoded(t, o)
		var got bytes.Buffer
		if err := WriteOutput(&got, o); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("WriteOutput differs from encoding/json:\n%s\nwant:\n%s", got.Bytes(), want)
		}
	}
	bad := Output{Results: []PolicyOutput{{Jobs: []JobOutput{{JCTS: f(math.NaN())}}}}}
	if err := WriteOutput(&bytes.Buffer{}, bad); err == nil {
		t.Error("a NaN was written")
	}
}

package results

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
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

// awkward are floats at the edges of encoding/json's formats: the 'f'/'e'
// switch at 1e-6 and 1e21, negative zero, the largest and smallest
// values, whole numbers near 1e15 and 2^53, few-decimal values near 1e9
// and 1e-3, and sums that are one unit off a short decimal.
var awkward = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 1e-7, -1e-7, 1e-6, 9.99999e-7, 1e21, -1e21, 9.999999999999999e20, 1e20,
	123456789012345678, 1 << 53, 1<<53 + 2, -(1 << 53), 1e15, 1e15 - 1, 1e15 + 1, 999999999999999.9, 1e16,
	5e-324, math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 1e-3, 9.99e-4, 0.001000001,
	999999999.999, 1e9, 1e9 - 0.001, 1e9 + 0.25, 0.1 + 0.2, 2710.6840000000007, 1325.6119999999999, 313.196,
	0.007, -0.007, 12.5, 1.005, 2.675, 123.0001, 2.220446049250313e-16, 1e-300, 1e300, 4.35, 0.3,
}

// floatsCompare writes xs with WriteOutput (as the times of one job record and
// the metrics of its group) and with encoding/json.
func floatsCompare(t *testing.T, xs []float64) {
	t.Helper()
	jobs := make([]JobOutput, len(xs))
	for i, x := range xs {
		jobs[i] = JobOutput{ID: "j", Weight: x, ArrivalS: x, StartS: f(x), FinishS: f(-x), JCTS: f(x / 3), QueueS: f(x / 7),
			SoloS: f(x), Slowdown: f(x - 1)}
	}
	o := Output{Results: []PolicyOutput{{Metrics: Summary{AvgJCT: xs[0], GPUHours: xs[len(xs)-1]}, Jobs: jobs,
		Series: []Series{{T: xs, V: xs}}}}}
	want := encoded(t, o)
	var got bytes.Buffer
	if err := WriteOutput(&got, o); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		g, w := got.Bytes(), want
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Fatalf("WriteOutput differs from encoding/json at byte %d:\n%s\nwant:\n%s", i, g[max(0, i-200):min(len(g), i+100)], w[max(0, i-200):min(len(w), i+100)])
	}
}

func TestWriteOutputAwkwardFloats(t *testing.T) {
	floatsCompare(t, awkward)
	for _, x := range awkward {
		floatsCompare(t, []float64{x, math.Nextafter(x, 1), math.Nextafter(x, -1)})
	}
}

// Random floats of every kind WriteOutput formats differently: any bit
// pattern, whole numbers, values rounded to a few decimals (and one unit
// off them), at every magnitude around the fast paths' bounds.
func TestWriteOutputRandomFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 100_000))
	xs := make([]float64, 0, 1000)
	for range 200 {
		xs = xs[:0]
		for len(xs) < cap(xs) {
			var x float64
			switch r.IntN(5) {
			case 0:
				x = math.Float64frombits(r.Uint64())
			case 1:
				x = math.Round(r.NormFloat64() * math.Pow(10, float64(r.IntN(19))))
			case 2:
				p := math.Pow(10, float64(r.IntN(5)))
				x = math.Round(r.Float64()*math.Pow(10, float64(r.IntN(13)))*p) / p
			case 3:
				p := math.Pow(10, float64(r.IntN(5)))
				x = math.Nextafter(math.Round(r.ExpFloat64()*3600*p)/p, math.Inf(2*r.IntN(2)-1))
			default:
				x = r.NormFloat64() * math.Pow(10, float64(r.IntN(60)-30))
			}
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				xs = append(xs, x)
			}
		}
		floatsCompare(t, xs)
	}
}

// JobOutput's fields are written by hand: a record with every field set
// must come out as encoding/json writes it, so a new field fails here
// until jobs writes it.
func TestJobFieldsWrittenByHand(t *testing.T) {
	var o JobOutput
	v := reflect.ValueOf(&o).Elem()
	for i := range v.NumField() {
		fv := v.Field(i)
		switch fv.Kind() {
		case reflect.String:
			fv.SetString("s" + strconv.Itoa(i))
		case reflect.Int:
			fv.SetInt(int64(i + 1))
		case reflect.Float64:
			fv.SetFloat(float64(i) + 0.25)
		case reflect.Pointer:
			fv.Set(reflect.New(fv.Type().Elem()))
			if fv.Elem().Kind() == reflect.Float64 {
				fv.Elem().SetFloat(float64(i) + 0.5)
			}
		case reflect.Slice:
			fv.Set(reflect.MakeSlice(fv.Type(), 2, 2))
		default:
			t.Fatalf("JobOutput.%s: a field of kind %s; extend this test and jobs", v.Type().Field(i).Name, fv.Kind())
		}
	}
	o.Servers[1] = 7
	o.IterSplit.Rounding = 0.125
	out := Output{Results: []PolicyOutput{{Jobs: []JobOutput{o, {}}}}}
	want := encoded(t, out)
	var got bytes.Buffer
	if err := WriteOutput(&got, out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("WriteOutput differs from encoding/json:\n%s\nwant:\n%s", got.Bytes(), want)
	}
}

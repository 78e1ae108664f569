package trace

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// plainMessage says what is wrong with a message, or "" when it is
// plain: no Go wording outside quoted values, none of those longer than
// 80 characters.
func plainMessage(msg string) string {
	for _, q := range quoted.FindAllString(msg, -1) {
		if s, err := strconv.Unquote(q); err == nil && utf8.RuneCountInString(s) > maxQuoted {
			return fmt.Sprintf("a value quoted at %d characters", utf8.RuneCountInString(s))
		}
	}
	rest := quoted.ReplaceAllString(msg, `""`)
	for _, w := range []string{"json: ", "strconv", "parse error", "invalid syntax", "quoted-field", "9223372036854775808", "+Inf", "-Inf", "NaN", "EOF", "runtime error"} {
		if strings.Contains(rest, w) {
			return "Go wording " + strconv.Quote(w)
		}
	}
	return ""
}

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
	for _, s := range []string{
		"\xEF\xBB\xBFResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t1\t1\t-1\t0\n",
		"\xFF\xFEt\x00i\x00",
		"timestamp,duration,num_gpus\n2017-10-09 07:01:55,6\"0,1\n",
		"timestamp,duration,num_gpus\n2017-10-09 07:01:55,60,1\n60,60,1\n",
		"job_id,num_gpu,submit_time,duration\n1,1e10,0,5\n1,1,1e308,5\n",
		"a,worker,1e300,Terminated,1,2,600,29,1e300,V100\n",
		"ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1e300\t1\t1\t-1\t1e308\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range Formats() {
			if fm.Name == "scenario" {
				continue // scenario.Parse has its own fuzz target
			}
			res, err := Import(fm.Name, bytes.NewReader(data), Options{Sample: 3, Seed: 1})
			if err != nil {
				if why := plainMessage(err.Error()); why != "" {
					t.Fatalf("%s: %s in %q", fm.Name, why, err)
				}
				continue
			}
			for _, w := range res.Warnings {
				if why := plainMessage(w.String()); why != "" {
					t.Fatalf("%s: %s in the warning %q", fm.Name, why, w)
				}
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

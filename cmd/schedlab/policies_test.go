package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunWithOtherPolicies(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		code       int
		want, lack []string // in stdout and stderr together
	}{
		{"replaces the scenario's", []string{"run", "tiny", "--policies", "tiresias,pollux"}, exitOK,
			[]string{"Tiresias", "Pollux"}, []string{"FIFO", "SJF"}},
		{"flag before the scenario", []string{"run", "--policies", "sjf", "tiny"}, exitOK, []string{"SJF"}, []string{"FIFO"}},
		{"unknown name", []string{"run", "tiny", "--policies", "fifo,lottery"}, exitInvalid,
			[]string{`unknown policy "lottery"; registered policies: fifo, gavel-allox`}, nil},
		{"listed twice", []string{"run", "tiny", "--policies", "fifo,fifo"}, exitInvalid, []string{"fifo is listed twice"}, nil},
		{"empty", []string{"run", "tiny", "--policies", ","}, exitInvalid, []string{"give at least one policy name"}, nil},
		{"a paper study keeps its sweep, not its checks", []string{"run", "sjf-bsbf-pair", "--policies", "fifo,sjf-bsbf"}, exitOK,
			[]string{"against interference ratio", "FIFO", "SJF-BSBF"}, []string{"Checks:", "SJF-FFS"}},
		{"a sweep of ratios plots curves instead", []string{"run", "sjf-bsbf-memory", "--quick", "--policies", "fifo,sjf"}, exitOK,
			[]string{"against GPU memory", "  FIFO ", "  SJF "}, []string{"not a valid"}},
		{"a sweep over the scenario's own policies", []string{"run", "sjf-bsbf-why-two", "--policies", "fifo"}, exitInvalid,
			[]string{"--policies: the scenario's sweep varies its own policies (sweep.params[0] is policies[0].params.max_jobs_per_gpu)"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := dispatch(c.args, &out, &errOut)
			all := out.String() + errOut.String()
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, all)
			}
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			for _, l := range c.lack {
				if strings.Contains(all, l) {
					t.Errorf("output has %q:\n%s", l, all)
				}
			}
		})
	}
}

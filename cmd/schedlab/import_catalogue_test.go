package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/schedlab/schedlab/sim/trace"
)

// The import catalogue: hostile and broken trace files, and bad flags,
// given to schedlab import. A bad input must be refused (exit 2) with the
// expected phrase, in plain words (no Go wording), quoting at most 80
// characters of any value, within seconds and without the process
// growing past 1 GB; a good one must import with the expected number of
// jobs. Each case ends as one of: clear, unclear (refused, but not in the
// expected words), hang, OOM, or silent (accepted, or imported wrongly,
// without a word).

const (
	phillyHeader   = "timestamp,duration,num_gpus,gpu_time,cluster\n"
	phillyRow      = "2017-10-09 07:01:55,600.0,1,600.0,c1\n"
	polluxHeader   = "name,time,application,num_replicas,batch_size\n"
	tiresiasHeader = "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
	heliosHeader   = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n"
	jobsHeader     = "id,arrival_s,model,gpus,batch_size,iterations,duration_s,weight,entity,memory_gb,compute,deadline_s,gpu_type\n"
	gavelJob       = "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t1\t1\t-1\t"
)

// phillyRows makes n valid Philly rows a minute apart.
func phillyRows(n int) string {
	var b strings.Builder
	b.WriteString(phillyHeader)
	t0 := time.Date(2017, 10, 9, 0, 0, 0, 0, time.UTC)
	for i := range n {
		fmt.Fprintf(&b, "%s,600.0,1,600.0,c1\n", t0.Add(time.Duration(i)*time.Minute).Format("2006-01-02 15:04:05"))
	}
	return b.String()
}

func gavelRow(arrival string) string { return gavelJob + arrival + "\n" }

func tiresiasRow(id, gpus, submit, duration string) string {
	return fmt.Sprintf("%s,%s,%s,100,vgg19,%s,10\n", id, gpus, submit, duration)
}

func heliosRow(id, gpus, submit, duration string) string {
	return fmt.Sprintf("%s,u1,vc1,%s,6,1,COMPLETED,%s,%s,%s,%s,0\n", id, gpus, submit, submit, submit, duration)
}

func paiRow(job, inst, start, end, gpu string) string {
	return fmt.Sprintf("%s,worker,%s,Terminated,%s,%s,600.0,29.3,%s,V100\n", job, inst, start, end, gpu)
}

func jobsRow(fields map[string]string) string {
	row := map[string]string{"id": "a", "arrival_s": "0", "model": "m", "gpus": "1", "duration_s": "60"}
	for k, v := range fields {
		row[k] = v
	}
	cols := strings.Split(strings.TrimSpace(jobsHeader), ",")
	vals := make([]string, len(cols))
	for i, c := range cols {
		vals[i] = row[c]
	}
	return strings.Join(vals, ",") + "\n"
}

type importCase struct {
	name string
	args []string // after "import"; "$F" stands for the file
	data string   // the file, or
	file func(t *testing.T, dir string) string
	// setup changes what the case needs (a lower limit) and undoes it
	// with t.Cleanup.
	setup func(t *testing.T)
	want  []string // phrases stderr must hold
	ok    bool     // a good input: exit 0 with jobs jobs kept
	jobs  int
	code  int // the exit code of a refusal when not exitInvalid
}

func lowerLimits(f func(l *trace.LimitSet)) func(t *testing.T) {
	return func(t *testing.T) {
		old := trace.Limits
		f(&trace.Limits)
		t.Cleanup(func() { trace.Limits = old })
	}
}

func stdinOf(r io.Reader) func(t *testing.T) {
	return func(t *testing.T) {
		old := stdin
		stdin = r
		t.Cleanup(func() { stdin = old })
	}
}

// endlessRows is a stream of one header and then the same row forever.
type endlessRows struct {
	head, row string
	off       int
}

func (e *endlessRows) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		src := e.row
		if e.head != "" {
			src = e.head
		}
		k := copy(p[n:], src[e.off:])
		n += k
		if e.off += k; e.off == len(src) {
			e.off, e.head = 0, ""
		}
	}
	return n, nil
}

// quotedLong is a trace whose one value (in quotes, over many lines) is
// 2 MB long: the message must quote 80 characters of it.
func quotedLong() string {
	line := strings.Repeat("x", 99) + "\n"
	return phillyHeader + `"` + strings.Repeat(line, 20_000) + `",600,1,600,c1` + "\n"
}

func importFileCases() []importCase {
	P := []string{"philly", "$F"}
	return []importCase{
		// What is not a trace file at all.
		{name: "/dev/zero", args: []string{"philly", "/dev/zero"}, want: []string{"/dev/zero: is a device, not a trace file"}},
		{name: "/dev/urandom", args: []string{"philly", "/dev/urandom"}, want: []string{"is a device, not a trace file"}},
		{name: "/dev/null", args: []string{"gavel", "/dev/null"}, want: []string{"is a device, not a trace file"}},
		{name: "named pipe without a writer", args: P, file: fifoFile, want: []string{"is a named pipe (FIFO), not a trace file"}},
		{name: "directory", args: P, file: func(t *testing.T, dir string) string { return dir }, want: []string{"is a directory, not a trace file"}},
		{name: "missing file", args: []string{"philly", "/nonexistent/philly.csv"}, want: []string{"/nonexistent/philly.csv: no such file"}},
		{name: "symlink to /dev/zero", args: P, file: func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "link.csv")
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Skip(err)
			}
			return p
		}, want: []string{"is a device, not a trace file"}},
		{name: "file over 512 MiB", args: P, file: func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "big.csv")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(512<<20 + 1); err != nil {
				t.Fatal(err)
			}
			return p
		}, want: []string{"the file is 512.0 MiB, larger than 512.0 MiB, the most one import reads; split it"}},
		{name: "endless standard input of zeros", args: []string{"philly", "-"}, setup: stdinOf(zeros{}), want: []string{"standard input: the file holds binary data"}},
		{name: "endless standard input of rows", args: []string{"philly", "-"}, setup: stdinOf(&endlessRows{head: phillyHeader, row: phillyRow}),
			want: []string{"the file has more than 100,000 jobs (by line 100,002), the most a scenario may list; keep fewer with --sample N, --window A,B or --busiest H", "--jobs-csv"}},
		{name: "endless standard input of dropped rows", args: []string{"philly", "-"},
			setup: func(t *testing.T) {
				lowerLimits(func(l *trace.LimitSet) { l.MaxRows = 300_000 })(t) // the real 4,000,000 takes seconds
				stdinOf(&endlessRows{head: phillyHeader, row: "2017-10-09 07:01:55,600.0,0,0,c1\n"})(t)
			},
			want: []string{"more than 300,000 data rows, the most one import reads"}},
		{name: "endless standard input without a line break", args: []string{"philly", "-"}, setup: stdinOf(endless{}),
			want: []string{"line 1 is longer than 1 MiB, the longest line a trace may have"}},
		{name: "endless rows with a sample", args: []string{"philly", "-", "--sample", "10"},
			setup: func(t *testing.T) {
				// every row is kept for the sample up to the row limit;
				// TestImportRowLimitMemory measures the real one
				lowerLimits(func(l *trace.LimitSet) { l.MaxRows = 200_000 })(t)
				stdinOf(&endlessRows{head: phillyHeader, row: phillyRow})(t)
			},
			want: []string{"line 200,002: the file has more than 200,000 data rows, the most one import reads"}},
		{name: "endless short lines", args: []string{"philly", "-"}, setup: stdinOf(&endlessRows{row: "y\n"}),
			want: []string{"line 1: the header lacks the column(s) timestamp, duration, num_gpus"}},
		{name: "a line of 2 MiB", args: P, data: phillyHeader + strings.Repeat("9", 2<<20) + ",600,1,600,c1\n", want: []string{"line 2 is longer than 1 MiB"}},
		{name: "a value of 2 MB over many lines", args: P, data: quotedLong(), want: []string{`line 2: column timestamp: "xxxx`, `… (1,999,999 characters in all) is neither seconds nor a date`}},

		// Encodings and blank files.
		{name: "empty", args: P, data: "", want: []string{"the file is empty"}},
		{name: "empty Gavel trace", args: []string{"gavel", "$F"}, data: "", want: []string{"the file is empty"}},
		{name: "only a byte-order mark", args: P, data: "\xEF\xBB\xBF", want: []string{"the file is empty"}},
		{name: "header only", args: P, data: phillyHeader, want: []string{"no data rows"}},
		{name: "header and blank lines", args: P, data: phillyHeader + "\n\n\r\n", want: []string{"no data rows"}},
		{name: "only line breaks", args: P, data: "\n\n\n", want: []string{"no data rows: the file holds only spaces and line breaks"}},
		{name: "only carriage returns", args: P, data: "\r\r\r\r", want: []string{"no data rows: the file holds only spaces and line breaks"}},
		{name: "carriage returns as line ends", args: P, data: strings.ReplaceAll(phillyRows(3), "\n", "\r"), want: []string{"the lines end with a carriage return alone"}},
		{name: "Windows line ends", args: P, data: strings.ReplaceAll(phillyRows(3), "\n", "\r\n"), ok: true, jobs: 3},
		{name: "UTF-16 LE with BOM", args: P, data: string(utf16Bytes(phillyRows(2), false, true)), want: []string{"the file is UTF-16 text; save it as UTF-8"}},
		{name: "UTF-16 BE with BOM", args: P, data: string(utf16Bytes(phillyRows(2), true, true)), want: []string{"the file is UTF-16 text; save it as UTF-8"}},
		{name: "UTF-16 LE without BOM", args: P, data: string(utf16Bytes(phillyRows(2), false, false)), want: []string{"the file is UTF-16 text"}},
		{name: "UTF-16 Gavel trace", args: []string{"gavel", "$F"}, data: string(utf16Bytes(gavelRow("0"), false, true)), want: []string{"the file is UTF-16 text"}},
		{name: "UTF-32", args: P, data: "\xFF\xFE\x00\x00t\x00\x00\x00", want: []string{"the file is UTF-32 text"}},
		{name: "binary (a PNG)", args: P, data: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", want: []string{"the file holds binary data"}},
		{name: "a zero byte at the start", args: P, data: phillyRows(1) + "2017-10-09 07:01:55,6\x000,1,600,c1\n", want: []string{"the file holds binary data (zero bytes)"}},
		{name: "a zero byte on line 202", args: P, data: phillyRows(200) + "2017-10-09 07:01:55,6\x000,1,600,c1\n", want: []string{"line 202: holds a zero byte: the file is binary data"}},
		{name: "Latin-1 cluster names", args: P, data: phillyHeader + "2017-10-09 07:01:55,600,1,600,caf\xe9\n", ok: true, jobs: 1},

		// Byte-order marks: the first job stays, in every format.
		{name: "BOM in a Gavel trace", args: []string{"gavel", "$F"}, data: "\xEF\xBB\xBF" + gavelRow("0") + gavelRow("10"), ok: true, jobs: 2},
		{name: "BOM in a Philly log", args: P, data: "\xEF\xBB\xBF" + phillyRows(2), ok: true, jobs: 2},
		{name: "BOM in a Pollux workload", args: []string{"pollux", "$F"}, data: "\xEF\xBB\xBF" + polluxHeader + "c-0,0,cifar10,1,128\nc-1,5,cifar10,1,128\n", ok: true, jobs: 2},
		{name: "BOM in a Tiresias trace", args: []string{"tiresias", "$F"}, data: "\xEF\xBB\xBF" + tiresiasHeader + tiresiasRow("1", "1", "0", "100"), ok: true, jobs: 1},
		{name: "BOM in a Helios log", args: []string{"helios", "$F"}, data: "\xEF\xBB\xBF" + heliosHeader + heliosRow("1", "1", "2020-04-01 00:00:00", "100"), ok: true, jobs: 1},
		{name: "BOM in a headerless PAI table", args: []string{"pai", "$F"}, data: "\xEF\xBB\xBF" + paiRow("j1", "1", "1000", "2000", "100"), ok: true, jobs: 1},
		{name: "BOM in a jobs CSV", args: []string{"jobs", "$F"}, data: "\xEF\xBB\xBF" + jobsHeader + jobsRow(nil), ok: true, jobs: 1},

		// The delimited text itself.
		{name: "bare quote", args: P, data: phillyHeader + `2017-10-09 07:01:55,6"00,1,600,c1` + "\n", want: []string{`line 2: a quote (") in the middle of a value that does not start with one (at byte 22 of the line)`}},
		{name: "quote not closed", args: P, data: phillyRows(1) + `"2017-10-09 07:01:55,600,1,600,c1` + "\n" + phillyRow, want: []string{"line 3: a quoted value that starts on this line is not closed before line"}},
		{name: "text after a closing quote", args: P, data: phillyHeader + `"2017-10-09 07:01:55"x,600,1,600,c1` + "\n", want: []string{"line 2: a quoted value is not closed properly"}},
		{name: "wrong format (a Pollux file as Philly)", args: P, data: polluxHeader + "c-0,0,cifar10,1,128\n", want: []string{"line 1: the header lacks the column(s) timestamp, duration, num_gpus"}},
		{name: "semicolons", args: P, data: strings.ReplaceAll(phillyRows(2), ",", ";"), want: []string{"the header lacks the column(s)", "are the columns separated by something else? they must be separated by commas"}},
		{name: "blank first line", args: P, data: ",,,\n" + phillyRow, want: []string{"line 1: the first line is blank; expected a header line"}},
		{name: "too few columns", args: P, data: phillyHeader + "2017-10-09 07:01:55,600\n", want: []string{"line 2: has 2 columns, expected at least 3"}},
		{name: "150 broken rows", args: P, data: phillyHeader + strings.Repeat("2017-10-09 07:01:55,x,1,600,c1\n", 150), want: []string{`line 2: column duration: "x" is not a number`, "… and 50 more errors"}},
		{name: "120,000 jobs", args: P, data: phillyRows(120_000), want: []string{"the file has more than 100,000 jobs (by line 100,002), the most a scenario may list", "--sample N, --window A,B or --busiest H", "--min-duration S or --max-gpu-hours H", "--jobs-csv, up to 1,000,000 jobs"}},
		{name: "120,000 jobs, a window of all", args: []string{"philly", "$F", "--window", "0,10000"}, data: phillyRows(120_000), want: []string{"the options leave 120,000 jobs, more than the 100,000 a scenario may list"}},
		{name: "120,000 jobs with a sample", args: []string{"philly", "$F", "--sample", "500"}, data: phillyRows(120_000), ok: true, jobs: 500},
		{name: "120,000 jobs as a jobs CSV", args: []string{"philly", "$F", "--jobs-csv"}, data: phillyRows(120_000), ok: true, jobs: 120_000},
		{name: "more rows than the row limit", args: P, setup: lowerLimits(func(l *trace.LimitSet) { l.MaxRows = 1000 }), data: phillyRows(1001),
			want: []string{"line 1,002: the file has more than 1,000 data rows, the most one import reads; split it"}},

		// Philly values.
		{name: "duration with a unit", args: P, data: phillyHeader + "2017-10-09 07:01:55,66s,1,66,c1\n", want: []string{`line 2: column duration: "66s" is not a number`}},
		{name: "duration Inf", args: P, data: phillyHeader + "2017-10-09 07:01:55,Inf,1,66,c1\n", want: []string{`line 2: column duration: "Inf" is not a number`}},
		{name: "duration 1e400", args: P, data: phillyHeader + "2017-10-09 07:01:55,1e400,1,66,c1\n", want: []string{`line 2: column duration: "1e400" is too large a number`}},
		{name: "duration over 317 years", args: P, data: phillyRows(1) + "2017-10-09 07:01:55,1e11,1,66,c1\n", want: []string{"line 3: job philly-3 runs 1e+11 s, more than 1e+10 (about 317 years); left out"}, ok: true, jobs: 1},
		{name: "month 13", args: P, data: phillyHeader + "2017-13-09 07:01:55,600,1,600,c1\n", want: []string{`line 2: column timestamp: "2017-13-09 07:01:55" is neither seconds nor a date like 2017-10-09 07:01:55`}},
		{name: "a date among seconds", args: P, data: phillyHeader + "1507532515,600,1,600,c1\n60,600,1,600,c1\n2017-10-09 07:01:55,600,1,600,c1\n",
			want: []string{`line 4: column timestamp: "2017-10-09 07:01:55" is a date, but line 2 gives a number of seconds ("1507532515"); give every time the same way`}},
		{name: "seconds among dates", args: P, data: phillyRows(2) + "60,600,1,600,c1\n",
			want: []string{`line 4: column timestamp: "60" is a number of seconds, but line 2 gives a date ("2017-10-09 00:00:00")`}},
		{name: "timestamp 1e400", args: P, data: phillyHeader + "1e400,600,1,600,c1\n", want: []string{`column timestamp: "1e400" is too large a number of seconds`}},
		{name: "timestamps 1e12 s apart", args: P, data: phillyHeader + "0,600,1,600,c1\n1e12,600,1,600,c1\n",
			want: []string{"line 3: column timestamp: the job arrives 1e+12 s after the first job, later than 1e+10 s (about 317 years)"}},
		{name: "year 9999 among 2017", args: P, data: phillyRows(1) + "9999-01-01 00:00:00,600,1,600,c1\n", want: []string{"line 3: column timestamp: the job arrives 2.52e+11 s after the first job"}},
		{name: "num_gpus 1e10", args: P, data: phillyHeader + "2017-10-09 07:01:55,600,1e10,600,c1\n", want: []string{`line 2: column num_gpus: "1e10" is too large (at most 1,000,000,000)`}},
		{name: "num_gpus 2.5", args: P, data: phillyHeader + "2017-10-09 07:01:55,600,2.5,600,c1\n", want: []string{`line 2: column num_gpus: "2.5" is not a whole number`}},
		{name: "num_gpus -3 only", args: P, data: phillyHeader + "2017-10-09 07:01:55,600,-3,600,c1\n",
			want: []string{"line 2: job philly-2 gives a negative GPU count (-3); left out", "every job was left out, none is left to simulate: 1 using no GPUs"}},
		{name: "num_gpus 9999", args: P, data: phillyHeader + "2017-10-09 07:01:55,600,9999,600,c1\n",
			want: []string{"asks for 9999 GPUs, more than 4096; left out", "every job was left out, none is left to simulate: 1 larger than the cluster (--cluster NAME)"}},
		{name: "every job filtered", args: P, data: phillyHeader + "2017-10-09 07:01:55,30,1,30,c1\n2017-10-09 07:02:55,20,1,20,c1\n",
			want: []string{"every job was left out, none is left to simulate: 2 shorter than 60 s (filter) (--min-duration S)"}},
		{name: "every job too long", args: P, data: phillyHeader + "2017-10-09 07:01:55,3600000,8,1,c1\n",
			want: []string{"every job was left out", "of 1000 GPU-hours or more (filter) (--max-gpu-hours H)"}},
		{name: "every job larger than the cluster", args: P, data: phillyHeader + "2017-10-09 07:01:55,600,128,600,c1\n",
			want: []string{"needs 128 GPUs of one type but at most 64 are usable", "1 larger than the cluster (--cluster NAME)"}},
		{name: "a window with no job", args: []string{"philly", "$F", "--window", "5,6"}, data: phillyRows(3),
			want: []string{"every job was left out", "3 outside the window 5–6 h (--window A,B)"}},
		{name: "a 5,000-character timestamp", args: P, data: phillyHeader + strings.Repeat("7", 5000) + "x,600,1,600,c1\n", want: []string{`"77777777`, "(5,001 characters in all) is neither seconds nor a date"}},
		{name: "escape sequence in a value", args: P, data: phillyHeader + "\x1b[2J,600,1,600,c1\n", want: []string{`column timestamp: "\x1b[2J" is neither seconds nor a date`}},
		{name: "NaN duration", args: P, data: phillyRows(1) + "2017-10-09 07:01:55,NaN,1,600,c1\n", want: []string{"line 3: column duration is empty; job left out"}, ok: true, jobs: 1},

		// Pollux workloads.
		{name: "Pollux header only", args: []string{"pollux", "$F"}, data: polluxHeader, want: []string{"no data rows"}},
		{name: "Pollux unknown application", args: []string{"pollux", "$F"}, data: polluxHeader + "g-0,0,gpt,1,128\n",
			want: []string{`application "gpt" is none of Pollux's`, "every job was left out", "1 of an unknown model"}},
		{name: "Pollux duplicate names", args: []string{"pollux", "$F"}, data: polluxHeader + "c-0,0,cifar10,1,128\nc-0,5,cifar10,1,128\n",
			want: []string{`line 3: column name: job id "c-0" is also the id of the job of line 2; ids must be unique`}},
		{name: "Pollux negative time", args: []string{"pollux", "$F"}, data: polluxHeader + "c-0,-5,cifar10,1,128\n",
			want: []string{"line 2: column time: the job arrives at -5 s, before time 0"}},
		{name: "Pollux time 1e11", args: []string{"pollux", "$F"}, data: polluxHeader + "c-0,1e11,cifar10,1,128\n",
			want: []string{"line 2: column time: the job arrives 1e+11 s after time 0, later than 1e+10 s"}},
		{name: "Pollux batch 1e400", args: []string{"pollux", "$F"}, data: polluxHeader + "c-0,0,cifar10,1,1e400\n", want: []string{`line 2: column batch_size: "1e400" is too large a number`}},
		{name: "Pollux a 200-character application", args: []string{"pollux", "$F"}, data: polluxHeader + "c-0,0," + strings.Repeat("a", 200) + ",1,128\n",
			want: []string{`… (200 characters in all) is none of Pollux's`}},

		// Gavel traces.
		{name: "Gavel 8 columns", args: []string{"gavel", "$F"}, data: "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t1\t0\n", want: []string{"line 1: has 8 tab-separated columns; a Gavel trace has 10"}},
		{name: "Gavel unknown job type", args: []string{"gavel", "$F"}, data: "GPT (batch size 1)\tcmd\twd\t-n\t1\t1000\t1\t1\t-1\t0\n" + gavelRow("5"),
			want: []string{`line 1: job type "GPT (batch size 1)" is not one of Gavel's 26`}, ok: true, jobs: 1},
		{name: "Gavel total_steps 1e300", args: []string{"gavel", "$F"}, data: "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1e300\t1\t1\t-1\t0\n",
			want: []string{"line 1: column total_steps: must be at most 1e+15, got 1e+300"}},
		{name: "Gavel negative priority", args: []string{"gavel", "$F"}, data: "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t1\t-1\t-1\t0\n",
			want: []string{"line 1: column priority_weight: must be at least 0, got -1"}},
		{name: "Gavel priority 1e300", args: []string{"gavel", "$F"}, data: "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t1\t1e300\t-1\t0\n",
			want: []string{"line 1: column priority_weight: must be at most 1e+06, got 1e+300"}},
		{name: "Gavel arrival 1e308", args: []string{"gavel", "$F"}, data: gavelRow("0") + gavelRow("1e308"),
			want: []string{"line 2: column arrival_time: the job arrives 1e+308 s after time 0, later than 1e+10 s"}},
		{name: "Tiresias times ±1e308", args: []string{"tiresias", "$F"}, data: tiresiasHeader + tiresiasRow("1", "1", "-1e308", "100") + tiresiasRow("2", "1", "1e308", "100"),
			want: []string{"line 2: column submit_time: the job arrives at -1e+308 s, before time 0"}},
		{name: "Gavel arrival Inf", args: []string{"gavel", "$F"}, data: gavelRow("Inf"), want: []string{`line 1: column arrival_time: "Inf" is not a number`}},
		{name: "Gavel 3 GPUs", args: []string{"gavel", "$F"}, data: "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t3\t1\t-1\t0\n",
			want: []string{`Gavel measured no throughput for "ResNet-50 (batch size 64)" on 3 GPUs`, "every job was left out"}},
		{name: "Gavel scale_factor 1e10", args: []string{"gavel", "$F"}, data: "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t1e10\t1\t-1\t0\n",
			want: []string{`line 1: column scale_factor: "1e10" is too large`}},
		{name: "Gavel only blank lines", args: []string{"gavel", "$F"}, data: "\n\n", want: []string{"no data rows"}},
		{name: "Gavel Shockwave duration 1e300", args: []string{"gavel", "$F"}, data: "ResNet-50 (batch size 64)\tcmd\twd\t-n\t1\t1000\t1\tm\t1\t-1\t1e300\t0\n",
			want: []string{"runs 1e+300 s, more than 1e+10", "every job was left out"}},

		// Tiresias and Helios.
		{name: "Tiresias duplicate job ids", args: []string{"tiresias", "$F"}, data: tiresiasHeader + tiresiasRow("7", "1", "0", "100") + tiresiasRow("7", "1", "5", "100"),
			want: []string{`line 3: column job_id: job id "job7" is also the id of the job of line 2`}},
		{name: "Tiresias duplicate 300-character ids", args: []string{"tiresias", "$F"}, data: tiresiasHeader + tiresiasRow(strings.Repeat("7", 300), "1", "0", "100") + tiresiasRow(strings.Repeat("7", 300), "1", "5", "100"),
			want: []string{`… (303 characters in all) is also the id of the job of line 2`}},
		{name: "Tiresias num_gpu two", args: []string{"tiresias", "$F"}, data: tiresiasHeader + tiresiasRow("1", "two", "0", "100"), want: []string{`line 2: column num_gpu: "two" is not a number`}},
		{name: "Tiresias submit_time 1e12", args: []string{"tiresias", "$F"}, data: tiresiasHeader + tiresiasRow("1", "1", "1e12", "100"),
			want: []string{"line 2: column submit_time: the job arrives 1e+12 s after time 0"}},
		{name: "Tiresias negative submit_time", args: []string{"tiresias", "$F"}, data: tiresiasHeader + tiresiasRow("1", "1", "-10", "100"),
			want: []string{"line 2: column submit_time: the job arrives at -10 s, before time 0"}},
		{name: "Tiresias a date among seconds", args: []string{"tiresias", "$F"}, data: tiresiasHeader + tiresiasRow("1", "1", "0", "100") + tiresiasRow("2", "1", "2017-10-09 07:01:55", "100"),
			want: []string{`line 3: column submit_time: "2017-10-09 07:01:55" is a date, but line 2 gives a number of seconds ("0")`}},
		{name: "Helios CPU jobs only", args: []string{"helios", "$F"}, data: heliosHeader + heliosRow("1", "0", "2020-04-01 00:00:00", "100"),
			want: []string{"line 2: job 1 uses 0 GPUs; left out", "every job was left out, none is left to simulate: 1 using no GPUs"}},
		{name: "Helios duration -", args: []string{"helios", "$F"}, data: heliosHeader + heliosRow("1", "1", "2020-04-01 00:00:00", "-"), want: []string{`line 2: column duration: "-" is not a number`}},
		{name: "Helios header only", args: []string{"helios", "$F"}, data: heliosHeader, want: []string{"no data rows"}},

		// PAI task tables.
		{name: "PAI 1e300 GPUs", args: []string{"pai", "$F"}, data: paiRow("j1", "1e300", "1000", "2000", "1e300") + paiRow("j2", "1", "1000", "2000", "100"),
			want: []string{"line 1: job j1 asks for more than 4096 GPUs"}, ok: true, jobs: 1},
		{name: "PAI inst_num 2.5", args: []string{"pai", "$F"}, data: paiRow("j1", "2.5", "1000", "2000", "100"), want: []string{`line 1: column inst_num: "2.5" is not a whole number`}},
		{name: "PAI inst_num -1", args: []string{"pai", "$F"}, data: paiRow("j1", "-1", "1000", "2000", "100"), want: []string{"line 1: column inst_num: must not be negative, got -1"}},
		{name: "PAI plan_gpu -50", args: []string{"pai", "$F"}, data: paiRow("j1", "1", "1000", "2000", "-50"), want: []string{"line 1: column plan_gpu: must not be negative, got -50"}},
		{name: "PAI end before start", args: []string{"pai", "$F"}, data: paiRow("j1", "1", "2000", "1000", "100"),
			want: []string{"line 1: job j1 ran -1000 s; left out", "every job was left out", "1 with no run time"}},
		{name: "PAI 9 columns", args: []string{"pai", "$F"}, data: "j1,worker,1,Terminated,1000,2000,600,29.3,100\n", want: []string{"line 1: has 9 columns, expected at least 10"}},
		{name: "PAI endless times", args: []string{"pai", "$F"}, data: paiRow("j1", "1", "-1e308", "1e308", "100"),
			want: []string{"job j1 has a run time too large to compute", "every job was left out"}},

		// schedlab's own jobs CSV.
		{name: "jobs compute 2", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"compute": "2"}), want: []string{"line 2: column compute: must be at most 1, got 2"}},
		{name: "jobs memory -1", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"memory_gb": "-1"}), want: []string{"line 2: column memory_gb: must be at least 0, got -1"}},
		{name: "jobs deadline 1e300", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"deadline_s": "1e300"}), want: []string{"line 2: column deadline_s: must be at most 2e+10, got 1e+300"}},
		{name: "jobs weight 1e7", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"weight": "1e7"}), want: []string{"line 2: column weight: must be at most 1e+06, got 1e+07"}},
		{name: "jobs batch 2.5", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"batch_size": "2.5"}), want: []string{`line 2: column batch_size: "2.5" is not a whole number`}},
		{name: "jobs duplicate ids", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(nil) + jobsRow(map[string]string{"arrival_s": "5"}),
			want: []string{`line 3: column id: job id "a" is also the id of the job of line 2`}},
		{name: "jobs arrival 1e11", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"arrival_s": "1e11"}), want: []string{"line 2: column arrival_s: the job arrives 1e+11 s after time 0"}},
		{name: "jobs unknown GPU type", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"gpu_type": "A100"}),
			want: []string{"the cluster has no A100 GPUs; left out", "1 larger than the cluster (--cluster NAME)"}},
		{name: "jobs of no model the analytic model knows", args: []string{"jobs", "$F", "--cluster", "sjf-bsbf-64"}, data: jobsHeader + jobsRow(nil) + jobsRow(map[string]string{"id": "b", "model": "resnet50"}),
			want: []string{"the jobs read make no valid scenario", "line 2: job a:", `model "m" is not in the analytic model's table`}},
		{name: "jobs without a run time on the constant model", args: []string{"jobs", "$F"}, data: jobsHeader + jobsRow(map[string]string{"duration_s": "", "iterations": "100"}),
			want: []string{"line 2: job a: column duration_s: is required by the constant perf model"}},

		// Scenario documents.
		{name: "scenario with a generator", args: []string{"scenario", "$F"}, data: doc("", poissonGen(""), ""), want: []string{"the scenario has a generator, not a job list"}},
		{name: "scenario syntax error", args: []string{"scenario", "$F"}, data: "{\n\"name\": }", want: []string{"line 2, column 9"}},
		{name: "scenario over 16 MiB", args: []string{"scenario", "$F"}, data: `{"name": "` + strings.Repeat("x", 17<<20) + `"}`, want: []string{"the scenario is larger than 16 MiB, the most a scenario file may be"}},
		{name: "UTF-16 scenario", args: []string{"scenario", "$F"}, data: string(utf16Bytes(doc("", "", ""), false, true)), want: []string{"the file is UTF-16 text"}},
		{name: "scenario of jobs", args: []string{"scenario", "$F"}, data: doc("", "", ""), ok: true, jobs: 2},
	}
}

// zeros is an endless stream of zero bytes, as /dev/zero behind a pipe.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func importFlagCases() []importCase {
	F := func(flags ...string) []string { return append([]string{"philly", "$F"}, flags...) }
	valid := phillyRows(5)
	cases := []importCase{
		{name: "--busiest NaN", args: F("--busiest", "NaN"), want: []string{`--busiest: must be a number of hours above 0 and at most 1,000,000, got "NaN"`}},
		{name: "--busiest Inf", args: F("--busiest", "Inf"), want: []string{`--busiest: must be a number of hours above 0`}},
		{name: "--busiest 1e400", args: F("--busiest", "1e400"), want: []string{`--busiest: must be a number of hours above 0`, `got "1e400"`}},
		{name: "--busiest 0", args: F("--busiest", "0"), want: []string{`--busiest: must be a number of hours above 0`}},
		{name: "--busiest -3", args: F("--busiest", "-3"), want: []string{`--busiest: must be a number of hours above 0`}},
		{name: "--busiest eight", args: F("--busiest", "eight"), want: []string{`--busiest: must be a number of hours above 0 and at most 1,000,000, got "eight"`}},
		{name: "--busiest without a value", args: F("--busiest"), want: []string{"--busiest needs a value"}},
		{name: "--sample 1.5", args: F("--sample", "1.5"), want: []string{`--sample: must be a whole number of jobs from 1 to 100,000, got "1.5"`}},
		{name: "--sample 0", args: F("--sample", "0"), want: []string{`--sample: must be a whole number of jobs from 1 to 100,000`}},
		{name: "--sample -1", args: F("--sample", "-1"), want: []string{`--sample: must be a whole number of jobs from 1 to 100,000`}},
		{name: "--sample 200,000", args: F("--sample", "200000"), want: []string{`--sample: must be a whole number of jobs from 1 to 100,000, got "200000"`}},
		{name: "--sample 2,000,000 --jobs-csv", args: F("--sample", "2000000", "--jobs-csv"), want: []string{`--sample: must be a whole number of jobs from 1 to 1,000,000`}},
		{name: "--sample NaN", args: F("--sample", "NaN"), want: []string{`--sample: must be a whole number of jobs`}},
		{name: "--seed -1", args: F("--seed", "-1"), want: []string{`--seed: must be a whole number from 0 to 18446744073709551615, got "-1"`}},
		{name: "--seed 2^64", args: F("--seed", "18446744073709551616"), want: []string{`--seed: must be a whole number from 0 to 18446744073709551615`}},
		{name: "--seed 1.5", args: F("--seed", "1.5"), want: []string{`--seed: must be a whole number`}},
		{name: "--scale NaN", args: F("--scale", "NaN"), want: []string{`--scale: must be a number above 0 and at most 1,000,000, got "NaN"`}},
		{name: "--scale 0", args: F("--scale", "0"), want: []string{`--scale: must be a number above 0`}},
		{name: "--scale -1", args: F("--scale", "-1"), want: []string{`--scale: must be a number above 0`}},
		{name: "--scale 1e7", args: F("--scale", "1e7"), want: []string{`--scale: must be a number above 0 and at most 1,000,000, got "1e7"`}},
		{name: "--scale -Inf", args: F("--scale", "-Inf"), want: []string{`--scale: must be a number above 0`}},
		{name: "--window 1", args: F("--window", "1"), want: []string{`--window: want two hours A,B, got "1"`}},
		{name: "--window NaN,3", args: F("--window", "NaN,3"), want: []string{`--window: want two numbers of hours A,B, got "NaN,3"`}},
		{name: "--window 0,Inf", args: F("--window", "0,Inf"), want: []string{`--window: want two numbers of hours A,B`}},
		{name: "--window 3,1", args: F("--window", "3,1"), want: []string{`--window: want two hours A,B with 0 ≤ A < B ≤ 1000000, got "3,1"`}},
		{name: "--window -1,2", args: F("--window", "-1,2"), want: []string{`--window: want two hours A,B with 0 ≤ A < B`}},
		{name: "--window 0,2e6", args: F("--window", "0,2e6"), want: []string{`--window: want two hours A,B with 0 ≤ A < B ≤ 1000000`}},
		{name: "--window and --busiest", args: F("--window", "0,1", "--busiest", "3"), want: []string{"--window and --busiest both choose a window; give one of them"}},
		{name: "--min-duration NaN", args: F("--min-duration", "NaN"), want: []string{`--min-duration: must be a number of seconds from 0 to 10,000,000,000, got "NaN"`}},
		{name: "--min-duration -5", args: F("--min-duration", "-5"), want: []string{`--min-duration: must be a number of seconds from 0`}},
		{name: "--min-duration 1e11", args: F("--min-duration", "1e11"), want: []string{`--min-duration: must be a number of seconds from 0 to 10,000,000,000`}},
		{name: "--max-gpu-hours -1", args: F("--max-gpu-hours", "-1"), want: []string{`--max-gpu-hours: must be a number of GPU-hours (0: no bound) from 0`}},
		{name: "--max-gpu-hours Inf", args: F("--max-gpu-hours", "Inf"), want: []string{`--max-gpu-hours: must be a number of GPU-hours`}},
		{name: "--max-gpus 0", args: F("--max-gpus", "0"), want: []string{`--max-gpus: must be a whole number of GPUs from 1 to 4,096, got "0"`}},
		{name: "--max-gpus 1.5", args: F("--max-gpus", "1.5"), want: []string{`--max-gpus: must be a whole number of GPUs`}},
		{name: "--max-gpus NaN", args: F("--max-gpus", "NaN"), want: []string{`--max-gpus: must be a whole number of GPUs from 1 to 4,096`}},
		{name: "--at-zero and --scale", args: F("--at-zero", "--scale", "0.5"), want: []string{"--at-zero and --scale both set arrival times; give one of them"}},
		{name: "--at-zero=maybe", args: F("--at-zero=maybe"), want: []string{"--at-zero takes no value"}},
		{name: "--cluster nope", args: F("--cluster", "nope"), want: []string{`--cluster: unknown cluster "nope"; known clusters: sjf-bsbf-64`}},
		{name: "--jobs-csv=maybe", args: F("--jobs-csv=maybe"), want: []string{"--jobs-csv takes no value"}},
		{name: "unknown option", args: F("--sampel", "5"), want: []string{"unknown option --sampel; see schedlab import --help"}},
		{name: "a long unknown option", args: F("--" + strings.Repeat("x", 500)), want: []string{"unknown option --xxxx", "(500 characters in all)"}},
		{name: "unknown format", args: []string{"phily", "$F"}, want: []string{`unknown trace format "phily"; known formats: philly, pollux`}},
		{name: "three arguments", args: []string{"philly", "$F", "extra"}, want: []string{"give a format and one file (schedlab import FORMAT FILE), got 3 arguments"}},
		{name: "no arguments", args: []string{}, want: []string{"usage: schedlab import FORMAT FILE"}},
		{name: "--out into a missing folder", args: F("--out", "/nonexistent/dir/s.json"), code: exitFailed, want: []string{"--out: cannot write /nonexistent/dir/s.json: no such file or directory"}},
		{name: "--busiest 1 (fine)", args: F("--busiest", "1"), ok: true, jobs: 5},
		{name: "--window 0,0.05 (fine)", args: F("--window", "0,0.05"), ok: true, jobs: 3},
		{name: "--min-duration 0 --max-gpu-hours 0 (fine)", args: F("--min-duration", "0", "--max-gpu-hours", "0"), ok: true, jobs: 5},
		{name: "--max-gpus 4096 --at-zero (fine)", args: F("--max-gpus", "4096", "--at-zero"), ok: true, jobs: 5},
	}
	for i := range cases {
		cases[i].data = valid
	}
	return cases
}

// goWording are phrases of Go's libraries and runtime that must never
// reach a user of import.
var goWording = []string{"json: cannot", "json: unsupported", "json: invalid", "strconv", "parse error", "invalid syntax", "non-quoted-field", "quoted-field", "9223372036854775808",
	"+Inf", "-Inf", "goroutine", "panic", "runtime error", "unsupported value", "flag provided", "needs jobs or a generator",
	"workload.jobs[", "value out of range", "EOF", "fatal error", "for flag"}

var quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// plainWords says what is wrong with a message, or "" when it is plain:
// no Go wording, and no value quoted at more than 80 characters.
func plainWords(msg string) string {
	unquoted := quotedRe.ReplaceAllString(msg, `""`) // what the user typed may be anything
	for _, w := range goWording {
		if strings.Contains(unquoted, w) {
			return "Go wording " + strconv.Quote(w)
		}
	}
	for _, q := range quotedRe.FindAllString(msg, -1) {
		if s, err := strconv.Unquote(q); err == nil && utf8.RuneCountInString(s) > 80 {
			return fmt.Sprintf("a value quoted at %d characters", utf8.RuneCountInString(s))
		}
	}
	if len(msg) > 64<<10 {
		return fmt.Sprintf("%d bytes of messages", len(msg))
	}
	return ""
}

// runImportCase runs one case and says how it ended.
func runImportCase(t *testing.T, c importCase) (verdict, why string, took time.Duration, grew uint64) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.csv")
	if c.file != nil {
		path = c.file(t, dir)
	} else if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
		t.Fatal(err)
	}
	if c.setup != nil {
		c.setup(t)
	}
	args := []string{"import"}
	for _, a := range c.args {
		args = append(args, strings.ReplaceAll(a, "$F", path))
	}
	if c.ok && !containsArg(args, "--out") {
		args = append(args, "--out", filepath.Join(dir, "out"))
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	start := time.Now()
	go func() { done <- dispatch(args, &out, &errOut) }()
	var code int
	var peak uint64
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case code = <-done:
			break wait
		case <-tick.C:
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			if time.Since(start) > 60*time.Second {
				return "hang", "still running after 60 s", time.Since(start), 0
			}
		}
	}
	took = time.Since(start)
	if peak > base.HeapAlloc {
		grew = peak - base.HeapAlloc
	}
	msg := errOut.String()
	switch {
	case grew > 1<<30:
		return "OOM", fmt.Sprintf("the heap grew by %d MB", grew>>20), took, grew
	case c.ok && code != exitOK:
		return "unclear", fmt.Sprintf("a good input refused (exit %d): %.500s", code, msg), took, grew
	case !c.ok && code == exitOK:
		return "silent", fmt.Sprintf("accepted: %.500s", msg), took, grew
	case !c.ok && code != max(c.code, exitInvalid) && code != c.code:
		return "unclear", fmt.Sprintf("exit %d, want %d: %.500s", code, max(c.code, exitInvalid), msg), took, grew
	}
	if c.ok {
		if kept := keptJobs(msg); kept != c.jobs {
			return "silent", fmt.Sprintf("kept %d jobs, want %d: %.500s", kept, c.jobs, msg), took, grew
		}
	}
	for _, w := range c.want {
		if !strings.Contains(msg, w) {
			return "unclear", fmt.Sprintf("stderr lacks %q:\n%.2000s", w, msg), took, grew
		}
	}
	if p := plainWords(msg); p != "" {
		return "unclear", fmt.Sprintf("%s:\n%.2000s", p, msg), took, grew
	}
	return "clear", "", took, grew
}

func containsArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

var keptRe = regexp.MustCompile(`(\d+) rows read, (\d+) jobs kept`)

func keptJobs(stderr string) int {
	m := keptRe.FindStringSubmatch(stderr)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[2])
	return n
}

// TestImportCatalogue runs the catalogue and reports its totals.
func TestImportCatalogue(t *testing.T) {
	for _, group := range []struct {
		name  string
		cases []importCase
	}{{"import files", importFileCases()}, {"import flags", importFlagCases()}} {
		totals := map[string]int{}
		slowest, slowestName := time.Duration(0), ""
		var most uint64
		mostName := ""
		for _, c := range group.cases {
			t.Run(group.name+"/"+c.name, func(t *testing.T) {
				verdict, why, took, grew := runImportCase(t, c)
				totals[verdict]++
				if took > slowest {
					slowest, slowestName = took, c.name
				}
				if grew > most {
					most, mostName = grew, c.name
				}
				if verdict != "clear" {
					t.Errorf("%s: %s", verdict, why)
				}
			})
		}
		t.Logf("%s: %d cases: %d clear, %d unclear, %d hang, %d OOM, %d silent; slowest %v (%s), most memory %d MB (%s)",
			group.name, len(group.cases), totals["clear"], totals["unclear"], totals["hang"], totals["OOM"], totals["silent"],
			slowest.Round(time.Millisecond), slowestName, most>>20, mostName)
	}
}

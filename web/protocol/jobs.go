package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/results"
)

// Compact results: decoding a run's job records from JSON took the page's
// main thread seconds for 20,000 jobs (encoding/json under WebAssembly),
// freezing the page. With RunRequest.Compact the worker sends them in
// binary instead (bin "jobs", EncodeJobs) and leaves them out of the
// Result's JSON; the exact JSON of the policy's output, for downloads and
// drawing, travels untouched in bin "output".
const (
	JobsKey   = "jobs"
	OutputKey = "output"
)

// The fields of a results.JobOutput that travel in binary, in order:
// strings ID, Model, Status, Entity, Reason (uvarint length, bytes);
// uvarints GPUs, Preemptions, Migrations; float64 Weight, ArrivalS; a
// byte of flags saying which of StartS, FinishS, JCTS, QueueS, SoloS,
// Slowdown follow as float64. Servers and IterSplit, the per-job extras of
// one perf model, do not travel: a page that needs them reads them from
// the JSON.

// EncodeJobs packs job records for the page.
func EncodeJobs(jobs []results.JobOutput) []byte {
	b := binary.AppendUvarint(nil, uint64(len(jobs)))
	for _, j := range jobs {
		for _, s := range []string{j.ID, j.Model, j.Status, j.Entity, j.Reason} {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
		for _, n := range []int{j.GPUs, j.Preemptions, j.Migrations} {
			b = binary.AppendUvarint(b, uint64(n))
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(j.Weight))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(j.ArrivalS))
		opts := []*float64{j.StartS, j.FinishS, j.JCTS, j.QueueS, j.SoloS, j.Slowdown}
		var flags byte
		for i, p := range opts {
			if p != nil {
				flags |= 1 << i
			}
		}
		b = append(b, flags)
		for _, p := range opts {
			if p != nil {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*p))
			}
		}
	}
	return b
}

var errShort = errors.New("protocol: job records end early")

// jobReader reads EncodeJobs' bytes, remembering the first error. Its
// strings are substrings of all, one copy of the whole input: 20,000 job
// records made 100,000 small strings and a garbage collection that held
// the page's main thread for a long task.
type jobReader struct {
	b   []byte
	all string
	err error
}

func newReader(b []byte) *jobReader { return &jobReader{b: b, all: string(b)} }

func (r *jobReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *jobReader) fail() {
	if r.err == nil {
		r.err = errShort
	}
	r.b = nil
}

func (r *jobReader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	at := len(r.all) - len(r.b)
	r.b = r.b[n:]
	return r.all[at : at+int(n)]
}

func (r *jobReader) float() float64 {
	if len(r.b) < 8 {
		r.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

// DecodeJobs unpacks EncodeJobs' bytes.
func DecodeJobs(b []byte) ([]results.JobOutput, error) { return DecodeJobsYielding(b, nil) }

// YieldEvery is how many records (jobs, log entries, intervals) the
// Yielding decoders read between two calls of their yield: a few
// milliseconds of a page's main thread under WebAssembly.
const YieldEvery = 2000

// DecodeJobsYielding is DecodeJobs calling yield (when not nil) after
// every YieldEvery records, so that a page can hand its main thread back
// to the browser between pieces: 20,000 records in one piece took the
// page about 0.1 s.
func DecodeJobsYielding(b []byte, yield func()) ([]results.JobOutput, error) {
	r := newReader(b)
	n := r.uvarint()
	if n > uint64(len(b)) { // every record takes more than a byte
		return nil, fmt.Errorf("protocol: %d job records cannot fit in %d bytes", n, len(b))
	}
	jobs := make([]results.JobOutput, n)
	// The optional times point into one array rather than one allocation
	// each.
	times := make([]float64, 0, 6*n)
	for i := range jobs {
		if yield != nil && i > 0 && i%YieldEvery == 0 {
			yield()
		}
		j := &jobs[i]
		j.ID, j.Model, j.Status, j.Entity, j.Reason = r.str(), r.str(), r.str(), r.str(), r.str()
		j.GPUs, j.Preemptions, j.Migrations = int(r.uvarint()), int(r.uvarint()), int(r.uvarint())
		j.Weight, j.ArrivalS = r.float(), r.float()
		if len(r.b) == 0 {
			r.fail()
			break
		}
		flags := r.b[0]
		r.b = r.b[1:]
		opt := func(k int) *float64 {
			if flags&(1<<k) == 0 {
				return nil
			}
			times = append(times, r.float())
			return &times[len(times)-1]
		}
		j.StartS, j.FinishS, j.JCTS, j.QueueS, j.SoloS, j.Slowdown = opt(0), opt(1), opt(2), opt(3), opt(4), opt(5)
		if r.err != nil {
			break
		}
	}
	if r.err == nil && len(r.b) > 0 {
		return nil, fmt.Errorf("protocol: %d bytes after the job records", len(r.b))
	}
	return jobs, r.err
}

// LogKey is the bin name of a compact result's decision log.
const LogKey = "log"

// EncodeLog packs a decision log: uvarint count, then per entry T as
// float64, Job as a varint and Msg as a uvarint length and bytes.
func EncodeLog(log []LogEntry) []byte {
	b := binary.AppendUvarint(nil, uint64(len(log)))
	for _, e := range log {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(e.T))
		b = binary.AppendVarint(b, int64(e.Job))
		b = binary.AppendUvarint(b, uint64(len(e.Msg)))
		b = append(b, e.Msg...)
	}
	return b
}

// DecodeLog unpacks EncodeLog's bytes.
func DecodeLog(b []byte) ([]LogEntry, error) { return DecodeLogYielding(b, nil) }

// DecodeLogYielding is DecodeLog calling yield (when not nil) after every
// YieldEvery entries (see DecodeJobsYielding).
func DecodeLogYielding(b []byte, yield func()) ([]LogEntry, error) {
	r := newReader(b)
	n := r.uvarint()
	if n > uint64(len(b)) {
		return nil, fmt.Errorf("protocol: %d log entries cannot fit in %d bytes", n, len(b))
	}
	log := make([]LogEntry, n)
	for i := range log {
		if yield != nil && i > 0 && i%YieldEvery == 0 {
			yield()
		}
		log[i].T = r.float()
		job, k := binary.Varint(r.b)
		if k <= 0 {
			r.fail()
			break
		}
		r.b = r.b[k:]
		log[i].Job = int(job)
		log[i].Msg = r.str()
		if r.err != nil {
			break
		}
	}
	if r.err == nil && len(r.b) > 0 {
		return nil, fmt.Errorf("protocol: %d bytes after the log", len(r.b))
	}
	return log, r.err
}

package trace

import (
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/workload"
)

// parsed is one job as a format reads it, before the pipeline.
type parsed struct {
	line    int
	job     workload.Job
	submitS float64 // absolute submission time, s
	// noModel asks for Pollux's GPU-time buckets.
	noModel bool
	// autoName: the job is named by the format's namePrefix and its line.
	autoName bool
}

// row is a parsed job as the builder keeps it until the window and the
// sample have chosen: small, since a trace may hold millions of rows of
// which a few are kept. A job's other fields (iterations, batch size,
// weight, ...; most traces have none of them) are kept in builder.more.
type row struct {
	submitS   float64
	durationS float64
	line      int32
	gpus      int32
	more      int32 // 1 + the index in builder.more of the job's other fields, or 0
	noModel   bool
	autoName  bool
	name      string // "" when autoName
	model     string
	entity    string
}

// chunked is a list that grows without copying: rows come by the
// million, and doubling a slice would hold three copies at its peak.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkLen = 4096

func (c *chunked[T]) add(v T) {
	if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1]) == chunkLen {
		c.chunks = append(c.chunks, nil)
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.n++
}

func (c *chunked[T]) at(i int) *T { return &c.chunks[i/chunkLen][i%chunkLen] }

// maxInterned bounds the distinct strings interned: models and entities
// repeat, and a file where they do not must not grow a map without end.
const maxInterned = 4096

// intern returns a copy of s shared by equal values, so that a kept row
// holds no part of the line it was read from.
func (b *builder) intern(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := b.strs[s]; ok {
		return v
	}
	v := strings.Clone(s)
	if len(b.strs) < maxInterned {
		if b.strs == nil {
			b.strs = map[string]string{}
		}
		b.strs[v] = v
	}
	return v
}

// pack makes the kept form of a parsed job.
func (b *builder) pack(p *parsed) row {
	j := p.job
	r := row{submitS: p.submitS, durationS: j.DurationS, line: int32(p.line), gpus: int32(j.GPUs), noModel: p.noModel,
		autoName: p.autoName, model: b.intern(j.Model), entity: b.intern(j.Entity)}
	if !p.autoName {
		r.name = strings.Clone(j.Name)
	}
	j.ID, j.Name, j.ArrivalS, j.Model, j.GPUs, j.DurationS, j.Entity = 0, "", 0, "", 0, 0, ""
	if j != (workload.Job{}) {
		j.GPUType = b.intern(j.GPUType)
		b.more.add(j)
		r.more = int32(b.more.n)
	}
	return r
}

// unpack gives back the parsed job of a kept row.
func (b *builder) unpack(r *row) parsed {
	var j workload.Job
	if r.more > 0 {
		j = *b.more.at(int(r.more) - 1)
	}
	j.Name, j.Model, j.GPUs, j.DurationS, j.Entity = r.name, r.model, int(r.gpus), r.durationS, r.entity
	if r.autoName {
		j.Name = b.namePrefix + strconv.Itoa(int(r.line))
	}
	return parsed{line: int(r.line), job: j, submitS: r.submitS, noModel: r.noModel, autoName: r.autoName}
}

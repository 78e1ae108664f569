package results

import (
	"reflect"
	"strconv"
)

// jobs writes a list of job records at indentation ind. It is
// WriteOutput's one hot loop (a record per job, 450 bytes each), so it
// writes JobOutput's fields by hand rather than through reflection;
// TestJobFieldsWrittenByHand fails when JobOutput gains a field this does
// not write.
func (jw *jsonWriter) jobs(js []JobOutput, ind string) {
	if js == nil {
		jw.raw("null")
		return
	}
	if len(js) == 0 {
		jw.raw("[]")
		return
	}
	in1 := ind + "  " // a record's braces
	in2 := in1 + "  " // its fields
	in3 := in2 + "  " // the elements of its lists
	jw.raw("[")
	for i := range js {
		if i > 0 {
			jw.raw(",")
		}
		jw.newline(in1)
		jw.job(&js[i], in1, in2, in3)
		jw.maybeFlush()
	}
	jw.newline(ind)
	jw.raw("]")
}

// key starts field name (already quoted, with its colon) on a new line.
func (jw *jsonWriter) key(ind, name string) {
	jw.out = append(jw.out, ",\n"...)
	jw.out = append(jw.out, ind...)
	jw.out = append(jw.out, name...)
}

// job writes one record in JobOutput's field order, leaving out the
// omitempty fields as encoding/json does.
func (jw *jsonWriter) job(o *JobOutput, in1, in2, in3 string) {
	jw.raw("{")
	jw.newline(in2)
	jw.raw(`"id": `)
	jw.str(o.ID)
	jw.key(in2, `"model": `)
	jw.str(o.Model)
	jw.key(in2, `"gpus": `)
	jw.out = strconv.AppendInt(jw.out, int64(o.GPUs), 10)
	jw.key(in2, `"weight": `)
	jw.float(o.Weight)
	if o.Entity != "" {
		jw.key(in2, `"entity": `)
		jw.str(o.Entity)
	}
	jw.key(in2, `"status": `)
	jw.str(o.Status)
	jw.key(in2, `"arrival_s": `)
	jw.float(o.ArrivalS)
	jw.key(in2, `"start_s": `)
	jw.floatPtr(o.StartS)
	jw.key(in2, `"finish_s": `)
	jw.floatPtr(o.FinishS)
	jw.key(in2, `"jct_s": `)
	jw.floatPtr(o.JCTS)
	jw.key(in2, `"queue_s": `)
	jw.floatPtr(o.QueueS)
	jw.key(in2, `"preemptions": `)
	jw.out = strconv.AppendInt(jw.out, int64(o.Preemptions), 10)
	jw.key(in2, `"migrations": `)
	jw.out = strconv.AppendInt(jw.out, int64(o.Migrations), 10)
	if o.Reason != "" {
		jw.key(in2, `"reason": `)
		jw.str(o.Reason)
	}
	if len(o.Servers) > 0 {
		jw.key(in2, `"servers": [`)
		for i, s := range o.Servers {
			if i > 0 {
				jw.raw(",")
			}
			jw.newline(in3)
			jw.out = strconv.AppendInt(jw.out, int64(s), 10)
		}
		jw.newline(in2)
		jw.raw("]")
	}
	if o.IterSplit != nil {
		// Rare (ring_allreduce runs only): written like any other value.
		jw.key(in2, `"iter_split": `)
		jw.value(reflect.ValueOf(o.IterSplit), in2)
	}
	if o.SoloS != nil {
		jw.key(in2, `"solo_s": `)
		jw.float(*o.SoloS)
	}
	if o.Slowdown != nil {
		jw.key(in2, `"slowdown": `)
		jw.float(*o.Slowdown)
	}
	jw.newline(in1)
	jw.raw("}")
}

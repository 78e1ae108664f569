package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/schedlab/schedlab/sim/results"
)

// recordBytes is the least a job's record takes in a run's answer (the
// typical record is 300-450 bytes): with it, an answer certain to be over
// the limit is refused before its runs.
const recordBytes = 250

// checkAnswer refuses a plain run whose answer would certainly be over
// the limit: jobs × runs records.
func (h *Handler) checkAnswer(jobs, runs int64) *Error {
	lim := h.o.Limits.MaxAnswerBytes
	if est := jobs * runs * recordBytes; est > lim {
		return &Error{Status: statusUnprocessableEntity, Field: "scenario", Msg: fmt.Sprintf(
			"the answer would be more than %s (a record for each of %d jobs in each of %d runs), above this server's limit of %s per answer; ask for fewer jobs, or one policy at a time (the \"policy\" field), or run it with schedlab run",
			mib(est), jobs, runs, mib(lim))}
	}
	return nil
}

// errTooLarge stops writing an answer at the limit.
var errTooLarge = errors.New("the answer is over the limit")

// cappedBuffer is a buffer that refuses to grow past limit bytes.
type cappedBuffer struct {
	bytes.Buffer
	limit int64
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if int64(b.Len()+len(p)) > b.limit {
		return 0, errTooLarge
	}
	return b.Buffer.Write(p)
}

// answer is v as the CLI prints it, or a 422 when it is over the answer
// limit. A server writes a run's output record by record (writeOutput),
// so it stops at the limit instead of building the whole answer first.
func (h *Handler) answer(v any) Response {
	buf := &cappedBuffer{limit: h.o.Limits.MaxAnswerBytes}
	var err error
	if o, ok := v.(results.Output); ok {
		err = writeOutput(buf, o)
	} else {
		err = writeJSON(buf, v)
	}
	switch {
	case errors.Is(err, errTooLarge):
		return errorResponse(&Error{Status: statusUnprocessableEntity, Field: "scenario", Msg: fmt.Sprintf(
			"the answer is more than %s, this server's limit per answer; ask for fewer jobs, policies or seeds, or one policy at a time (the \"policy\" field), or run it with schedlab run",
			mib(h.o.Limits.MaxAnswerBytes))})
	case err != nil:
		return errorResponse(&Error{Status: statusInternalServerError, Msg: "encoding the answer: " + err.Error()})
	}
	return Response{Status: statusOK, Header: [][2]string{{"Content-Type", "application/json; charset=utf-8"}}, Body: buf.Bytes()}
}

// writeJSON writes v as MarshalJSON encodes it.
func writeJSON(w io.Writer, v any) error {
	data, err := MarshalJSON(v)
	if err == nil {
		_, err = w.Write(data)
	}
	return err
}

// mib writes a byte count in MiB, or bytes when small.
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

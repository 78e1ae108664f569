package app

import (
	"encoding/json"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/protocol"
)

// Ahead is a compact result message (protocol.RunRequest.Compact) with
// its heavy parts decoded ahead of OnWorker: its job records, decision
// log and GPU intervals. A browser decodes them outside the UI lock, in
// pieces with the main thread handed back between them (DecodeAhead's
// yield), then applies the message with OnWorkerAhead: decoding 20,000
// jobs' records inside the message's own task made it the page's longest
// task at the end of a run.
type Ahead struct {
	worker, id int
	res        protocol.Result
	out        results.PolicyOutput
	raw        json.RawMessage
	log        []protocol.LogEntry
	iv         []protocol.Interval
	err        error
}

// DecodeAhead decodes the heavy parts of worker's result message m,
// calling yield (when not nil) between pieces. It touches no App state,
// so it needs no lock. It returns nil for a message it cannot decode
// ahead (not a compact result), which OnWorker then decodes as before.
func DecodeAhead(worker int, m protocol.Message, yield func()) *Ahead {
	if m.Type != protocol.TypeResult || m.Bin[protocol.JobsKey] == nil {
		return nil
	}
	ah := &Ahead{worker: worker, id: m.ID}
	if ah.err = json.Unmarshal(m.JSON, &ah.res); ah.err != nil {
		return ah
	}
	if ah.out, ah.raw, ah.err = decodeOutputYielding(ah.res.Output, m.Bin, yield); ah.err != nil {
		return ah
	}
	if len(ah.res.Timelines) != 1 {
		return ah
	}
	if b, ok := m.Bin[protocol.LogKey]; ok {
		if ah.log, ah.err = protocol.DecodeLogYielding(b, yield); ah.err != nil {
			return ah
		}
	}
	ah.iv, ah.err = protocol.DecodeIntervalsYielding(m.Bin[protocol.IntervalsKey(0)], yield)
	return ah
}

// OnWorkerAhead is OnWorker for a message decoded ahead (ah may be nil).
func (a *App) OnWorkerAhead(id int, m protocol.Message, ah *Ahead) {
	if ah != nil && (ah.worker != id || ah.id != m.ID) {
		ah = nil
	}
	a.ahead = ah
	defer func() { a.ahead = nil }()
	a.OnWorker(id, m)
}

// decoded gives what a result message decodes to: the parts decoded
// ahead for message m when there are (see OnWorkerAhead), else decoded
// now.
func (a *App) decoded(m protocol.Message) (res protocol.Result, out results.PolicyOutput, raw json.RawMessage, err error) {
	if ah := a.ahead; ah != nil && ah.id == m.ID {
		return ah.res, ah.out, ah.raw, ah.err
	}
	if err = json.Unmarshal(m.JSON, &res); err != nil {
		return res, out, nil, err
	}
	out, raw, err = decodeOutput(res.Output, m.Bin)
	return res, out, raw, err
}

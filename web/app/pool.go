package app

import (
	"encoding/json"

	"github.com/schedlab/schedlab/web/protocol"
)

// pool manages the engine workers: it starts them, hands each idle one the
// next policy of the current run (or a drawing job), and routes replies.
type pool struct {
	a       *App
	workers []*worker
	lastID  int
	// pending maps request ids to what they are for.
	pending map[int]*request
	// draws waits for an idle worker.
	draws []*request
	// Engine tells about the engine: "" while loading, else its state.
	loaded  bool
	loadErr string
}

type worker struct {
	id    int
	ready bool
	busy  int // request id, 0 when idle
	dead  bool
}

// request is one message sent to a worker and awaiting its reply.
type request struct {
	id     int
	run    *Run
	part   *Part
	draw   *protocol.DrawRequest
	imp    *protocol.ImportRequest // a trace to read, instead of draw
	other  *asked                  // any other request, instead of draw
	bin    map[string][]byte
	onDraw func(protocol.Message)
}

func newPool(a *App) *pool { return &pool{a: a, pending: map[int]*request{}} }

func (p *pool) nextID() int {
	p.lastID++
	return p.lastID
}

// live returns the workers not terminated.
func (p *pool) live() []*worker {
	var out []*worker
	for _, w := range p.workers {
		if !w.dead {
			out = append(out, w)
		}
	}
	return out
}

// ensure starts workers until n are alive.
func (p *pool) ensure(n int) {
	for len(p.live()) < n {
		w := &worker{id: p.nextID()}
		p.workers = append(p.workers, w)
		p.a.P.StartWorker(w.id)
	}
}

// replace terminates worker id and starts a fresh one in its place.
func (p *pool) replace(id int) {
	for _, w := range p.workers {
		if w.id == id && !w.dead {
			w.dead = true
			p.a.P.StopWorker(id)
			if w.busy != 0 {
				delete(p.pending, w.busy)
			}
			nw := &worker{id: p.nextID()}
			p.workers = append(p.workers, nw)
			p.a.P.StartWorker(nw.id)
			return
		}
	}
}

func (p *pool) worker(id int) *worker {
	for _, w := range p.workers {
		if w.id == id {
			return w
		}
	}
	return nil
}

// Workers is the number of engine workers running and ready.
func (a *App) Workers() (ready, all int) {
	for _, w := range a.pool.live() {
		all++
		if w.ready {
			ready++
		}
	}
	return ready, all
}

// EngineState describes the engine for the status line.
func (a *App) EngineState() string {
	switch {
	case a.pool.loadErr != "":
		return "The simulator could not start: " + a.pool.loadErr
	case !a.pool.loaded:
		return "Loading the simulator…"
	}
	return ""
}

// dispatch gives idle workers work: drawing first (it finishes a run the
// student is waiting for), then the queued policies of the current run.
func (p *pool) dispatch() {
	for _, w := range p.live() {
		if !w.ready || w.busy != 0 {
			continue
		}
		if len(p.draws) > 0 {
			req := p.draws[0]
			p.draws = p.draws[1:]
			if req.imp != nil {
				p.send(w, req, protocol.TypeImport, req.imp)
				continue
			}
			if req.other != nil {
				p.send(w, req, req.other.typ, req.other.payload)
				continue
			}
			p.send(w, req, protocol.TypeDraw, req.draw)
			continue
		}
		if p.dispatchFigure(w) {
			continue
		}
		r := p.a.Run
		if r == nil || r.State != RunRunning {
			continue
		}
		for _, part := range r.Parts {
			if part.State != PartQueued {
				continue
			}
			i := part.Index
			req := &request{id: p.nextID(), run: r, part: part}
			part.State, part.req, part.worker = PartRunning, req.id, w.id
			part.heard, part.sent, part.width = p.a.P.Now(), p.a.P.Now(), p.a.figureWidth()
			p.send(w, req, protocol.TypeRun, protocol.RunRequest{Document: r.Doc, Seed: r.Seed, Policy: &i,
				Figures: []string{"gantt"}, Timeline: true, Stories: true, Compact: true, Width: part.width})
			break
		}
	}
}

func (p *pool) send(w *worker, req *request, typ string, payload any) {
	if req.id == 0 {
		req.id = p.nextID()
	}
	m := protocol.NewMessage(typ, req.id, payload)
	m.Bin = req.bin
	w.busy = req.id
	p.pending[req.id] = req
	p.a.P.PostWorker(w.id, m)
}

// draw queues a drawing request; onDone receives the "drawn" or "error"
// reply.
func (p *pool) draw(d protocol.DrawRequest, bin map[string][]byte, onDone func(protocol.Message)) {
	p.draws = append(p.draws, &request{draw: &d, bin: bin, onDraw: onDone})
	p.ensure(1)
	p.dispatch()
}

// asked is a request of any type for the queue of drawing requests.
type asked struct {
	typ     string
	payload any
}

// importTrace queues a trace to read (text in bin protocol.TraceKey)
// with the drawing requests; onDone receives the "imported" or "error"
// reply.
func (p *pool) importTrace(req protocol.ImportRequest, text []byte, onDone func(protocol.Message)) {
	p.draws = append(p.draws, &request{imp: &req, bin: map[string][]byte{protocol.TraceKey: text}, onDraw: onDone})
	p.ensure(1)
	p.dispatch()
}

// ask queues a request of another type (a job's story, a policy check)
// with the drawing requests; onDone receives its progress and its reply.
// The request returned is what cancel takes.
func (p *pool) ask(typ string, payload any, bin map[string][]byte, onDone func(protocol.Message)) *request {
	req := &request{id: p.nextID(), other: &asked{typ, payload}, bin: bin, onDraw: onDone}
	p.draws = append(p.draws, req)
	p.ensure(1)
	p.dispatch()
	return req
}

// cancel withdraws a request: from the queue if no worker took it yet,
// else by a "cancel" message to its worker.
func (p *pool) cancel(req *request) {
	for i, r := range p.draws {
		if r == req {
			p.draws = append(p.draws[:i], p.draws[i+1:]...)
			return
		}
	}
	for _, w := range p.live() {
		if w.busy == req.id {
			p.a.P.PostWorker(w.id, protocol.Message{Type: protocol.TypeCancel, ID: req.id})
		}
	}
}

// OnWorker handles a message from engine worker id.
func (a *App) OnWorker(id int, m protocol.Message) {
	p := a.pool
	w := p.worker(id)
	if w == nil || w.dead {
		return // a terminated worker's last words
	}
	if m.Type == protocol.TypeReady {
		w.ready = true
		p.loaded = true
		p.dispatch()
		return
	}
	if w.ready && (m.Type == protocol.TypeExit || (m.ID == 0 && m.Type == protocol.TypeError)) {
		a.workerDied(w, m)
		return
	}
	if m.Type == protocol.TypeExit || (m.ID == 0 && m.Type == protocol.TypeError) {
		// the worker could not load the engine: no use starting another
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		if m.Type == protocol.TypeExit {
			e.Message = "the engine stopped while starting (" + deathCause(m) + ")"
		}
		p.loadErr = e.Message
		w.dead = true
		a.setNotice("The simulator could not start: "+e.Message, true)
		if a.Running() {
			a.failRun(a.Run, "the simulator could not start")
			a.finishIfStopped(a.Run)
		}
		return
	}
	req := p.pending[m.ID]
	if req == nil {
		return
	}
	if m.Type != protocol.TypeProgress {
		delete(p.pending, m.ID)
		if w.busy == m.ID {
			w.busy = 0
		}
	}
	switch {
	case req.part != nil:
		a.handleRunMessage(req.run, req.part, m)
	case req.onDraw != nil:
		req.onDraw(m)
	}
	if m.Type != protocol.TypeProgress {
		p.dispatch()
	}
}

// Package apptest is a simulated browser for tests of the page: its engine
// workers are the real engine (web/worker) running in the test
// process, so the page logic is tested against the real simulator and only
// the browser itself is simulated.
package apptest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/protocol"
	"github.com/schedlab/schedlab/web/worker"
)

// Browser implements app.Platform for tests.
type Browser struct {
	T       testing.TB
	NCores  int
	Storage map[string]string
	Frag    string
	Files   map[string][]byte // downloads by file name
	Copied  string            // the clipboard
	Pick    string            // the text of the file PickFile returns
	Focused string
	// Revoked are the blob URLs the page has freed.
	Revoked map[string]bool
	// Quota, when positive, is the most bytes (keys and values) the
	// storage holds, as a browser's localStorage quota.
	Quota int
	// Width is the screen's width in CSS pixels; 0 is a laptop's, 1280.
	Width int

	// Client answers Fetch; nil refuses every request, as a browser
	// without a network.
	Client *http.Client

	mu      sync.Mutex
	calls   []func() // Fetch replies, delivered by Pump
	inbox   []delivery
	wake    chan struct{}
	workers map[int]*worker.Handler
	frozen  map[int]bool
	timers  []timer
	now     time.Time
	urls    int
}

type delivery struct {
	worker int
	m      protocol.Message
}

type timer struct {
	at time.Time
	f  func()
}

// New returns a browser with two cores and empty storage.
func New(t testing.TB) *Browser {
	return &Browser{T: t, NCores: 2, Storage: map[string]string{}, Files: map[string][]byte{}, Revoked: map[string]bool{}, wake: make(chan struct{}, 1),
		workers: map[int]*worker.Handler{}, frozen: map[int]bool{}, now: time.Unix(1e9, 0)}
}

var _ app.Platform = (*Browser)(nil)

// Cores implements app.Platform.
func (b *Browser) Cores() int { return b.NCores }

// ViewportWidth implements app.Platform: a laptop screen unless Width
// says otherwise.
func (b *Browser) ViewportWidth() int {
	if b.Width > 0 {
		return b.Width
	}
	return 1280
}

func (b *Browser) deliver(id int, m protocol.Message) {
	b.mu.Lock()
	b.inbox = append(b.inbox, delivery{id, m})
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// StartWorker implements app.Platform with an in-process engine.
func (b *Browser) StartWorker(id int) {
	h := worker.New(func(m protocol.Message) {
		b.mu.Lock()
		frozen := b.frozen[id]
		b.mu.Unlock()
		if !frozen {
			b.deliver(id, m)
		}
	})
	h.ProgressEvery = 0
	b.workers[id] = h
	b.deliver(id, protocol.NewMessage(protocol.TypeReady, 0, worker.Ready()))
}

// PostWorker implements app.Platform.
func (b *Browser) PostWorker(id int, m protocol.Message) {
	b.mu.Lock()
	frozen := b.frozen[id]
	b.mu.Unlock()
	if h := b.workers[id]; h != nil && !frozen {
		h.Handle(m)
	}
}

// StopWorker implements app.Platform.
func (b *Browser) StopWorker(id int) { b.Freeze(id) }

// Freeze makes a worker deaf and mute, as one stuck in a long computation.
func (b *Browser) Freeze(id int) {
	b.mu.Lock()
	b.frozen[id] = true
	b.mu.Unlock()
}

// Exit makes worker id die as when its Go program exits: it says nothing
// more and worker.js reports the exit with the program's last output.
func (b *Browser) Exit(id, code int, output string) {
	b.Freeze(id)
	b.deliver(id, protocol.NewMessage(protocol.TypeExit, 0, protocol.Exit{Code: code, Output: output}))
}

// Crash makes worker id fail as with an uncaught error event.
func (b *Browser) Crash(id int, msg string) {
	b.Freeze(id)
	b.deliver(id, protocol.NewMessage(protocol.TypeError, 0, protocol.Error{Message: msg}))
}

// FreezeAll freezes every worker started so far.
func (b *Browser) FreezeAll() {
	for id := range b.workers {
		b.Freeze(id)
	}
}

// Load implements app.Platform.
func (b *Browser) Load(key string) (string, bool) {
	v, ok := b.Storage[key]
	return v, ok
}

// Save implements app.Platform.
func (b *Browser) Save(key, value string) error {
	if b.Quota > 0 {
		n := len(key) + len(value)
		for k, v := range b.Storage {
			if k != key {
				n += len(k) + len(v)
			}
		}
		if n > b.Quota {
			return app.ErrStorageFull
		}
	}
	b.Storage[key] = value
	return nil
}

// Fragment implements app.Platform.
func (b *Browser) Fragment() string { return b.Frag }

// SetFragment implements app.Platform.
func (b *Browser) SetFragment(s string) { b.Frag = s }

// Location implements app.Platform.
func (b *Browser) Location() string { return "http://localhost/" }

// RevokeURL implements app.Platform, noting the URL in Revoked.
func (b *Browser) RevokeURL(url string) { b.Revoked[url] = true }

// Copy implements app.Platform.
func (b *Browser) Copy(text string) { b.Copied = text }

// Focus implements app.Platform.
func (b *Browser) Focus(id string) { b.Focused = id }

// Now implements app.Platform.
func (b *Browser) Now() time.Time { return b.now }

// After implements app.Platform; Advance fires the timers.
func (b *Browser) After(d time.Duration, f func()) {
	b.timers = append(b.timers, timer{b.now.Add(d), f})
}

// Soon implements app.Platform by running f at once, so that tests see
// what the page saves without waiting.
func (b *Browser) Soon(d time.Duration, f func()) { f() }

// PickFile implements app.Platform with the text in Pick.
func (b *Browser) PickFile(accept string, done func(name, text string, err error)) {
	done("picked.json", b.Pick, nil)
}

// BlobURL implements app.Platform.
func (b *Browser) BlobURL(data []byte, mime string) string {
	b.urls++
	return fmt.Sprintf("blob:%d", b.urls)
}

// Report implements app.Platform: an internal error fails the test.
func (b *Browser) Report(msg string) { b.T.Errorf("page error: %s", msg) }

// Download implements app.Platform.
func (b *Browser) Download(name, mime string, data []byte) { b.Files[name] = data }

// Fetch implements app.Platform with Client, on its own goroutine; Pump
// delivers the reply, as a browser's fetch calls back later.
func (b *Browser) Fetch(method, url string, body []byte, done func(app.FetchReply)) {
	go func() {
		r := b.fetch(method, url, body)
		b.mu.Lock()
		b.calls = append(b.calls, func() { done(r) })
		b.mu.Unlock()
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}()
}

func (b *Browser) fetch(method, url string, body []byte) app.FetchReply {
	if b.Client == nil {
		return app.FetchReply{Err: fmt.Errorf("no network in this test")}
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return app.FetchReply{Err: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.Client.Do(req)
	if err != nil {
		return app.FetchReply{Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return app.FetchReply{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After"), Body: data, Err: err}
}

// Pump delivers worker messages to the app until cond holds.
func (b *Browser) Pump(a *app.App, cond func() bool) {
	b.T.Helper()
	deadline := time.After(3 * time.Minute)
	for !cond() {
		b.mu.Lock()
		batch, calls := b.inbox, b.calls
		b.inbox, b.calls = nil, nil
		b.mu.Unlock()
		for _, c := range calls {
			c()
		}
		if len(batch) == 0 && len(calls) > 0 {
			continue
		}
		if len(batch) == 0 {
			select {
			case <-b.wake:
			case <-deadline:
				b.T.Fatal("timed out waiting for the engine")
			}
			continue
		}
		// Results are decoded ahead, as the browser does (with a yield
		// that does nothing here).
		for _, d := range batch {
			a.OnWorkerAhead(d.worker, d.m, app.DecodeAhead(d.worker, d.m, func() {}))
		}
	}
}

// PendingTimers is the number of timers set and not yet fired.
func (b *Browser) PendingTimers() int { return len(b.timers) }

// Advance moves the clock on and fires the timers that are due.
func (b *Browser) Advance(d time.Duration) {
	b.now = b.now.Add(d)
	var rest []timer
	due := b.timers
	b.timers = nil
	for _, t := range due {
		if !t.at.After(b.now) {
			t.f()
		} else {
			rest = append(rest, t)
		}
	}
	b.timers = append(rest, b.timers...)
}

// Done is a Pump condition: the last run ended.
func Done(a *app.App) func() bool {
	return func() bool { return a.Run != nil && !a.Running() }
}

// Drawn is a Pump condition: the results' figures are drawn.
func Drawn(a *app.App) func() bool {
	return func() bool { return a.Res != nil && !a.Res.CDF.Pending && !a.Res.Queue.Pending }
}

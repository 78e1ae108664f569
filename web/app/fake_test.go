package app

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/wasm/engine/handler"
	"github.com/schedlab/schedlab/wasm/protocol"
)

// fakeBrowser is a Platform whose engine workers are the real engine
// (package handler) running in-process: the page logic is tested against
// the real simulator, only the browser is simulated.
type fakeBrowser struct {
	t       *testing.T
	cores   int
	storage map[string]string
	frag    string
	mu      sync.Mutex
	inbox   []delivery
	wake    chan struct{}
	workers map[int]*handler.Handler
	stopped map[int]bool
	timers  []timer
	now     time.Time
	files   map[string][]byte
	copied  string
	focused string
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

func newFake(t *testing.T) *fakeBrowser {
	return &fakeBrowser{t: t, cores: 2, storage: map[string]string{}, wake: make(chan struct{}, 1),
		workers: map[int]*handler.Handler{}, stopped: map[int]bool{}, now: time.Unix(1e9, 0), files: map[string][]byte{}}
}

func (f *fakeBrowser) Cores() int { return f.cores }

func (f *fakeBrowser) deliver(id int, m protocol.Message) {
	f.mu.Lock()
	f.inbox = append(f.inbox, delivery{id, m})
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *fakeBrowser) StartWorker(id int) {
	h := handler.New(func(m protocol.Message) { f.deliver(id, m) })
	h.ProgressEvery = 0
	f.workers[id] = h
	f.deliver(id, protocol.NewMessage(protocol.TypeReady, 0, handler.Ready()))
}

func (f *fakeBrowser) PostWorker(id int, m protocol.Message) {
	if h := f.workers[id]; h != nil && !f.stopped[id] {
		h.Handle(m)
	}
}

func (f *fakeBrowser) StopWorker(id int) { f.stopped[id] = true }

func (f *fakeBrowser) Load(key string) (string, bool) {
	v, ok := f.storage[key]
	return v, ok
}

func (f *fakeBrowser) Save(key, value string)  { f.storage[key] = value }
func (f *fakeBrowser) Fragment() string        { return f.frag }
func (f *fakeBrowser) SetFragment(s string)    { f.frag = s }
func (f *fakeBrowser) Location() string        { return "http://localhost/" }
func (f *fakeBrowser) RevokeURL(string)        {}
func (f *fakeBrowser) Copy(text string)        { f.copied = text }
func (f *fakeBrowser) Focus(id string)         { f.focused = id }
func (f *fakeBrowser) Now() time.Time          { return f.now }
func (f *fakeBrowser) After(d time.Duration, fn func()) {
	f.timers = append(f.timers, timer{f.now.Add(d), fn})
}

func (f *fakeBrowser) BlobURL(data []byte, mime string) string {
	f.urls++
	return fmt.Sprintf("blob:%d", f.urls)
}

func (f *fakeBrowser) Download(name, mime string, data []byte) { f.files[name] = data }

// pump delivers worker messages to the app until cond holds.
func (f *fakeBrowser) pump(a *App, cond func() bool) {
	f.t.Helper()
	deadline := time.After(3 * time.Minute)
	for !cond() {
		f.mu.Lock()
		batch := f.inbox
		f.inbox = nil
		f.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-f.wake:
			case <-deadline:
				f.t.Fatal("timed out waiting for the engine")
			}
			continue
		}
		for _, d := range batch {
			a.OnWorker(d.worker, d.m)
		}
	}
}

// advance moves the clock on and fires due timers.
func (f *fakeBrowser) advance(d time.Duration) {
	f.now = f.now.Add(d)
	var rest []timer
	for _, t := range f.timers {
		if !t.at.After(f.now) {
			t.f()
		} else {
			rest = append(rest, t)
		}
	}
	f.timers = rest
}

// Package prebuild computes, when the site is built, the results the page
// opens with: the page's own logic (web/app) runs the default scenario on
// in-process engine workers (web/worker), exactly as the browser would
// with its Web Workers, and keeps the workers' replies as an app Preview.
// build/site writes it beside the page, which shows it while its own
// engine loads (see web/app's preview.go).
package prebuild

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/protocol"
	"github.com/schedlab/schedlab/web/worker"
)

// The screen widths the site's build computes results for: a desktop's,
// and a phone's (the page draws narrower figures under 760 px, so a
// phone cannot use the desktop's; its own serves every phone, see
// app.ShowPreview).
const (
	DesktopWidth = 1280
	PhoneWidth   = 390
)

// Default runs the scenario a fresh page opens with, as a desktop browser
// (1280 px wide) shows it, and returns its Preview.
func Default() ([]byte, error) { return At(DesktopWidth) }

// At runs the scenario a fresh page opens with, as a browser width px
// wide shows it, and returns its Preview.
func At(width int) ([]byte, error) {
	b := &browser{workers: map[int]*worker.Handler{}, wake: make(chan struct{}, 1), width: width}
	a := app.New(b)
	a.Record()
	a.Start()
	deadline := time.After(5 * time.Minute)
	for a.Running() || a.Res == nil || a.Res.CDF.Pending || a.Res.Queue.Pending {
		if b.err != nil {
			return nil, b.err
		}
		if a.Run == nil || (!a.Running() && a.Res == nil) {
			return nil, fmt.Errorf("the default scenario did not run: %s", a.Notice)
		}
		b.mu.Lock()
		batch := b.inbox
		b.inbox = nil
		b.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-b.wake:
			case <-deadline:
				return nil, errors.New("the default scenario took over five minutes")
			}
			continue
		}
		for _, d := range batch {
			a.OnWorker(d.worker, d.m)
		}
	}
	return a.Preview()
}

// Shown returns the page as a browser width px wide shows it once it has
// started and shown preview (the Preview of At for that width): the
// default scenario's run just started, no engine worker ready yet, and the
// build-time results on show. build/site draws it (web/snapshot) into
// index.html, so that the results are on screen before the page's module
// has arrived. blob names each image the page would give a blob: URL;
// stored is what the page saved in its storage, by key.
func Shown(preview []byte, width int, blob func(data []byte, mime string) string) (a *app.App, stored map[string]string, err error) {
	b := &browser{workers: map[int]*worker.Handler{}, wake: make(chan struct{}, 1), width: width,
		idle: true, blob: blob, stored: map[string]string{}}
	a = app.New(b)
	a.Start()
	shown, err := a.ShowPreview(preview)
	switch {
	case err != nil:
		return nil, nil, err
	case !shown:
		return nil, nil, fmt.Errorf("the page did not show the results computed for a %d px screen", width)
	case b.err != nil:
		return nil, nil, b.err
	}
	return a, b.stored, nil
}

// browser is app.Platform for a page nobody sees: a screen width px wide, empty
// storage, no URL fragment, and engine workers in this process.
type browser struct {
	mu      sync.Mutex
	inbox   []delivery
	wake    chan struct{}
	workers map[int]*worker.Handler
	width   int   // of the screen, in CSS pixels
	err     error // an internal error the page reported
	// idle engine workers never start (Shown: the page before its engine
	// has loaded).
	idle   bool
	blob   func([]byte, string) string // BlobURL, when set
	stored map[string]string           // Save's, when set
}

type delivery struct {
	worker int
	m      protocol.Message
}

var _ app.Platform = (*browser)(nil)

func (b *browser) deliver(id int, m protocol.Message) {
	b.mu.Lock()
	b.inbox = append(b.inbox, delivery{id, m})
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *browser) Cores() int         { return 2 }
func (b *browser) ViewportWidth() int { return b.width }

func (b *browser) StartWorker(id int) {
	if b.idle {
		return
	}
	h := worker.New(func(m protocol.Message) { b.deliver(id, m) })
	b.workers[id] = h
	b.deliver(id, protocol.NewMessage(protocol.TypeReady, 0, worker.Ready()))
}

func (b *browser) PostWorker(id int, m protocol.Message) {
	if h := b.workers[id]; h != nil {
		h.Handle(m)
	}
}

func (b *browser) StopWorker(id int)          { delete(b.workers, id) }
func (b *browser) Load(string) (string, bool) { return "", false }
func (b *browser) Save(key, value string) error {
	if b.stored != nil {
		b.stored[key] = value
	}
	return nil
}
func (b *browser) Fragment() string   { return "" }
func (b *browser) SetFragment(string) {}
func (b *browser) Location() string   { return "http://localhost/" }
func (b *browser) BlobURL(data []byte, mime string) string {
	if b.blob != nil {
		return b.blob(data, mime)
	}
	return "blob:"
}
func (b *browser) RevokeURL(string)                             {}
func (b *browser) Download(string, string, []byte)              {}
func (b *browser) Copy(string)                                  {}
func (b *browser) Focus(string)                                 {}
func (b *browser) After(time.Duration, func())                  {} // the watchdog is not needed here
func (b *browser) Soon(_ time.Duration, f func())               { f() }
func (b *browser) Now() time.Time                               { return time.Now() }
func (b *browser) Report(msg string)                            { b.err = errors.New("page error: " + msg) }
func (b *browser) PickFile(string, func(string, string, error)) {}

// Fetch refuses: the build-time results never ask a server.
func (b *browser) Fetch(_, _ string, _ []byte, done func(app.FetchReply)) {
	done(app.FetchReply{Err: errors.New("no network at build time")})
}

package api

import (
	"context"
	"math"
	"sync"
	"time"
)

// admission bounds the work a server takes on: at most running requests
// do work at once, at most queued more wait for a turn, and a request
// beyond both is refused at once with 503 and a Retry-After header,
// before its body is read. A queued request holds no more than its body
// (at most Limits.MaxBodyBytes), so the server's memory is bounded by
// running × what one request may use, plus (running + queued) bodies.
type admission struct {
	places chan struct{} // running + queued: taken on arrival, never waited for
	turns  chan struct{} // running: waited for, within the request's time limit

	mu  sync.Mutex
	avg time.Duration // a moving average of how long a turn lasts
}

func newAdmission(running, queued int) *admission {
	return &admission{places: make(chan struct{}, running+queued), turns: make(chan struct{}, running)}
}

// enter takes a place in the queue, or reports that there is none.
func (a *admission) enter() bool {
	select {
	case a.places <- struct{}{}:
		return true
	default:
		return false
	}
}

// leave gives the place back.
func (a *admission) leave() { <-a.places }

// wait waits for a turn to do the work, until ctx ends.
func (a *admission) wait(ctx context.Context) error {
	select {
	case a.turns <- struct{}{}:
		return nil
	default:
	}
	select {
	case a.turns <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// done ends a turn that lasted d.
func (a *admission) done(d time.Duration) {
	<-a.turns
	a.mu.Lock()
	if a.avg == 0 {
		a.avg = d
	} else {
		a.avg = (7*a.avg + d) / 8
	}
	a.mu.Unlock()
}

// retryAfter is the seconds a refused client should wait: about the time
// the requests ahead of it take, from 1 s to 2 minutes.
func (a *admission) retryAfter() int {
	a.mu.Lock()
	avg := a.avg
	a.mu.Unlock()
	waiting := float64(len(a.places)) / float64(max(cap(a.turns), 1))
	s := math.Ceil(avg.Seconds() * waiting)
	return int(min(max(s, 1), 120))
}

// load is what GET /v1/health says about the queue.
func (a *admission) load() Load {
	return Load{MaxRunning: cap(a.turns), MaxQueued: cap(a.places) - cap(a.turns), Running: len(a.turns), Waiting: len(a.places) - len(a.turns)}
}

// Load is the server's admission limits and how busy it is now.
type Load struct {
	MaxRunning int `json:"max_running"` // requests doing work at once
	MaxQueued  int `json:"max_queued"`  // more requests waiting for a turn; beyond, 503
	Running    int `json:"running"`
	Waiting    int `json:"waiting"` // being read or waiting for a turn
}

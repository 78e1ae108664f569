package engine

import (
	"context"
	"fmt"

	"github.com/schedlab/schedlab/sim/results"
)

// The engine looks at its context at every instant, and a policy whose
// decision is heavy (a round that re-plans every job) looks in its own
// loops through Interrupted, so that a cancelled run or one past its
// deadline stops within a fraction of a second of CPU, not after
// thousands of events. A look is a receive without waiting on the
// context's Done channel: a few nanoseconds, and nothing at all for a
// context that is never cancelled (its channel is nil).

// cancellation remembers the run's context for Interrupted.
type cancellation struct {
	ctx  context.Context
	done <-chan struct{}
}

func (c *cancellation) watch(ctx context.Context) {
	c.ctx, c.done = ctx, ctx.Done()
}

// Interrupted returns an error once the run's context is cancelled or its
// deadline has passed, and nil until then. A policy doing heavy work in
// one decision calls it in its loops and returns the error it gets: the
// run then ends with that error, whatever the policy had decided so far.
func (s *State) Interrupted() error {
	if s.cancel.done == nil {
		return nil // a context that is never cancelled: not even a receive
	}
	return s.interrupted()
}

// interrupted is Interrupted's look at the channel, kept apart so that
// Interrupted inlines into the engine's loop.
func (s *State) interrupted() error {
	select {
	case <-s.cancel.done:
		return &CancelledError{At: s.now, Cause: s.cancel.ctx.Err()}
	default:
		return nil
	}
}

// CancelledError ends a run whose context was cancelled or ran out of
// time; Unwrap gives the context's error (context.Canceled or
// context.DeadlineExceeded).
type CancelledError struct {
	At    float64 // simulated time it stopped at
	Cause error
}

func (e *CancelledError) Error() string {
	return fmt.Sprintf("run cancelled at t=%s: %v", results.DurationExact(e.At), e.Cause)
}

func (e *CancelledError) Unwrap() error { return e.Cause }

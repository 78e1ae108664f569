package api

import "context"

// HoldTurn takes a place and a turn of h's queue, as a request doing long
// work does, until release.
func HoldTurn(h *Handler) (release func()) {
	h.admit.places <- struct{}{}
	h.admit.turns <- struct{}{}
	return func() {
		<-h.admit.turns
		<-h.admit.places
	}
}

// Panicking is a handler whose every POST panics after taking its turn,
// with o's queue.
func Panicking(o Options) *Handler {
	h := New(o)
	for path := range h.routes {
		h.routes[path] = route{post: func(context.Context, []byte) (any, *Error) { panic("a bug") }}
	}
	return h
}

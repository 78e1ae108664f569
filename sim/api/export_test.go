package api

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

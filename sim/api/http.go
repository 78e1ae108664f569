//go:build !nohttp && !js

package api

import "net/http"

// ServeHTTP answers one request (see Answer). The body's read deadline
// is set through net/http's ResponseController, so a body sent too slowly
// gets 408.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	resp := h.Answer(r.Context(), Request{Method: r.Method, Path: r.URL.Path, Body: r.Body, Length: r.ContentLength,
		ContentType: r.Header.Get("Content-Type"), Origin: r.Header.Get("Origin"), SetReadDeadline: rc.SetReadDeadline})
	for _, kv := range resp.Header {
		w.Header().Add(kv[0], kv[1])
	}
	if resp.Close {
		w.Header().Set("Connection", "close")
	}
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}

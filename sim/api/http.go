//go:build !nohttp

package api

import "net/http"

// ServeHTTP answers one request (see Answer).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resp := h.Answer(r.Context(), Request{Method: r.Method, Path: r.URL.Path, Body: r.Body, Length: r.ContentLength})
	for _, kv := range resp.Header {
		w.Header().Set(kv[0], kv[1])
	}
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}

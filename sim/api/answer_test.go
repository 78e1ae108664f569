package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/api"
)

// TestAnswer: the answers' statuses and headers, without a transport (the
// Workers build hands requests to Answer directly).
func TestAnswer(t *testing.T) {
	h := api.New(api.Options{AllowOrigins: []string{"https://lab.example"}})
	header := func(r api.Response, name string) string {
		for _, kv := range r.Header {
			if kv[0] == name {
				return kv[1]
			}
		}
		return ""
	}
	const lab, elsewhere = "https://lab.example", "https://elsewhere.example"
	for _, c := range []struct {
		method, path, body, origin string
		status                     int
		headers                    map[string]string // "" for a header that must be absent
	}{
		{"GET", "/v1/health", "", elsewhere, 200, map[string]string{"Access-Control-Allow-Origin": "*", "Content-Type": "application/json; charset=utf-8"}},
		{"HEAD", "/v1/health", "", "", 200, nil},
		// A page may POST only from an allowed origin: the browser asks
		// first, and reads a POST's answer only when it is allowed.
		{"OPTIONS", "/v1/run", "", lab, 204, map[string]string{"Access-Control-Allow-Origin": lab, "Access-Control-Allow-Methods": "GET, POST, OPTIONS", "Access-Control-Allow-Headers": "Content-Type"}},
		{"OPTIONS", "/v1/run", "", elsewhere, 204, map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""}},
		{"OPTIONS", "/v1/run", "", "", 204, map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""}},
		{"POST", "/v1/validate", `{"scenario": "tiny"}`, lab, 200, map[string]string{"Access-Control-Allow-Origin": lab, "Vary": "Origin"}},
		{"POST", "/v1/validate", `{"scenario": "tiny"}`, elsewhere, 200, map[string]string{"Access-Control-Allow-Origin": ""}},
		{"POST", "/v1/health", "{}", "", 405, map[string]string{"Allow": "GET"}},
		{"GET", "/v1/run", "", "", 405, map[string]string{"Allow": "POST", "Access-Control-Allow-Origin": "*"}},
		{"GET", "/v1/nothing", "", "", 404, nil},
		{"POST", "/v1/validate", "", "", 400, nil},
		{"POST", "/v1/validate", `{"scenario": "tiny"}`, "", 200, nil},
	} {
		req := api.Request{Method: c.method, Path: c.path, Length: -1, Origin: c.origin}
		if c.method == "POST" {
			req.ContentType = "application/json"
		}
		if c.body != "" {
			req.Body, req.Length = strings.NewReader(c.body), int64(len(c.body))
		}
		r := h.Answer(context.Background(), req)
		what := c.method + " " + c.path + " from " + c.origin
		if r.Status != c.status {
			t.Errorf("%s: status %d, want %d (%s)", what, r.Status, c.status, r.Body)
		}
		for name, want := range c.headers {
			if got := header(r, name); got != want {
				t.Errorf("%s: %s is %q, want %q", what, name, got, want)
			}
		}
		if c.status == 204 {
			if len(r.Body) != 0 {
				t.Errorf("%s: a 204 with a body: %s", what, r.Body)
			}
		} else if !json.Valid(r.Body) {
			t.Errorf("%s: not JSON: %s", what, r.Body)
		}
	}
	// A body over the limit, declared or not, is refused.
	small := api.New(api.Options{Limits: api.Limits{MaxBodyBytes: 10}})
	body := `{"scenario": "tiny"}`
	for _, n := range []int64{int64(len(body)), -1} {
		r := small.Answer(context.Background(), api.Request{Method: "POST", Path: "/v1/validate", Body: strings.NewReader(body), Length: n, ContentType: "application/json"})
		if r.Status != 413 {
			t.Errorf("a %d-byte body over a 10-byte limit (declared length %d): status %d", len(body), n, r.Status)
		}
	}
}

//go:build !js

package api_test

import (
	"net/http/httptest"
	"testing"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/api/apitest"
	_ "github.com/schedlab/schedlab/sim/policy/all"
)

// TestAPI runs the suite against the handler behind httptest.
func TestAPI(t *testing.T) {
	srv := httptest.NewServer(api.New(api.Options{Limits: api.Limits{MaxBodyBytes: 1 << 20, MaxGPUs: 4096, MaxSimTimeS: 1e9}}))
	defer srv.Close()
	apitest.Run(t, srv.URL)
}

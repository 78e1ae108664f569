//go:build !js

package main

import (
	"fmt"
	"net/http"
	"os"

	"github.com/schedlab/schedlab/sim/api"
)

// main serves the API natively on $PORT (default 9900), for debugging
// what the Workers build answers; `schedlab serve` is the API server to
// use otherwise.
func main() {
	port := os.Getenv("PORT")
	if port == "" {
		port = "9900"
	}
	fmt.Printf("the API on http://localhost:%s/v1/health (the Workers build, run natively)\n", port)
	if err := http.ListenAndServe("localhost:"+port, api.New(api.Options{Workers: 1, AllowOrigins: []string{"*"}})); err != nil {
		fmt.Fprintln(os.Stderr, "edge:", err)
		os.Exit(1)
	}
}

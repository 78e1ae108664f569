// Command serve serves the built site on a local address for `make run`,
// sending the precompressed copies build/site wrote where the browser
// accepts them (see build/static).
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/schedlab/schedlab/build/static"
)

func main() {
	dir := flag.String("dir", "build/out", "directory to serve")
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	flag.Parse()
	if _, err := os.Stat(*dir); err != nil {
		log.Fatalf("serve: %v (run `make site` first)", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	fmt.Printf("schedlab is at http://%s/ (Ctrl-C stops)\n", ln.Addr())
	// Go serves .wasm as application/wasm, which instantiateStreaming needs.
	log.Fatal(http.Serve(ln, static.Handler(*dir)))
}

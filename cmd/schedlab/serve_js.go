//go:build js

package main

import (
	"fmt"
	"io"
)

// cmdServe refuses: the WebAssembly build has no network (errNoNetwork).
func cmdServe(_ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "schedlab serve:", errNoNetwork)
	return exitInvalid
}

package doc

import "github.com/schedlab/schedlab/sim/schema"

// The editor opens documents of tens of thousands of jobs (an imported
// trace): encoding/json's token reader took seconds of the page's main
// thread for one in WebAssembly. fastParse reads a valid document in one
// pass over its bytes into the same tree; on anything it does not accept
// (a syntax error, nesting deeper than encoding/json allows) Parse falls
// back to the token reader, which then gives its usual error.
func fastParse(data []byte) (any, bool) {
	return schema.ScanJSON(data, NewObject, (*Object).Set)
}

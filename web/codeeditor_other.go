//go:build !js

package web

import js "github.com/vugu/vugu/js"

// codeEditor is the page's code editor: there is none outside a browser
// (Vugu's static renderer in tests draws the plain text area).
func codeEditor() js.Value { return js.Undefined() }

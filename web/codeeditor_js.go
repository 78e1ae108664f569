//go:build js

package web

import js "github.com/vugu/vugu/js"

// codeEditor is the page's code editor (web/codeeditor.js), undefined
// when its script did not load.
func codeEditor() js.Value { return js.Global().Get("schedlabCode") }

//go:build js && wasm

// Command engine is schedlab's simulation engine as a Web Worker: it runs
// scenarios and draws their figures, speaking the messages of package
// protocol with the page.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"syscall/js"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/policy"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/wasm/protocol"
)

var (
	mu      sync.Mutex
	cancels = map[int]context.CancelFunc{}
)

func main() {
	js.Global().Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := args[0].Get("data")
		typ := msg.Get("type").String()
		id := 0
		if v := msg.Get("id"); v.Type() == js.TypeNumber {
			id = v.Int()
		}
		switch typ {
		case "run":
			req := msg.Get("json").String()
			go run(id, req) // never block inside a js.FuncOf callback
		case "cancel":
			mu.Lock()
			if c := cancels[id]; c != nil {
				c()
			}
			mu.Unlock()
		case "list":
			post("ready", 0, ready(), nil)
		}
		return nil
	}))
	post("ready", 0, ready(), nil)
	select {}
}

func ready() protocol.Ready {
	r := protocol.Ready{Default: scenarios.Default, Policies: policy.Names()}
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		if sc, err := scenario.Parse(data); err == nil {
			r.Scenarios = append(r.Scenarios, protocol.ScenarioInfo{Name: n, Title: sc.Title, Description: sc.Description, Tags: sc.Tags})
		}
	}
	return r
}

func run(id int, raw string) {
	start := time.Now()
	var req protocol.RunRequest
	if err := json.Unmarshal([]byte(raw), &req); err != nil {
		post("error", id, protocol.Error{Message: "bad request: " + err.Error()}, nil)
		return
	}
	doc := []byte(req.Document)
	if req.Name != "" {
		var ok bool
		if doc, ok = scenarios.Read(req.Name); !ok {
			post("error", id, protocol.Error{Message: "no built-in scenario named " + req.Name}, nil)
			return
		}
	}
	sc, err := scenario.Parse(doc)
	if err != nil {
		e := protocol.Error{Message: "the scenario is not valid"}
		var ps schema.Problems
		if errors.As(err, &ps) {
			e.Problems = ps
		}
		post("error", id, e, nil)
		return
	}
	seed := req.Seed
	if seed == 0 {
		seed = sc.RunSeeds()[0]
	}
	ctx, cancel := context.WithCancel(context.Background())
	mu.Lock()
	cancels[id] = cancel
	mu.Unlock()
	defer func() {
		mu.Lock()
		delete(cancels, id)
		mu.Unlock()
		cancel()
	}()
	last := time.Time{}
	rep, err := experiment.Execute(ctx, sc, experiment.Options{Seeds: []uint64{seed}, Progress: func(p experiment.Progress) {
		if time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		post("progress", id, protocol.Progress{Policy: p.Policy, Run: p.Run, Runs: p.Runs, NowS: p.NowS, Finished: p.Finished, Total: p.Total}, nil)
	}})
	if err != nil {
		post("error", id, protocol.Error{Message: err.Error()}, nil)
		return
	}
	figs, err := rep.Figures(seed, plot.Options{Width: req.Width, Height: req.Height})
	if err != nil {
		post("error", id, protocol.Error{Message: "drawing: " + err.Error()}, nil)
		return
	}
	res := protocol.Result{Output: rep.Output(seed)}
	pngs := map[string][]byte{}
	for _, f := range figs {
		if len(req.Figures) > 0 && !contains(req.Figures, f.Name) {
			continue
		}
		b, err := f.Figure.PNG()
		if err != nil {
			post("error", id, protocol.Error{Message: "drawing " + f.Name + ": " + err.Error()}, nil)
			return
		}
		pngs[f.Name] = b
		res.Figures = append(res.Figures, protocol.Figure{Name: f.Name, Title: f.Title})
	}
	res.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	post("result", id, res, pngs)
}

// post sends a message to the page; binary figures go as Uint8Arrays.
func post(typ string, id int, payload any, pngs map[string][]byte) {
	data, err := json.Marshal(payload)
	if err != nil {
		data, _ = json.Marshal(protocol.Error{Message: err.Error()})
		typ = "error"
	}
	msg := js.Global().Get("Object").New()
	msg.Set("type", typ)
	msg.Set("id", id)
	msg.Set("json", string(data))
	if pngs != nil {
		obj := js.Global().Get("Object").New()
		for name, b := range pngs {
			arr := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(arr, b)
			obj.Set(name, arr)
		}
		msg.Set("png", obj)
	}
	js.Global().Call("postMessage", msg)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

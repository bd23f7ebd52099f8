//go:build js && wasm

// Command wasm is the playground's WebAssembly: it hands the page's calls
// to web/playground. Build it with GOOS=js GOARCH=wasm (munda serve and
// go run ./web/build do); the page's worker (web/static/worker.js) runs
// it with Go's wasm_exec.js.
//
// It sets one global function, mundaCall(method, requestJSON), which
// returns the answer's JSON, and then calls mundaReady() if the page
// defined it.
package main

import (
	"syscall/js"

	"github.com/munda-rules/munda/web/playground"
)

func main() {
	p := playground.New()
	call := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return `{"error":{"message":"mundaCall wants (method, requestJSON), both strings"}}`
		}
		return string(p.Call(args[0].String(), []byte(args[1].String())))
	})
	js.Global().Set("mundaCall", call)
	if ready := js.Global().Get("mundaReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the page calls in for as long as it is open
}

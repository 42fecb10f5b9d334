// Package engine is the one entry point of the simulator: Run turns a Request
// (Cargo.toml and main.rs) into a Result. The browser, the sandbox, the CLI
// and the tests all call Run and nothing else.
package engine

// Run simulates the request. It never panics and is deterministic: the same
// Request gives byte-identical JSON.
func Run(req Request) Result {
	return Result{
		Status:      StatusRejected,
		Diagnostics: []Diagnostic{},
		Trace:       []TraceEntry{},
		Engine:      EngineInfo{Version: Version, Burn: BurnCommit},
	}
}

package engine_test

import (
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestProgramArguments: `[package.metadata.playground] args` are what
// `cargo run -- ARGS` passes, after the program's name; without it the
// program gets its name alone, and a value of the wrong type is a config
// error.
func TestProgramArguments(t *testing.T) {
	src := "fn main() {\n    let args: Vec<String> = std::env::args().collect();\n    match args.get(1).map(String::as_str) {\n        Some(\"client\") => println!(\"client {}\", args.len()),\n        _ => println!(\"usage: {}\", args[0]),\n    }\n}\n"
	cargo := "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = \"0.22\"\n"
	for _, c := range []struct{ meta, out string }{
		{"", "usage: target/debug/playground\n"},
		{"\n[package.metadata.playground]\nargs = [\"client\", \"topic\"]\n", "client 3\n"},
	} {
		res := run(t, engine.Request{Config: cargo + c.meta, Snippet: src})
		if res.Status != engine.StatusOK || res.Output != c.out {
			t.Errorf("args %q: status %s output %q:\n%s", c.meta, res.Status, res.Output, Summary(res))
		}
	}
	res := run(t, engine.Request{Config: cargo + "\n[package.metadata.playground]\nargs = \"client\"\n", Snippet: src})
	if res.Status != engine.StatusRejected || len(res.Diagnostics) == 0 || res.Diagnostics[0].File != "Cargo.toml" {
		t.Errorf("args of the wrong type: status %s:\n%s", res.Status, Summary(res))
	}
}

package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestMacros runs programs whose macros expand (engine/expand) and are
// evaluated (engine/interp): what they print, or the first diagnostic, in
// rustc's words, and where it points.
func TestMacros(t *testing.T) {
	const cargo = "[package]\nname = \"m\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = \"0.22\"\nlog = \"0.4\"\ntracing = \"0.1\"\n"
	cases := []struct {
		name, src string
		output    string // for a program that runs clean
		code, msg string // else its first diagnostic
		at        string // and the text it points at
		help      string // and one of its help lines, when set
	}{
		{name: "write into a String", src: `use std::fmt::Write;
fn main() { let mut s = String::new(); write!(s, "a{}", 1).unwrap(); writeln!(&mut s, "b").unwrap(); print!("{}", s); }`,
			output: "a1b\n"},
		{name: "write into something else", src: `fn main() { let n = 1; write!(n, "x"); }`,
			code: "unsupported-syntax", msg: "`write!` into a `i32` is not supported by the playground, which writes into a `String` variable", at: "n"},
		{name: "a macro's items are not hygienic", src: `trait T { fn args(&self) -> i32; fn run(&self, args: i32) -> i32; }
macro_rules! case { ($name:ident) => {
    #[allow(non_snake_case)]
    fn $name() -> i32 { struct $name; impl T for $name { fn args(&self) -> i32 { 2 } fn run(&self, args: i32) -> i32 { args * 10 } } $name.run($name.args()) }
}; }
case!(Twenty);
fn main() { println!("{}", Twenty()); }`,
			output: "20\n"},
		{name: "matches with a guard", src: `fn main() { let v = Some(3); println!("{} {}", matches!(v, Some(x) if x > 2), matches!(v, None)); }`,
			output: "true false\n"},
		{name: "log and tracing print nothing", src: `use log::info;
fn main() { let n = 2; info!("n = {}", n); tracing::warn!(n, twice = %(n * 2), "done"); println!("end"); }`,
			output: "end\n"},
		{name: "log arguments are checked", src: `use log::info;
fn main() { info!("n = {}", nope); }`,
			code: "unknown-variable", msg: "cannot find value `nope` in this scope", at: "nope"},
		{name: "tracing fields are checked", src: `fn main() { tracing::info!(size = %nope, "x"); }`,
			code: "unknown-variable", msg: "cannot find value `nope` in this scope", at: "nope"},
		{name: "dbg inside a macro names the call's line", src: `macro_rules! show { ($e:expr) => { dbg!($e) }; }
fn main() {
    show!(1 + 1);
}`,
			output: "[src/main.rs:3:5] 1 + 1 = 2\n"},
		{name: "assert inside a macro", src: `macro_rules! check { ($a:expr, $b:expr) => { assert!($a == $b, "{} != {}", $a, $b) }; }
fn main() { check!(1, 2); }`,
			code: "assertion-failed", msg: "1 != 2", at: "check!(1, 2)", help: ""},
		{name: "an error in a macro's body points at the call", src: `macro_rules! call_missing { () => { missing_fn() }; }
fn main() { call_missing!(); }`,
			code: "unknown-function", msg: "cannot find function `missing_fn` in this scope", at: "call_missing!()",
			help: "this error originates in the macro `call_missing`"},
		{name: "an error in an argument points at it", src: `macro_rules! twice { ($e:expr) => { $e + $e }; }
fn main() { let x = twice!(missing); }`,
			code: "unknown-variable", msg: "cannot find value `missing` in this scope", at: "missing"},
		{name: "no rule matches", src: `macro_rules! pair { ($a:expr, $b:expr) => { ($a, $b) }; }
fn main() { let p = pair!(1 2); }`,
			code: "macro-no-rule-matches", msg: "no rules expected `2`", at: "2"},
		{name: "env of the package", src: `fn main() { println!("{} {}", env!("CARGO_PKG_NAME"), option_env!("NOT_SET").is_none()); }`,
			output: "m true\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, engine.Request{Config: cargo, Snippet: c.src})
			if c.code == "" {
				if res.Status != engine.StatusOK || res.Output != c.output {
					t.Fatalf("status %s, output %q, want %q\n%s", res.Status, res.Output, c.output, Summary(res))
				}
				return
			}
			for _, d := range res.Diagnostics {
				if d.Severity != "error" {
					continue
				}
				if d.Code != c.code || d.Message != c.msg {
					t.Fatalf("first error %s %q, want %s %q", d.Code, d.Message, c.code, c.msg)
				}
				if got := c.src[d.Span.Start.Offset:d.Span.End.Offset]; got != c.at {
					t.Errorf("points at %q, want %q", got, c.at)
				}
				if c.help != "" && !strings.Contains(strings.Join(d.Help, "\n"), c.help) {
					t.Errorf("help %q lacks %q", d.Help, c.help)
				}
				return
			}
			t.Fatalf("no error, want %s:\n%s", c.code, Summary(res))
		})
	}
}

// TestCfgTestMacro checks that cfg!(test) holds in a test build only.
func TestCfgTestMacro(t *testing.T) {
	src := "fn main() { println!(\"{}\", cfg!(test)); }\n#[test]\nfn in_test() { assert!(cfg!(test)); }\n"
	if res := run(t, engine.Request{Snippet: src}); res.Output != "false\n" {
		t.Errorf("a run printed %q, want false", res.Output)
	}
	res := run(t, engine.Request{Snippet: src, Entry: engine.EntryTests})
	if len(res.Tests) != 1 || res.Tests[0].Status != "ok" {
		t.Errorf("the test did not pass:\n%s", Summary(res))
	}
}

// Package cfg evaluates Rust's conditional-compilation predicates
// (`feature = "x"`, `test`, `unix`, `target_os = "linux"`, `all(..)`,
// `any(..)`, `not(..)`) against what the engine knows of the build: the
// package's own enabled features, whether it is built by `cargo test`, a
// debug build (debug_assertions holds), and the target. The macro expander
// (cfg!, items gated in macro output) and the evaluator (#[cfg] on items,
// statements and match arms) both read cfg through it, so the two agree.
//
// It reads tokens; it knows nothing of Burn.
package cfg

import (
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Build is one build of the program.
type Build struct {
	features map[string]bool
	test     bool
	target   map[string][]string // key -> values: target_os, target_family, ...
	names    map[string]bool     // the value-less names that hold: unix, debug_assertions, ...
}

// HostTarget is the target a program is built for when the configuration
// names none: the playground's simulated machine.
const HostTarget = "x86_64-unknown-linux-gnu"

// targets describes the build targets the playground knows (see
// dispatch.Targets).
var targets = map[string]map[string][]string{
	"x86_64-unknown-linux-gnu":  {"target_os": {"linux"}, "target_family": {"unix"}, "target_arch": {"x86_64"}, "target_env": {"gnu"}, "target_vendor": {"unknown"}, "target_pointer_width": {"64"}},
	"aarch64-unknown-linux-gnu": {"target_os": {"linux"}, "target_family": {"unix"}, "target_arch": {"aarch64"}, "target_env": {"gnu"}, "target_vendor": {"unknown"}, "target_pointer_width": {"64"}},
	"aarch64-apple-darwin":      {"target_os": {"macos"}, "target_family": {"unix"}, "target_arch": {"aarch64"}, "target_env": {""}, "target_vendor": {"apple"}, "target_pointer_width": {"64"}},
	"x86_64-apple-darwin":       {"target_os": {"macos"}, "target_family": {"unix"}, "target_arch": {"x86_64"}, "target_env": {""}, "target_vendor": {"apple"}, "target_pointer_width": {"64"}},
	"x86_64-pc-windows-msvc":    {"target_os": {"windows"}, "target_family": {"windows"}, "target_arch": {"x86_64"}, "target_env": {"msvc"}, "target_vendor": {"pc"}, "target_pointer_width": {"64"}},
	"wasm32-unknown-unknown":    {"target_os": {"unknown"}, "target_family": {"wasm"}, "target_arch": {"wasm32"}, "target_env": {""}, "target_vendor": {"unknown"}, "target_pointer_width": {"32"}},
}

// New describes a build: the package's enabled features, whether it is a
// test build, and the target triple ("" for HostTarget).
func New(features []string, test bool, target string) Build {
	b := Build{features: map[string]bool{}, test: test, names: map[string]bool{"debug_assertions": true, "panic_unwind": true}}
	for _, f := range features {
		b.features[f] = true
	}
	t := targets[target]
	if t == nil {
		t = targets[HostTarget]
	}
	b.target = map[string][]string{"target_endian": {"little"}, "panic": {"unwind"}}
	for k, v := range t {
		b.target[k] = v
	}
	for _, fam := range t["target_family"] {
		if fam == "unix" || fam == "windows" {
			b.names[fam] = true
		}
	}
	return b
}

// Test is the same build made by `cargo test` (test) or `cargo run`.
func (b Build) Test(test bool) Build {
	b.test = test
	return b
}

// Holds evaluates a predicate given as tokens, the inside of `cfg(..)`. A
// name it does not know is false, as rustc has it for an unset cfg.
func (b Build) Holds(toks []syntax.Token) bool {
	p := &parser{toks: toks}
	return p.pred(b)
}

// Compiled tells whether every `#[cfg(..)]` among attrs holds.
func (b Build) Compiled(attrs []*syntax.Attr) bool {
	for _, a := range attrs {
		if a.Path == "cfg" && !a.Eq && len(a.Args) > 0 && !b.Holds(a.Args) {
			return false
		}
	}
	return true
}

// OffEverywhere reports whether a `#[cfg(..)]` among attrs leaves its node
// out of this build whether or not it is built by `cargo test`.
func (b Build) OffEverywhere(attrs []*syntax.Attr) bool {
	return !b.Test(false).Compiled(attrs) && !b.Test(true).Compiled(attrs)
}

type parser struct {
	toks []syntax.Token
	i    int
}

func (p *parser) peek() syntax.Token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return syntax.Token{Kind: syntax.EOF}
}

func isPunct(t syntax.Token, text string) bool { return t.Kind == syntax.Punct && t.Text == text }

func (p *parser) pred(b Build) bool {
	t := p.peek()
	if t.Kind != syntax.Ident && t.Kind != syntax.Keyword {
		p.i++
		return false
	}
	p.i++
	name := t.Text
	switch {
	case isPunct(p.peek(), "("):
		p.i++
		var vals []bool
		for p.i < len(p.toks) && !isPunct(p.peek(), ")") {
			vals = append(vals, p.pred(b))
			if isPunct(p.peek(), ",") {
				p.i++
			}
		}
		p.i++
		switch name {
		case "all":
			for _, v := range vals {
				if !v {
					return false
				}
			}
			return true
		case "any":
			for _, v := range vals {
				if v {
					return true
				}
			}
			return false
		case "not":
			return len(vals) == 1 && !vals[0]
		}
		return false
	case isPunct(p.peek(), "="):
		p.i++
		v := p.peek()
		p.i++
		if v.Kind != syntax.String {
			return false
		}
		if name == "feature" {
			return b.features[v.Value]
		}
		for _, have := range b.target[name] {
			if have == v.Value {
				return true
			}
		}
		return false
	}
	switch name {
	case "test":
		return b.test
	case "true":
		return true
	}
	return b.names[name]
}

package expand

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/syntax"
)

// cfg evaluates configuration predicates (`feature = "x"`, `test`,
// `unix`, `target_os = "linux"`, `all(..)`, `any(..)`, `not(..)`) against
// what the engine knows of the build: the package's enabled features, a
// debug build (debug_assertions holds), the target.
type cfg struct {
	features map[string]bool
	test     bool
	target   map[string][]string // key -> values: target_os, target_family, ...
	names    map[string]bool     // the value-less names that hold: unix, debug_assertions, ...
}

// targets describes the build targets the playground knows (see
// dispatch.Targets); the empty target is the host.
var targets = map[string]map[string][]string{
	"x86_64-unknown-linux-gnu":  {"target_os": {"linux"}, "target_family": {"unix"}, "target_arch": {"x86_64"}, "target_env": {"gnu"}, "target_vendor": {"unknown"}, "target_pointer_width": {"64"}},
	"aarch64-unknown-linux-gnu": {"target_os": {"linux"}, "target_family": {"unix"}, "target_arch": {"aarch64"}, "target_env": {"gnu"}, "target_vendor": {"unknown"}, "target_pointer_width": {"64"}},
	"aarch64-apple-darwin":      {"target_os": {"macos"}, "target_family": {"unix"}, "target_arch": {"aarch64"}, "target_env": {""}, "target_vendor": {"apple"}, "target_pointer_width": {"64"}},
	"x86_64-apple-darwin":       {"target_os": {"macos"}, "target_family": {"unix"}, "target_arch": {"x86_64"}, "target_env": {""}, "target_vendor": {"apple"}, "target_pointer_width": {"64"}},
	"x86_64-pc-windows-msvc":    {"target_os": {"windows"}, "target_family": {"windows"}, "target_arch": {"x86_64"}, "target_env": {"msvc"}, "target_vendor": {"pc"}, "target_pointer_width": {"64"}},
	"wasm32-unknown-unknown":    {"target_os": {"unknown"}, "target_family": {"wasm"}, "target_arch": {"wasm32"}, "target_env": {""}, "target_vendor": {"unknown"}, "target_pointer_width": {"32"}},
}

func newCfg(o Options) cfg {
	c := cfg{features: map[string]bool{}, test: o.Test, names: map[string]bool{"debug_assertions": true, "panic_unwind": true}}
	for _, f := range o.Package.Features {
		c.features[f] = true
	}
	t := targets[o.Target]
	if t == nil {
		t = targets["x86_64-unknown-linux-gnu"]
	}
	c.target = map[string][]string{"target_endian": {"little"}, "panic": {"unwind"}}
	for k, v := range t {
		c.target[k] = v
	}
	for _, fam := range t["target_family"] {
		if fam == "unix" || fam == "windows" {
			c.names[fam] = true
		}
	}
	return c
}

// eval evaluates a predicate given as tokens. A name it does not know is
// false, as rustc has it for an unset cfg.
func (c cfg) eval(toks []syntax.Token) bool {
	p := &cfgParser{toks: toks}
	v := p.pred(c)
	return v
}

// off reports whether a `#[cfg(..)]` among attrs leaves its node out, in
// a run and in a test run alike.
func (c cfg) off(attrs []*syntax.Attr) bool {
	for _, a := range attrs {
		if a.Path != "cfg" || len(a.Args) == 0 {
			continue
		}
		t := c
		t.test = false
		if !t.eval(a.Args) {
			t.test = true
			if !t.eval(a.Args) {
				return true
			}
		}
	}
	return false
}

type cfgParser struct {
	toks []syntax.Token
	i    int
}

func (p *cfgParser) peek() syntax.Token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return syntax.Token{Kind: syntax.EOF}
}

func (p *cfgParser) pred(c cfg) bool {
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
			vals = append(vals, p.pred(c))
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
			return c.features[v.Value]
		}
		for _, have := range c.target[name] {
			if have == v.Value {
				return true
			}
		}
		return false
	}
	switch name {
	case "test":
		return c.test
	case "true":
		return true
	}
	return c.names[name] && !strings.HasPrefix(name, "feature")
}

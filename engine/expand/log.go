package expand

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/syntax"
)

// The log and tracing macros. Expansion resolves them (a path through the
// crate, a `use` of them, a glob import, #[macro_use] extern crate) and
// separates their parts: the level, target, parent and span name are
// dropped, the field values go to Fields and the format string and its
// arguments to Args. The evaluator then checks those as format! does and,
// as without a logger or subscriber installed, prints nothing.

var logMacros = map[string]bool{
	"trace": true, "debug": true, "info": true, "warn": true, "error": true, "log": true, "log_enabled": true,
}

var tracingMacros = map[string]bool{
	"trace": true, "debug": true, "info": true, "warn": true, "error": true, "event": true, "span": true,
	"trace_span": true, "debug_span": true, "info_span": true, "warn_span": true, "error_span": true,
	"enabled": true, "event_enabled": true, "span_enabled": true,
}

// logCrate tells whether a call is one of log's or tracing's macros: whose,
// and its name there (a `use` may rename it).
func (x *expander) logCrate(m *syntax.MacroExpr) (crate, name string, ok bool) {
	of := func(crate, name string) bool {
		return crate == "log" && logMacros[name] || crate == "tracing" && tracingMacros[name]
	}
	switch len(m.Path) {
	case 2:
		return m.Path[0], m.Name, of(m.Path[0], m.Name)
	case 0, 1:
	default:
		return "", "", false
	}
	if p, ok := x.imports[m.Name]; ok {
		crate, name, _ := strings.Cut(p, "::")
		return crate, name, of(crate, name)
	}
	for _, crate := range []string{"log", "tracing"} {
		if _, ok := x.imports["*"+crate+"::*"]; ok && of(crate, m.Name) {
			return crate, m.Name, true
		}
	}
	return "", "", false
}

func (x *expander) logMacro(m *syntax.MacroExpr, crate, name string) syntax.Expr {
	out := &syntax.MacroExpr{Range: m.Range, Name: name, NameSpan: m.NameSpan, Delim: m.Delim,
		Path: []string{crate, name}, Close: m.Close}
	if strings.HasSuffix(name, "enabled") {
		// No logger or subscriber is installed: nothing is enabled.
		return &syntax.LitExpr{Range: m.Range, Kind: syntax.BoolLit, Text: "false", Value: "false"}
	}
	toks := m.Tokens
	var message []syntax.Token
	hasMessage := false
	if crate == "log" {
		// log 0.4's key-values come before a `;`.
		if parts := splitArgs(toks, ";"); len(parts) == 2 {
			toks, message, hasMessage = parts[0], parts[1], true
		}
	}
	parts := splitArgs(toks, ",")
	parts = x.logPrefixes(parts, out)
	span := name == "span" || strings.HasSuffix(name, "_span")
	if name == "log" || name == "event" || name == "span" {
		parts = dropFirst(parts) // the level
	}
	if span {
		parts = dropFirst(parts) // the span's name
	}
	for i, part := range parts {
		if !hasMessage && !span && len(part) > 0 && part[0].Kind == syntax.String && !(len(part) > 1 && isPunct(part[1], "=")) {
			for _, p := range parts[i:] {
				out.Args = append(out.Args, x.argExpr(p, m))
			}
			break
		}
		if crate == "log" && !hasMessage {
			// log's arguments are all the format's.
			out.Args = append(out.Args, x.argExpr(part, m))
			continue
		}
		if v := x.fieldValue(part, m); v != nil {
			out.Fields = append(out.Fields, v)
		}
	}
	if hasMessage {
		for _, p := range splitArgs(message, ",") {
			out.Args = append(out.Args, x.argExpr(p, m))
		}
	}
	return out
}

func dropFirst(parts [][]syntax.Token) [][]syntax.Token {
	if len(parts) == 0 {
		return parts
	}
	return parts[1:]
}

// logPrefixes drops the `target: ..`, `name: ..` and `parent: ..` parts
// that open a call; a parent is evaluated as a field.
func (x *expander) logPrefixes(parts [][]syntax.Token, out *syntax.MacroExpr) [][]syntax.Token {
	for len(parts) > 0 {
		p := parts[0]
		if len(p) < 3 || p[0].Kind != syntax.Ident || !isPunct(p[1], ":") {
			return parts
		}
		switch p[0].Text {
		case "target", "name":
		case "parent":
			out.Fields = append(out.Fields, x.argExpr(p[2:], out))
		default:
			return parts
		}
		parts = parts[1:]
	}
	return parts
}

// fieldValue is the value expression of a tracing field (`key = value`,
// `key = %value`, `?value`, `%value`, a shorthand `name`) or a log
// key-value (`key = value`, `key:? = value`, `key`).
func (x *expander) fieldValue(part []syntax.Token, m *syntax.MacroExpr) syntax.Expr {
	if len(part) == 0 {
		return nil
	}
	sigil := func(toks []syntax.Token) []syntax.Token {
		if len(toks) > 1 && (isPunct(toks[0], "%") || isPunct(toks[0], "?")) {
			return toks[1:]
		}
		return toks
	}
	for i, t := range part {
		if isOpen(t) {
			break
		}
		if isPunct(t, "=") && i > 0 {
			return x.argExpr(sigil(part[i+1:]), m)
		}
	}
	return x.argExpr(sigil(part), m)
}

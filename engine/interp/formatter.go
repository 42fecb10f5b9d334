package interp

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// formatter is the `&mut fmt::Formatter` a program's `fn fmt` receives:
// the text written into it, and whether the placeholder asked for the
// alternate form (`{:#?}`), which the debug builders follow.
type formatter struct {
	out       strings.Builder
	alternate bool
}

func (*formatter) TypeName() string { return "&mut Formatter<'_>" }

// debugBuilder is the DebugStruct, DebugTuple, DebugList, DebugSet or
// DebugMap a formatter's debug_* method returns: the entries written so
// far, printed by finish as the derived Debug prints them.
type debugBuilder struct {
	f     *formatter
	kind  string // "DebugStruct", "DebugTuple", "DebugList", "DebugSet", "DebugMap"
	name  string
	names []string // DebugStruct's field names, DebugMap's keys
	vals  []string
	key   string // a DebugMap key given by `key` before its `value`
}

func (b *debugBuilder) TypeName() string { return b.kind + "<'_, '_>" }

var fmtOk = &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []value{dispatch.Unit{}}}

// formatterMethod is a method of core::fmt::Formatter.
func (in *interp) formatterMethod(e *syntax.MethodCallExpr, f *formatter, args []value) (value, bool, *signal) {
	str := func(i int) (string, bool) {
		if i >= len(args) {
			return "", false
		}
		s, ok := dispatch.Deref(args[i]).(dispatch.Str)
		return string(s), ok
	}
	switch e.Name {
	case "write_str", "pad", "write_fmt":
		// write_fmt's fmt::Arguments is format_args!'s text.
		if s, ok := str(0); ok {
			return fmtOk, true, in.writeInto(f, s, e)
		}
	case "write_char":
		if len(args) == 1 {
			return fmtOk, true, in.writeInto(f, rstd.Display(args[0]), e)
		}
	case "alternate":
		return dispatch.Bool(f.alternate), true, nil
	case "width", "precision":
		return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
	case "sign_plus", "sign_minus", "sign_aware_zero_pad":
		return dispatch.Bool(false), true, nil
	case "fill":
		return rstd.Char(' '), true, nil
	case "debug_struct", "debug_tuple":
		if s, ok := str(0); ok {
			kind := "DebugStruct"
			if e.Name == "debug_tuple" {
				kind = "DebugTuple"
			}
			return &debugBuilder{f: f, kind: kind, name: s}, true, nil
		}
	case "debug_list":
		return &debugBuilder{f: f, kind: "DebugList"}, true, nil
	case "debug_set":
		return &debugBuilder{f: f, kind: "DebugSet"}, true, nil
	case "debug_map":
		return &debugBuilder{f: f, kind: "DebugMap"}, true, nil
	}
	return nil, false, nil
}

// debugBuilderMethod is a method of the builders of core::fmt::builders.
func (in *interp) debugBuilderMethod(e *syntax.MethodCallExpr, b *debugBuilder, args []value) (value, bool, *signal) {
	show := func(v value) string { return in.debugText(v, b.f.alternate, 0) }
	switch {
	case e.Name == "field" && b.kind == "DebugStruct" && len(args) == 2:
		name, ok := dispatch.Deref(args[0]).(dispatch.Str)
		if !ok {
			return nil, false, nil
		}
		b.names, b.vals = append(b.names, string(name)), append(b.vals, show(args[1]))
		return b, true, nil
	case e.Name == "field" && b.kind == "DebugTuple" && len(args) == 1,
		e.Name == "entry" && (b.kind == "DebugList" || b.kind == "DebugSet") && len(args) == 1:
		b.vals = append(b.vals, show(args[0]))
		return b, true, nil
	case e.Name == "entry" && b.kind == "DebugMap" && len(args) == 2:
		b.names, b.vals = append(b.names, show(args[0])), append(b.vals, show(args[1]))
		return b, true, nil
	case e.Name == "key" && b.kind == "DebugMap" && len(args) == 1:
		b.key = show(args[0])
		return b, true, nil
	case e.Name == "value" && b.kind == "DebugMap" && len(args) == 1:
		b.names, b.vals, b.key = append(b.names, b.key), append(b.vals, show(args[0])), ""
		return b, true, nil
	case e.Name == "entries" && b.kind != "DebugStruct" && b.kind != "DebugTuple" && len(args) == 1:
		it, ok := rstd.IntoIter(&stdCaller{in: in, r: e.Range}, args[0])
		if !ok {
			return nil, false, nil
		}
		defer it.Close()
		for {
			v, more, err := it.Next()
			if err != nil {
				_, sig := in.stdResult(nil, err, e.Range, e.NameSpan)
				return unknown, true, sig
			}
			if !more {
				return b, true, nil
			}
			if pair, isPair := dispatch.Deref(v).(dispatch.Tuple); b.kind == "DebugMap" && isPair && len(pair) == 2 {
				b.names, b.vals = append(b.names, show(pair[0])), append(b.vals, show(pair[1]))
				continue
			}
			b.vals = append(b.vals, show(v))
		}
	case (e.Name == "finish" || e.Name == "finish_non_exhaustive") && len(args) == 0:
		return fmtOk, true, in.writeInto(b.f, b.text(e.Name == "finish_non_exhaustive"), e)
	}
	return nil, false, nil
}

// text is what finish writes: the derived Debug's form of the entries.
func (b *debugBuilder) text(nonExhaustive bool) string {
	pretty := b.f.alternate
	parts := b.vals
	if b.kind == "DebugStruct" || b.kind == "DebugMap" {
		parts = make([]string, len(b.vals))
		for i := range b.vals {
			parts[i] = b.names[i] + ": " + b.vals[i]
		}
	}
	if nonExhaustive {
		parts = append(parts, "..")
	}
	open, close := "", ""
	switch b.kind {
	case "DebugStruct":
		if len(parts) == 0 {
			return b.name
		}
		open, close = b.name+" {", "}"
		if !pretty {
			open, close = b.name+" { ", " }"
		}
	case "DebugTuple":
		return debugTuple(b.name, parts, pretty)
	case "DebugList":
		open, close = "[", "]"
	default:
		open, close = "{", "}"
	}
	if len(parts) == 0 {
		return strings.TrimSpace(open) + strings.TrimSpace(close)
	}
	if pretty {
		return strings.TrimSpace(open) + "\n" + prettyLines(parts) + strings.TrimSpace(close)
	}
	return open + strings.Join(parts, ", ") + close
}

// writeInto appends s to what f holds, within the output budget.
func (in *interp) writeInto(f *formatter, s string, e *syntax.MethodCallExpr) *signal {
	if fits, sig := in.buildText(f.out.Len()+len(s), e.Range); !fits || sig != nil {
		return sig
	}
	f.out.WriteString(s)
	return nil
}

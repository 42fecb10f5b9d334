package interp

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// stdMethod runs a method of Rust's standard library (engine/rstd) on a
// value the interpreter owns: numbers, strings, collections, ranges,
// iterators, Option and Result. handled is false when the receiver is not
// one of those, or std has no such method (it may be Burn's).
func (in *interp) stdMethod(e *syntax.MethodCallExpr, recv value, args []value, expect string) (v value, handled bool, sig *signal) {
	switch x := dispatch.Deref(recv).(type) {
	case *closure, *fnValue:
		if e.Name == "clone" {
			return x, true, nil
		}
		return nil, false, nil
	case *formatter:
		return in.formatterMethod(e, x, args)
	case *debugBuilder:
		return in.debugBuilderMethod(e, x, args)
	case *dispatch.Enum:
		if v, handled, sig := in.burnUnwrap(e, x, args); handled {
			return v, true, sig
		}
		if it, ok := in.userIter(x, e.Range); ok && rstd.IsIterMethod(e.Name) {
			recv = it
		}
	}
	if f, isFmt := fmtArg(args); e.Name == "fmt" && isFmt && rstd.Owns(recv) {
		// `self.0.fmt(f)` in a program's own fmt: std's Display of the
		// value, or its Debug when it has no Display.
		text, ok := rstd.DisplayOK(recv)
		if !ok {
			text = in.debugText(recv, f.alternate, 0)
		}
		return fmtOk, true, in.writeInto(f, text, e)
	}
	if !rstd.Owns(recv) {
		return nil, false, nil
	}
	call := rstd.Call{Recv: recv, Name: e.Name, Args: args, Expect: expect}
	if len(e.Generics) > 0 {
		call.Generics = in.genericTexts(e.Generics)
	}
	if rstd.MutatesRecv(e.Name) && isPlace(e.Recv) {
		call.SetRecv = func(v value) { in.store(e.Recv, v) }
	}
	v, handled, err := rstd.Method(&stdCaller{in: in, r: e.Range}, call)
	if !handled {
		for _, a := range args {
			if isUnknown(a) {
				// A check with an unknown argument: std cannot tell.
				return unknown, true, nil
			}
		}
		if en, ok := dispatch.Deref(recv).(*dispatch.Enum); ok && (en.Type == "Option" || en.Type == "Result") {
			in.report(diag.Diagnostic{Code: "unknown-method", Severity: diag.Error,
				Message: fmt.Sprintf("no method named `%s` found for enum `%s` in the current scope", e.Name, en.Type),
				File:    diag.MainRS, Range: e.NameSpan})
			return unknown, true, nil
		}
		return nil, false, nil
	}
	v, sig = in.stdResult(v, err, e.Range, e.NameSpan)
	return v, true, sig
}

// burnUnwrap is unwrap or expect on an Err that Burn's API returned: the
// panic is the program's, at its unwrap, but it stands for Burn's row.
func (in *interp) burnUnwrap(e *syntax.MethodCallExpr, x *dispatch.Enum, args []value) (value, bool, *signal) {
	if x.Type != "Result" || x.Variant != "Err" || len(x.Fields) != 1 || (e.Name != "unwrap" && e.Name != "expect") {
		return nil, false, nil
	}
	err, ok := dispatch.Deref(x.Fields[0]).(*dispatch.Enum)
	if !ok || err.ErrorRow == "" {
		return nil, false, nil
	}
	msg := ""
	if len(args) == 1 {
		msg = display(args[0])
	}
	p := dispatch.Panic{ID: err.ErrorRow, Message: rstd.UnwrapMessage(x, e.Name, msg), Location: in.callerLocation(e.NameSpan), Input: -1}
	v, sig := in.raise(&p, e.Range, nil, "", false)
	return v, true, sig
}

func intArg(args []value, i int) (int64, bool) {
	if i >= len(args) {
		return 0, false
	}
	return asInt(args[i])
}

// fmtArg is the formatter among a call's arguments: `x.fmt(f)`.
func fmtArg(args []value) (*formatter, bool) {
	if len(args) != 1 {
		return nil, false
	}
	f, ok := dispatch.Deref(args[0]).(*formatter)
	return f, ok
}

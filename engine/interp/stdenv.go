package interp

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// The program's environment: what `std::env` and `std::process` give a
// program run by the playground. The environment is the one the request's
// Cargo.toml declares (`[package.metadata.playground] env`); the rest of
// the outside world (files, the network, other processes, the clock) is
// not there, and a call that needs it says so by name.

// CodeOutsideWorld is the warning of a call that needs what a program
// run by the playground does not have.
const CodeOutsideWorld = "playground-outside-world"

// programName is argv[0] of a program `cargo run` starts.
const programName = "target/debug/playground"

// outsideWorld names the std functions that need what the playground does
// not have, with what they need.
var outsideWorld = map[string]string{
	"std::fs":                   "the file system",
	"std::net":                  "the network",
	"std::process::Command":     "other processes",
	"std::time::Instant":        "the clock",
	"std::time::SystemTime":     "the clock",
	"std::env::current_dir":     "the file system",
	"std::env::set_current_dir": "the file system",
	"std::env::temp_dir":        "the file system",
	"std::io::stdin":            "standard input",
}

// stdFunction calls a free function or associated function of std that the
// playground models; handled is false for any other path.
func (in *interp) stdFunction(path []string, args []value, e *syntax.CallExpr) (v value, handled bool, sig *signal) {
	hasFunctions := rstd.HasFunctions(path)
	if len(path) >= 2 && path[0] == "num_traits" && path[len(path)-1] == "cast" {
		return in.numCast(args, e), true, nil
	}
	if len(path) < 2 || path[0] != "std" && !hasFunctions {
		// Burn's calls, the common case, build no string here.
		return nil, false, nil
	}
	full := strings.Join(path, "::")
	switch full {
	case "std::env::var":
		if len(args) != 1 {
			return in.stdArity(1, len(args), e), true, nil
		}
		name, ok := dispatch.Deref(args[0]).(dispatch.Str)
		if !ok {
			return unknown, true, nil
		}
		if val, set := in.opts.Config.Env[string(name)]; set {
			return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []value{dispatch.Str(val)}}, true, nil
		}
		return &dispatch.Enum{Type: "Result", Variant: "Err", Fields: []value{&dispatch.Enum{Type: "VarError", Variant: "NotPresent"}}}, true, nil
	case "std::env::var_os":
		if len(args) != 1 {
			return in.stdArity(1, len(args), e), true, nil
		}
		name, ok := dispatch.Deref(args[0]).(dispatch.Str)
		if !ok {
			return unknown, true, nil
		}
		if val, set := in.opts.Config.Env[string(name)]; set {
			return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []value{dispatch.Str(val)}}, true, nil
		}
		return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
	case "std::env::vars":
		names := make([]string, 0, len(in.opts.Config.Env))
		for k := range in.opts.Config.Env {
			names = append(names, k)
		}
		sort.Strings(names)
		out := &dispatch.Array{Vec: true}
		for _, k := range names {
			out.Elems = append(out.Elems, dispatch.Tuple{dispatch.Str(k), dispatch.Str(in.opts.Config.Env[k])})
		}
		return out, true, nil
	case "std::env::args":
		// An iterator, as std::env::Args is: `args().nth(1)`, `collect()`.
		argv := &dispatch.Array{Vec: true, Elems: []value{dispatch.Str(programName)}}
		for _, a := range in.opts.Config.Args {
			argv.Elems = append(argv.Elems, dispatch.Str(a))
		}
		it, _ := rstd.IntoIter(&stdCaller{in: in, r: e.Range}, argv)
		it.Kind = "Args"
		return it, true, nil
	case "std::process::exit":
		if in.opts.Mode == Check {
			// The check goes on, so that what follows is compiled as
			// rustc compiles it; but where the exit surely runs, nothing
			// after it runs either, and it raises no panic (as in a
			// function nobody calls).
			if in.guessing == 0 {
				in.uncalled = true
			}
			return unknown, true, nil
		}
		// The run ends here, as the process does; its output so far stands
		// (a Result has no exit code to carry the argument).
		return nil, true, stop
	}
	if len(path) >= 2 && path[len(path)-2] == "mem" {
		if v, handled, sig := in.memFunction(path[len(path)-1], args, e); handled {
			return v, true, sig
		}
	}
	if hasFunctions {
		v, handled, err := rstd.Function(&stdCaller{in: in, r: e.Range}, path, args)
		if handled {
			v, sig := in.stdResult(v, err, e.Range, e.Range)
			return v, true, sig
		}
	}
	if full == "std::any::TypeId::of" || full == "std::any::type_name" {
		return in.typeIdentity(full, e), true, nil
	}
	if full == "std::thread::sleep" {
		// Sleeping changes only when things happen, which a program
		// without a clock cannot observe.
		return dispatch.Unit{}, true, nil
	}
	for prefix, what := range outsideWorld {
		if full == prefix || strings.HasPrefix(full, prefix+"::") {
			// A boundary, not an error of the program: what it returns is
			// unknown, and what is computed from it is not checked.
			in.boundary(CodeOutsideWorld, e.Range, fmt.Sprintf("`%s` needs %s, which a program run by the playground does not have", full, what))
			return unknown, true, nil
		}
	}
	return nil, false, nil
}

func (in *interp) stdArity(want, got int, e *syntax.CallExpr) value {
	in.report(diag.Diagnostic{Code: "wrong-arguments", Severity: diag.Error, File: diag.MainRS, Range: e.Range,
		Message: fmt.Sprintf("this function takes %d %s but %d %s supplied", want, plural(want, "argument"), got, wasWere(got))})
	return unknown
}

// typeIdentity is `TypeId::of::<T>()` or `type_name::<T>()`: T's identity,
// with the program's type aliases followed (`TypeId::of::<FloatElem>()`
// is f32's when `type FloatElem = f32;`). A TypeId compares equal to
// another of the same type only.
func (in *interp) typeIdentity(full string, e *syntax.CallExpr) value {
	generics := in.callTurbofish(e)
	if len(generics) != 1 || len(e.Args) != 0 {
		return unknown
	}
	t := strings.ReplaceAll(generics[0], " ", "")
	// Burn's re-exports of the half-precision types are the half crate's.
	for _, prefix := range []string{"burn_tensor::", "burn::tensor::", "burn::", "half::"} {
		t = strings.TrimPrefix(t, prefix)
	}
	if full == "std::any::type_name" {
		switch t {
		case "f16":
			return dispatch.Str("half::binary16::f16")
		case "bf16":
			return dispatch.Str("half::bfloat::bf16")
		}
		return dispatch.Str(t)
	}
	return &dispatch.Enum{Type: "TypeId", Variant: "TypeId", Named: map[string]value{"t": dispatch.Str(t)}}
}

// callTurbofish is the type arguments of a path call's last segment
// (`cast::<f64, i32>(x)`), nil without any.
func (in *interp) callTurbofish(e *syntax.CallExpr) []string {
	p, ok := e.Fun.(*syntax.PathExpr)
	if !ok || len(p.Segments) == 0 {
		return nil
	}
	return in.genericTexts(p.Segments[len(p.Segments)-1].Generics)
}

// numCast is num_traits' `cast::<T, U>(n)`: Some(n as U) when U holds
// it, None otherwise. Without a turbofish, U is what the context makes of
// the number: it comes back unsuffixed, for the declared type to type.
func (in *interp) numCast(args []value, e *syntax.CallExpr) value {
	if len(args) != 1 {
		return in.stdArity(1, len(args), e)
	}
	v := dispatch.Deref(args[0])
	target := ""
	if g := in.callTurbofish(e); len(g) == 2 {
		target = strings.TrimSpace(g[1])
	}
	some := func(x value) value { return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []value{x}} }
	if target == "" {
		switch x := v.(type) {
		case dispatch.Float:
			x.Suffix = ""
			return some(x)
		case dispatch.Int:
			x.Suffix = ""
			return some(x)
		}
		return unknown
	}
	if f, isFloat := v.(dispatch.Float); isFloat && rstd.IsIntType(target) {
		if math.IsNaN(f.V) || math.IsInf(f.V, 0) {
			return &dispatch.Enum{Type: "Option", Variant: "None"}
		}
		f.V = math.Trunc(f.V)
		v = f
	}
	out, ok := rstd.Cast(v, target)
	if !ok {
		return unknown
	}
	if back, ok := rstd.Cast(out, v.TypeName()); ok && rstd.IsIntType(target) {
		if eq, known := rstd.Equal(back, v); known && !eq {
			// Out of the target's range: `as` would wrap, cast says None.
			return &dispatch.Enum{Type: "Option", Variant: "None"}
		}
	}
	return some(out)
}

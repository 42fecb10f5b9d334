package interp

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/source"
)

// Formatting is std's (engine/rstd/format.go); the interpreter adds its
// own values (closures, functions) and the program's own Display and Debug impls.

// display formats v as Rust's `{}` would.
func display(v value) string {
	s, _ := rstd.DisplayOK(v)
	return s
}

// hasDisplay reports whether Rust implements Display for v's type.
func hasDisplay(v value) bool {
	_, ok := rstd.DisplayOK(v)
	return ok
}

// debug formats v as Rust's `{:?}` would.
func debug(v value) string {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Unknown:
		return "_"
	case *closure:
		return "{closure}"
	case *fnValue:
		return x.TypeName()
	case shown:
		return string(x)
	}
	return rstd.Debug(v)
}

// fmtSpec is one `{...}` placeholder, as the checks of format arguments
// read it.
type fmtSpec struct {
	arg       string // "" (next), a position, or a name
	debug     bool
	pretty    bool
	precision int // -1 if unset
}

func specOf(s rstd.Spec) fmtSpec {
	return fmtSpec{arg: s.Arg, debug: s.Debug(), pretty: s.Alt && s.Debug(), precision: s.Precision}
}

// formatError is a malformed format string; Rust rejects it at compile
// time.
type formatError struct{ msg string }

func parseSpec(s string) (fmtSpec, *formatError) {
	spec, err := rstd.ParseSpec(s)
	if err != nil {
		return fmtSpec{}, &formatError{err.Msg}
	}
	return specOf(spec), nil
}

// formatArgs formats like Rust's format!, with named arguments and the
// variables in scope, through the program's own Display and Debug impls.
func (in *interp) formatArgs(format string, args []value, named map[string]value) (string, *formatError) {
	lookup := func(name string) (value, bool) {
		if b := in.scope.lookup(name); b != nil {
			return b.v, true
		}
		// An inline argument names any value in scope, a const or static
		// item too (`{MAX_LEN}`).
		if r, ok := in.lookupIn(in.mod, name, 0); ok && r.item.konst != nil && len(r.rest) == 0 {
			if v, sig := in.constValue(r.item.konst, source.Range{}); sig == nil {
				return v, true
			}
		}
		return nil, false
	}
	var user func(rstd.Spec, value) (value, bool)
	user = func(spec rstd.Spec, v value) (value, bool) {
		if spec.Debug() && !in.hasUser(v, 0) {
			return nil, false // std's own Debug, one line or pretty
		}
		u, ok := in.userSpec(specOf(spec), v)
		if s, isShown := u.(shown); ok && isShown {
			return rstd.Text(s), true
		}
		return u, ok
	}
	s, err := rstd.Format(format, args, named, lookup, user)
	if err != nil {
		return "", &formatError{err.Msg}
	}
	return s, nil
}

package dispatch

import "fmt"

// Feature gates. Burn's public API (burn-tensor) and its dispatch enum
// (burn-dispatch) are gated separately, and not always by the same
// feature (spec §1.1, "Feature-gating quirk"): the model asks burn-tensor's
// features whether a function exists and burn-dispatch's whether a
// backend variant is compiled in.

func (w *World) apiFeature(feature string) bool { return w.cfg.Enabled("burn-tensor", feature) }

func (w *World) dispatchFeature(feature string) bool {
	return w.cfg.Enabled("burn-dispatch", feature)
}

// defaultBackend is burn-dispatch's cfg(default_backend): no backend
// feature at all (crates/burn-dispatch/build.rs:1-22).
func (w *World) defaultBackend() bool {
	for _, f := range backendDispatchFeatures {
		if w.dispatchFeature(f) {
			return false
		}
	}
	return true
}

// compiled reports whether DispatchDevice has the variant.
func (w *World) compiled(b Backend) bool {
	if b == Flex {
		return w.dispatchFeature("flex") || w.defaultBackend()
	}
	return w.dispatchFeature(b.Feature())
}

// autodiffCompiled reports burn-dispatch's autodiff feature: without it
// the AutodiffBackend impl is a placeholder of unimplemented!s.
func (w *World) autodiffCompiled() bool { return w.dispatchFeature("autodiff") }

// Usage errors: what rustc says about a call Burn's API does not have.

func errUnknownMethod(typeName, method string) *UsageError {
	return &UsageError{Code: "unknown-method", Arg: -1,
		Message: fmt.Sprintf("no method named `%s` found for %s in the current scope", method, typeName)}
}

func errUnknownFunction(typeName, name string) *UsageError {
	return &UsageError{Code: "unknown-function", Arg: -1,
		Message: fmt.Sprintf("no function or associated item named `%s` found for %s in the current scope", name, typeName)}
}

// errGatedMethod is a method that exists only with a burn feature.
func errGatedMethod(typeName, method, feature string) *UsageError {
	e := errUnknownMethod(typeName, method)
	e.Code, e.Feature = "feature-not-enabled", feature
	e.Help = []string{fmt.Sprintf("`%s` is only compiled with the `%s` feature of burn", method, feature)}
	e.Fixes = []FixHint{{Title: fmt.Sprintf("Enable the `%s` feature of burn", feature), Arg: NoArg, AddFeature: feature}}
	return e
}

// errGatedFunction is an associated function that exists only with a
// burn feature.
func errGatedFunction(typeName, name, feature string) *UsageError {
	e := errUnknownFunction(typeName, name)
	e.Code, e.Feature = "feature-not-enabled", feature
	e.Help = []string{fmt.Sprintf("`%s` is only compiled with the `%s` feature of burn", name, feature)}
	e.Fixes = []FixHint{{Title: fmt.Sprintf("Enable the `%s` feature of burn", feature), Arg: NoArg, AddFeature: feature}}
	return e
}

// errGatedPath is a module or item of a module that a feature compiles in
// (rustc E0433).
func errGatedPath(path, missing, parent, feature string) *UsageError {
	e := &UsageError{Code: "feature-not-enabled", Arg: -1, Feature: feature,
		Message: fmt.Sprintf("failed to resolve: could not find `%s` in `%s`", missing, parent)}
	e.Help = []string{fmt.Sprintf("`%s` is only compiled with the `%s` feature of burn", path, feature)}
	e.Fixes = []FixHint{{Title: fmt.Sprintf("Enable the `%s` feature of burn", feature), Arg: NoArg, AddFeature: feature}}
	return e
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// errArgCount is rustc's E0061.
func errArgCount(isMethod bool, want, got int) *UsageError {
	what := "function"
	if isMethod {
		what = "method"
	}
	verb := "was"
	if got != 1 {
		verb = "were"
	}
	return &UsageError{Code: "wrong-arguments", Arg: -1,
		Message: fmt.Sprintf("this %s takes %s but %s %s supplied", what, plural(want, "argument"), plural(got, "argument"), verb)}
}

// errArgType is rustc's E0308 for argument i (0 = receiver).
func errArgType(arg int, want string, got Value) *UsageError {
	return &UsageError{Code: "wrong-arguments", Arg: arg,
		Message: fmt.Sprintf("mismatched types: expected `%s`, found `%s`", want, Deref(got).TypeName())}
}

// errUnsupported is Burn API the playground does not model.
func errUnsupported(what string) *UsageError {
	return &UsageError{Code: "unsupported-api", Arg: -1,
		Message: fmt.Sprintf("`%s` is part of Burn's API but the playground does not model it", what)}
}

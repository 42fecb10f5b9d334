package dispatch

import "fmt"

// The program's own impl of an extension op, run where the playground
// can: a concrete route to a cubecl backend calls `<Sel as Trait>::op` on
// the backend type burn::backend::<Sel> is, `CubeBackend<R>` or, with
// burn-wgpu's (burn-cuda's, ...) `fusion` feature, `Fusion<CubeBackend<R>>`
// (crates/burn-wgpu/src/lib.rs:34-38). Its inputs are CubeTensors; what it
// returns is the op's output. Every other route keeps the model of the
// op's signature (extensionCall.output).

// ImplRoute is the backend type a concrete route calls the op on.
type ImplRoute struct {
	Selector string
	Backend  Backend
	// Fusion is set when the selector's type is Fusion<CubeBackend<R>>.
	Fusion bool
	// Autodiff is set for the autodiff route, Autodiff<Sel, C>: the
	// ExtensionImpl then only tells whether the program's impl for
	// Autodiff<B, C> has its own body (a custom backward), which the
	// playground does not run.
	Autodiff bool
}

// Type is the backend type as the program writes it.
func (r ImplRoute) Type() string {
	t := "CubeBackend<" + runtimeName(r.Backend) + ">"
	if r.Fusion {
		t = "Fusion<" + t + ">"
	}
	return t
}

// ExtensionImpl is set on an ExtensionOp by the interpreter: the call of
// the program's impl for the route, as a Callback whose arguments are the
// op's inputs (CubeTensors for tensor parameters), or ok false when the
// program has no impl the playground runs there. Its Done gets what the
// impl returned, as the impl returned it.
type ExtensionImpl func(route ImplRoute, inputs []Value) (cb *Callback, ok bool)

// CubeFusion reports whether burn::backend::<b> is Fusion<CubeBackend<R>>
// in this build: the backend crate's `fusion` feature, which
// burn-dispatch's `fusion` turns on, and so does its `default` through
// the backend crate's defaults (crates/burn-dispatch/Cargo.toml:21-31, 91-97;
// crates/burn-wgpu/Cargo.toml:18, and burn-cuda's, burn-rocm's, burn-cpu's).
func (w *World) CubeFusion(b Backend) bool {
	return b.isCube() && (w.cfg.Enabled("burn-dispatch", "fusion") || w.cfg.Enabled("burn-dispatch", "default"))
}

// IsCube reports a backend built on cubecl.
func (b Backend) IsCube() bool { return b.isCube() }

// runImpl is the concrete route's call of the program's impl, when the
// route is to a cubecl backend and the program has one the playground
// runs; ok is false otherwise.
func (x *extensionCall) runImpl() (Value, bool) {
	op := x.op
	if op.Impl == nil || !x.selector.Backend.isCube() {
		return nil, false
	}
	if x.route == routeAutodiff {
		// burn-autodiff's custom backward API (prepare, OpsKind, finish,
		// the Backward trait) is not modelled: the output of the
		// program's impl for Autodiff<B, C> is unknown, and so are the
		// gradients through it.
		route := ImplRoute{Selector: x.selector.Name, Backend: x.selector.Backend, Fusion: x.w.CubeFusion(x.selector.Backend), Autodiff: true}
		if _, ok := op.Impl(route, nil); !ok {
			return nil, false
		}
		x.w.record(TraceEvent{Op: op.Name, Backend: x.selector.Backend.String(), Device: x.routing.on.Debug(), Autodiff: true,
			Kind: x.routing.kind.String(),
			Note: fmt.Sprintf("`%s::%s` from #[backend_extension], routed to %s: the program's impl for `Autodiff<B, C>` is not run (burn-autodiff's custom backward API is not modelled), so its output is unknown", op.Trait, op.Name, x.routeText())})
		return Unknown{}, true
	}
	if x.route != routeConcreteDisabled {
		return nil, false
	}
	if op.Output.Shape != OutTensor && op.Output.Shape != OutTuple && op.Output.Shape != OutPlain {
		return nil, false
	}
	inputs := make([]Value, len(op.Params))
	for i, p := range op.Params {
		switch {
		case p.Kind.isTensor():
			inputs[i] = CubePrimitive(Deref(x.args[i]).(*DispatchTensor).t)
			if p.Borrowed {
				inputs[i] = &Ref{V: inputs[i]}
			}
		case p.Kind == ParamExtension:
			return nil, false
		default:
			inputs[i] = x.args[i]
		}
	}
	route := ImplRoute{Selector: x.selector.Name, Backend: x.selector.Backend, Fusion: x.w.CubeFusion(x.selector.Backend)}
	cb, ok := op.Impl(route, inputs)
	if !ok {
		return nil, false
	}
	x.w.record(TraceEvent{Op: op.Name, Backend: x.selector.Backend.String(), Device: x.routing.on.Debug(),
		Kind: x.routing.kind.String(), Shape: x.routing.Shape(),
		Note: fmt.Sprintf("`%s::%s` from #[backend_extension], routed to `%s`: the program's impl for `%s` runs", op.Trait, op.Name, x.selector.Name, route.Type())})
	done := cb.Done
	cb.Done = func(ret Value) (Value, error) {
		if done != nil {
			v, err := done(ret)
			if err != nil {
				return nil, err
			}
			ret = v
		}
		return x.implOutput(op.Output, ret), nil
	}
	return cb, true
}

// implOutput wraps what the impl returned the way the concrete route's
// wrap_output does: each tensor primitive becomes a DispatchTensor of the
// declared kind on the route's backend.
func (x *extensionCall) implOutput(o ExtOutput, v Value) Value {
	switch o.Shape {
	case OutTensor:
		c, ok := Deref(v).(*CubeTensor)
		if !ok {
			return Unknown{}
		}
		t := *c.buf.t
		t.kind = o.Kind.tensorKind()
		return &DispatchTensor{t: &t}
	case OutTuple:
		tup, ok := Deref(v).(Tuple)
		if !ok || len(tup) != len(o.Elems) {
			return Unknown{}
		}
		out := make(Tuple, len(tup))
		for i, e := range o.Elems {
			out[i] = x.implOutput(e, tup[i])
		}
		return out
	case OutPlain:
		return v
	}
	return Unknown{}
}

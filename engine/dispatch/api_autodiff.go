package dispatch

import "github.com/dispatch-playground/playground/engine/tensor"

// The autodiff surface of burn-tensor (crates/burn-tensor/src/tensor/api/autodiff.rs,
// float.rs:321-343) over Dispatch's AutodiffBackend impl (spec §6).

// gradTracking is require_grad, set_require_grad, is_require_grad and
// detach: float ops that run through unary_float!. On a plain device
// float_set_require_grad is the backend's default no-op.
func (w *World) gradTracking(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	want := 0
	if method == "set_require_grad" {
		want = 1
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	if t.kind == KindQFloat {
		return w.qGradTracking(t, method, a)
	}
	if t.kind != KindFloat {
		return nil, &UsageError{Code: "unknown-method", Arg: -1,
			Message: "the method `" + method + "` exists for struct `" + t.TypeName() + "`, but its trait bounds were not satisfied"}, nil
	}
	if method == "detach" {
		return w.runRow(opRow{method: "detach", shape: "same", out: "same", route: "unary",
			ops: map[Kind]string{KindFloat: "float_detach"}}, t, a)
	}
	if method == "is_require_grad" {
		return Bool(t.tracked && t.node.requirement == reqGrad), nil, nil
	}
	on := true
	if method == "set_require_grad" {
		b, ue := a.boolean(0)
		if ue != nil {
			return nil, ue, nil
		}
		on = b
	}
	pl := routeUnary(t, KindFloat)
	if !t.tracked {
		w.recordOp("float_set_require_grad", pl, t)
		w.trace[len(w.trace)-1].Note = "no-op: the tensor is not on an autodiff device"
		return t, nil, nil
	}
	out := t
	if on {
		var p *Panic
		if out, p = w.requireGrad(t); p != nil {
			return nil, nil, w.failOp("float_set_require_grad", t, p.on(0))
		}
		if out != t {
			out.derive(t, requireGrad)
		}
	} else {
		c := *t
		c.node = w.newLeaf()
		c.derive(t, (*tensor.Tensor).Detach)
		out = &c
	}
	w.recordOp("float_set_require_grad", pl, out)
	return out, nil, nil
}

// autodiffMethod is backward, grad, grad_remove, grad_replace, inner,
// no_grad and with_gradient_checkpointing_strategy.
func (w *World) autodiffMethod(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	switch method {
	case "backward", "grad", "grad_remove", "grad_replace", "with_gradient_checkpointing_strategy":
		if !w.apiFeature("autodiff") {
			return nil, errGatedMethod(tensorStruct, method, "autodiff"), nil
		}
		if t.kind != KindFloat && method != "with_gradient_checkpointing_strategy" && method != "grad" && method != "grad_remove" {
			return nil, errUnknownMethod("struct `"+t.TypeName()+"`", method), nil
		}
	}
	switch method {
	case "backward":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		g, p := w.backward(t)
		if p != nil {
			return nil, nil, w.failOp("backward", t, p.on(0))
		}
		if t.hasVals() && t.vals().Tracked() {
			// Past the budget the gradients carry shapes only.
			g.values, _ = tensor.Backward(t.vals(), w.budget)
		}
		w.record(TraceEvent{Op: "backward", Backend: t.on.backend.String(), Device: t.on.Debug(), Autodiff: true,
			Kind: t.kind.String(), Shape: t.Shape()})
		return g, nil, nil
	case "grad", "grad_remove":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		g, ok := a.get(0).(*Gradients)
		if !ok {
			return nil, errArgType(1, "&Gradients", a.c.Args[0]), nil
		}
		if t.kind != KindFloat {
			// A non-float records no tape: try_as_float yields None.
			return none(), nil, nil
		}
		entry := entryGrad
		if method == "grad_remove" {
			entry = entryGradRemove
		}
		v, p := w.gradOf(t, g, method == "grad_remove", entry)
		if p != nil {
			return nil, nil, w.failOp(method, t, p.on(0))
		}
		return v, nil, nil
	case "grad_replace":
		return w.gradReplace(t, a)
	case "with_gradient_checkpointing_strategy":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		e, ok := a.get(0).(*Enum)
		if !ok || e.Type != "GradientCheckpointingStrategy" || (e.Variant != "Balanced" && e.Variant != "Disabled") {
			return nil, errArgType(1, "GradientCheckpointingStrategy", a.c.Args[0]), nil
		}
		c := *t
		s := Disabled
		if e.Variant == "Balanced" {
			s = Balanced
		}
		c.ckp = &s
		return &c, nil, nil
	case "inner":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return w.inner(t)
	case "no_grad":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		// no_grad is inner() only when the tensor reports an autodiff device.
		if w.autodiffCompiled() && t.Device().autodiff {
			return w.inner(t)
		}
		return t, nil, nil
	}
	return nil, errUnknownMethod(tensorStruct, method), nil
}

// inner is K::inner: Dispatch::inner for floats (backend.rs:545-611),
// identity for int, bool and quantized tensors (613-623); without the
// autodiff feature each kind has its own placeholder.
func (w *World) inner(t *Tensor) (Value, *UsageError, *Panic) {
	if !w.autodiffCompiled() {
		entry := map[Kind]autodiffEntry{KindFloat: entryInner, KindInt: entryIntInner, KindBool: entryBoolInner, KindQFloat: entryQInner}[t.kind]
		p := panicNoAutodiffFeature(entry).on(0)
		if t.kind == KindFloat {
			// no_grad is inner() on a tape and a no-op without autodiff.
			p.Fixes = append([]FixHint{{Title: "Use no_grad(), which works with autodiff and without", Arg: -1, NewText: "{0}.no_grad()"}}, p.Fixes...)
		} else {
			// An int, bool or quantized tensor has no tape: its inner()
			// is the tensor itself where autodiff is compiled in.
			kind := map[Kind]string{KindInt: "an int", KindBool: "a bool", KindQFloat: "a quantized"}[t.kind]
			p.Fixes = append([]FixHint{{Title: "Drop .inner(): " + kind + " tensor has no tape", Arg: -1, NewText: "{0}"}}, p.Fixes...)
		}
		return nil, nil, w.failOp(t.kind.opPrefix()+"_inner", t, p)
	}
	if t.kind != KindFloat {
		return t, nil, nil
	}
	if !t.tracked {
		p := panicRequiresAutodiff(entryInner).on(0)
		// no_grad is inner() for tensors that have a tape, and a no-op otherwise.
		p.Fixes = []FixHint{{Title: "Use no_grad(), which leaves a plain tensor as it is", Arg: -1, NewText: "{0}.no_grad()"}}
		return nil, nil, w.failOp("inner", t, p)
	}
	if t.on.backend == Capture {
		return nil, nil, w.failOp("inner", t, panicCaptureAutodiff(entryInner).on(0))
	}
	out := w.newTensor(KindFloat, t.shape, t.dtype, t.on)
	out.derive(t, (*tensor.Tensor).Detach)
	w.record(TraceEvent{Op: "inner", Backend: t.on.backend.String(), Device: t.on.Debug(), Kind: "Float", Shape: out.Shape(),
		Note: "off the tape: a plain float on the inner backend", out: out})
	return out, nil, nil
}

// fromInner is Tensor::from_inner: Dispatch::from_inner lifts a plain
// float into a fresh autodiff leaf, keeping its strategy or taking
// Disabled (backend.rs:625-717); int and bool are identity.
func (w *World) fromInner(t *Tensor) (Value, *UsageError, *Panic) {
	if !w.autodiffCompiled() {
		entry := map[Kind]autodiffEntry{KindFloat: entryFromInner, KindInt: entryIntFrom, KindBool: entryBoolFrom, KindQFloat: entryQFrom}[t.kind]
		return nil, nil, w.failOp(t.kind.opPrefix()+"_from_inner", t, panicNoAutodiffFeature(entry).on(1))
	}
	if t.kind != KindFloat {
		return t, nil, nil
	}
	if t.tracked {
		return nil, nil, w.failOp("from_inner", t, panicFromInnerNested().on(1))
	}
	if t.on.backend == Capture {
		return nil, nil, w.failOp("from_inner", t, panicCaptureAutodiff(entryFromInner).on(1))
	}
	out := w.newTensor(KindFloat, t.shape, t.dtype, t.on)
	out.tracked = true
	out.node = w.newLeaf()
	out.ckp = copyStrategy(t.ckp)
	if out.ckp == nil {
		out.ckp = strategyPtr(Disabled)
	}
	out.derive(t, (*tensor.Tensor).Detach)
	w.record(TraceEvent{Op: "from_inner", Backend: t.on.backend.String(), Device: t.on.Debug(), Autodiff: true, Kind: "Float", Shape: out.Shape(),
		Note: "a new untracked leaf of the autodiff graph", out: out})
	return out, nil, nil
}

func (w *World) gradientsMethod(g *Gradients, c Call) (Value, *UsageError, *Panic) {
	if c.Method == "clone" {
		copied := &Gradients{grads: map[uint64]bool{}, values: g.values, replaced: map[uint64]*tensor.Tensor{}, cut: g.cut}
		for k, v := range g.grads {
			copied.grads[k] = v
		}
		for k, v := range g.replaced {
			copied.replaced[k] = v
		}
		return copied, nil, nil
	}
	return nil, errUnknownMethod("struct `Gradients`", c.Method), nil
}

// gradReplace is Dispatch::grad_replace (crates/burn-dispatch/src/backend.rs:482-543):
// the replacement must be a plain float of the tracked tensor's backend,
// and LibTorch and Capture have no arm at all.
func (w *World) gradReplace(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	g, ok := a.get(0).(*Gradients)
	if !ok {
		return nil, errArgType(1, "&mut Gradients", a.c.Args[0]), nil
	}
	grad, ok := a.get(1).(*Tensor)
	if !ok || grad.TypeName() != t.TypeName() {
		return nil, errArgType(2, t.TypeName(), a.c.Args[1]), nil
	}
	if !t.tracked {
		return nil, nil, w.failOp("grad_replace", t, panicRequiresAutodiff(entryGradReplace).on(0))
	}
	switch b := t.on.backend; {
	case b == LibTorch || b == Capture || grad.tracked || grad.on.backend != b:
		return nil, nil, w.failOp("grad_replace", t, panicGradReplaceBackend(t.innerKindDebug(), grad.kindDebug()).on(2))
	}
	g.grads[t.node.id] = true
	if g.replaced == nil {
		g.replaced = map[uint64]*tensor.Tensor{}
	}
	g.replaced[t.node.id] = grad.vals()
	return Unit{}, nil, nil
}

package dispatch

// Routing by arity: how burn-dispatch's macros pick the backend that runs
// an op from its tensor inputs (spec §4, crates/burn-dispatch/src/macros.rs).
// Each function returns where the op runs, or the panic the macro raises.

// placement is where an op runs and what its outputs carry.
type placement struct {
	on       *Device // plain device of the backend that runs the op
	autodiff bool    // the op runs on Autodiff<V, C>
	ckp      *Strategy
	parents  []*adNode // tracked inputs, for the output's graph node
	leaf     bool      // the autodiff op starts a new leaf (detach)
}

func (w *World) newTensor(kind Kind, shape []int64, dtype DType, on *Device) *Tensor {
	if on.backend == Capture && on.session == nil {
		// A capture tensor belongs to the session of the scope it is
		// recorded in.
		c := *on
		c.session = w.captures[on.capture]
		on = &c
	}
	t := &Tensor{kind: kind, shape: append([]int64{}, shape...), dtype: dtype, on: on, origin: w.site}
	switch {
	case on.backend.isCube() || on.backend == Remote:
		t.handle = w.nextHandle
		w.nextHandle++
	case on.backend == Capture:
		t.handle = w.nextCaptureTensor
		w.nextCaptureTensor++
	}
	return t
}

// output builds an op's output of the given kind at p: a float output of
// an autodiff op is tracked (a new graph node); other outputs are plain
// handles that carry the checkpointing option.
func (w *World) output(p placement, kind Kind, shape []int64, dtype DType) *Tensor {
	t := w.newTensor(kind, shape, dtype, p.on)
	if s := t.on.session; s != nil {
		s.ops++
	}
	t.ckp = copyStrategy(p.ckp)
	if p.autodiff && kind == KindFloat {
		t.tracked = true
		if p.leaf {
			t.node = w.newLeaf()
		} else {
			t.node = w.newOpNode(p.parents...)
		}
	}
	return t
}

// validateCheckpointing is burn-dispatch's validate_checkpointing
// (crates/burn-dispatch/src/device.rs:209-229): two strategies must agree,
// and a single one is promoted.
func validateCheckpointing(lhs, rhs *Strategy) (*Strategy, *Panic) {
	switch {
	case lhs != nil && rhs != nil:
		if *lhs != *rhs {
			return nil, panicCheckpointMismatch(*lhs, *rhs)
		}
		return lhs, nil
	case lhs != nil:
		return lhs, nil
	}
	return rhs, nil
}

// routeUnary is unary_float! for floats and unary_op! for the other kinds
// (macros.rs:520-811): the one input decides, and checkpointing passes
// through. An int or bool input whose op returns a Float joins the graph
// when the tensor carries a strategy (macros.rs:522-559).
func routeUnary(t *Tensor, outKind Kind) placement {
	p := placement{on: t.on, ckp: t.ckp}
	switch {
	case t.tracked:
		p.autodiff, p.parents = true, []*adNode{t.node}
	case t.kind != KindFloat && outKind == KindFloat && t.ckp != nil:
		// Autodiff's int_into_float, bool_into_float and dequantize wrap
		// the result in a fresh leaf (burn-autodiff ops/int_tensor.rs:319-321).
		p.autodiff, p.leaf = true, true
	}
	return p
}

// routeBinaryFloat is binary_float! for two floats (macros.rs:870-915,
// 1057-1088), after validate_checkpointing.
func (w *World) routeBinaryFloat(lhs, rhs *Tensor) (placement, *Panic) {
	ckp, bad := validateCheckpointing(lhs.ckp, rhs.ckp)
	if bad != nil {
		return placement{}, bad
	}
	sameBackend := lhs.on.backend == rhs.on.backend
	switch {
	case lhs.tracked && rhs.tracked:
		if !sameBackend {
			return placement{}, panicBinaryAutodiffBackend(lhs.innerKindDebug(), rhs.innerKindDebug())
		}
		return placement{on: lhs.on, autodiff: true, ckp: ckp, parents: []*adNode{lhs.node, rhs.node}}, nil
	case !lhs.tracked && !rhs.tracked && sameBackend:
		return placement{on: lhs.on, ckp: ckp}, nil
	}
	return placement{}, panicBinaryFloatBackend(lhs.kindDebug(), rhs.kindDebug())
}

// routeFloatAny is binary_float! with a float and an int, bool or
// quantized operand (macros.rs:917-970): the float decides and may be
// tracked; the other operand is always a plain handle.
func (w *World) routeFloatAny(f, other *Tensor) (placement, *Panic) {
	ckp, bad := validateCheckpointing(f.ckp, other.ckp)
	if bad != nil {
		return placement{}, bad
	}
	sameBackend := f.on.backend == other.on.backend
	switch {
	case f.tracked && sameBackend:
		return placement{on: f.on, autodiff: true, ckp: ckp, parents: []*adNode{f.node}}, nil
	case f.tracked:
		return placement{}, panicBinaryFloatAnyInner()
	case sameBackend:
		return placement{on: f.on, ckp: ckp}, nil
	}
	return placement{}, panicBinaryFloatAnyBackend(f.kindDebug(), other.kindDebug())
}

// routeBinaryOp is binary_op! for int, bool and quantized pairs
// (macros.rs:815-864): only the same backend is legal.
func (w *World) routeBinaryOp(lhs, rhs *Tensor) (placement, *Panic) {
	ckp, bad := validateCheckpointing(lhs.ckp, rhs.ckp)
	if bad != nil {
		return placement{}, bad
	}
	if lhs.on.backend != rhs.on.backend {
		return placement{}, panicBinaryOpBackend(lhs.kindDebug(), rhs.kindDebug())
	}
	return placement{on: lhs.on, ckp: ckp}, nil
}

// namedInput is one tensor input of a multi_op!, under the Rust parameter
// name the macro stringifies into its messages.
type namedInput struct {
	name     string
	t        *Tensor // nil for an absent optional input
	optional bool
	arg      int // the call input it came from, numbered as Panic.Input
}

// routeMulti is multi_op! (macros.rs:1109-1436): the first required input
// alone chooses the backend and autodiff-ness; every other input must
// agree; checkpointing is copied from the first input without validation.
func routeMulti(inputs []namedInput) (placement, *Panic) {
	first := inputs[0].t
	p := placement{on: first.on, ckp: first.ckp}
	if first.tracked {
		p.autodiff = true
		p.parents = append(p.parents, first.node)
	}
	v := first.on.backend
	for _, in := range inputs[1:] {
		t := in.t
		if t == nil {
			continue
		}
		if !first.tracked {
			if t.tracked || t.on.backend != v {
				var p *Panic
				if in.optional {
					p = panicMultiOptionalWrong(in.name).on(in.arg)
				} else {
					p = panicMultiInputWrong(in.name).on(in.arg)
				}
				switch {
				case !t.tracked:
					// Two plain tensors on two backends.
					p.Fixes = []FixHint{moveToFix(in.arg, inputs[0].arg)}
				case t.on.backend == v:
					// A tracked input beside a plain first one of its
					// backend: the first needs autodiff too.
					p.Fixes = []FixHint{fromInnerFix(inputs[0].arg)}
				}
				return placement{}, p
			}
			continue
		}
		switch {
		case in.optional && t.tracked && t.on.backend == v:
			p.parents = append(p.parents, t.node)
		case in.optional && t.tracked:
			return placement{}, panicMultiAutodiffOptionalWrong(in.name).on(in.arg)
		case in.optional:
			return placement{}, panicMultiAutodiffOptionalPlain(in.name).on(in.arg)
		case t.tracked && t.on.backend == v:
			p.parents = append(p.parents, t.node)
		case t.tracked:
			return placement{}, panicMultiAutodiffInputWrong(in.name).on(in.arg)
		case t.on.backend != v:
			return placement{}, panicMultiAutodiffInputOther(in.name).on(in.arg)
		case t.kind == KindFloat:
			p := panicLiftPlainFloat().on(in.arg)
			p.Fixes = []FixHint{fromInnerFix(in.arg)}
			return placement{}, p
		}
	}
	return p, nil
}

// routeVec is vec_op! (macros.rs:1474-1542): the first element decides and
// every element must match it.
func routeVec(tensors []*Tensor) (placement, *Panic) {
	first := tensors[0]
	v := first.on.backend
	p := placement{on: first.on, ckp: first.ckp, autodiff: first.tracked}
	for _, t := range tensors {
		if first.tracked {
			switch {
			case !t.tracked:
				return placement{}, panicVecAutodiffPlain(v)
			case t.on.backend != v:
				return placement{}, panicVecAutodiffWrongBackend(v)
			}
			p.parents = append(p.parents, t.node)
			continue
		}
		if t.tracked || t.on.backend != v {
			return placement{}, panicVecWrongBackend(v)
		}
	}
	return p, nil
}

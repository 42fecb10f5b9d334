package dispatch

// Float tensor predicates and helpers burn-tensor composes from other
// methods (crates/burn-tensor/src/tensor/api/float.rs, base.rs), each
// called in Burn's order so the trace, values and checks are theirs.

// burn-tensor's default tolerances of is_close (float.rs:32-35).
const (
	defaultRTol = 1e-5
	defaultATol = 1e-8
)

var floatPredMethods = map[string]bool{"contains_nan": true, "is_finite": true, "is_close": true, "all_close": true,
	"select_dim": true, "random_like": true}

func (w *World) floatPredMethod(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if c.Method != "select_dim" && t.kind != KindFloat {
		return nil, errTraitBounds(c.Method, t), nil
	}
	ac := actComposer{w: w}
	var out *Tensor
	switch c.Method {
	case "contains_nan":
		// float.rs:577-579: self.is_nan().any().
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		out = ac.method(ac.method(t, "is_nan"), "any")
	case "is_finite":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		out = ac.isFinite(t)
	case "is_close", "all_close":
		if ue := a.want(3); ue != nil {
			return nil, ue, nil
		}
		o, ue := sameTensorArg(a, 0, t)
		if ue != nil {
			return nil, ue, nil
		}
		rtol, ue := optionFloat(a, 1, defaultRTol)
		if ue != nil {
			return nil, ue, nil
		}
		atol, ue := optionFloat(a, 2, defaultATol)
		if ue != nil {
			return nil, ue, nil
		}
		out = ac.isClose(t, o, rtol, atol)
		if c.Method == "all_close" {
			// float.rs:528-532: is_close(..).all().into_scalar::<u8>().to_bool().
			all := ac.method(out, "all")
			if ac.ue != nil || ac.p != nil {
				return nil, ac.ue, ac.p
			}
			v, ue, p := w.tensorMethod(all, Call{Recv: all, Method: "into_scalar", Generics: [][]string{{"u8"}}})
			if ue != nil || p != nil {
				return nil, ue, p
			}
			if n, ok := Deref(v).(Int); ok {
				return Bool(n.V != 0), nil, nil
			}
			return Unknown{}, nil, nil
		}
	case "select_dim":
		// base.rs:1583-1590: self.slice_dim(dim, index).squeeze_dim(dim).
		if t.kind == KindQFloat {
			return nil, errTraitBounds(c.Method, t), nil
		}
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		if _, ue := a.int(1); ue != nil {
			return nil, ue, nil
		}
		out = ac.method(t, "slice_dim", c.Args[0], c.Args[1])
		if out != nil {
			v, ue, p := w.tensorMethod(out, Call{Recv: out, Method: "squeeze_dim", Args: []Value{c.Args[0]}, Generics: c.Generics, Expect: c.Expect})
			if ue != nil || p != nil {
				return nil, ue, p
			}
			return v, nil, nil
		}
	case "random_like":
		// float.rs:144-146, 1125-1132: Dispatch's float_random of the
		// tensor's shape, device and dtype.
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		return w.create("random", tensorType{rank: t.Rank(), kind: KindFloat}, t.shape,
			argList{c: Call{Args: []Value{c.Args[0], Tuple{t.Device(), dtypeEnum(t.dtype)}}}}, 1)
	}
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	return out, nil, nil
}

// isFinite is float.rs:620-625: is_nan().bool_not().bool_and(is_inf().bool_not()).
func (ac *actComposer) isFinite(t *Tensor) *Tensor {
	notNaN := ac.method(ac.method(t, "is_nan"), "bool_not")
	return ac.method(notNaN, "bool_and", ac.method(ac.method(t, "is_inf"), "bool_not"))
}

// isClose is float.rs:467-489.
func (ac *actComposer) isClose(t, o *Tensor, rtol, atol float64) *Tensor {
	diff := ac.method(ac.method(t, "sub", o), "abs")
	bound := ac.method(ac.method(ac.method(o, "abs"), "mul_scalar", Float{V: rtol}), "add_scalar", Float{V: atol})
	finite := ac.method(ac.method(ac.method(diff, "lower_equal", bound), "bool_and", ac.isFinite(t)), "bool_and", ac.isFinite(o))
	infSame := ac.method(ac.method(ac.method(ac.isFinite(t), "bool_not"), "bool_and",
		ac.method(ac.isFinite(o), "bool_not")), "bool_and", ac.method(t, "equal", o))
	return ac.method(finite, "bool_or", infSame)
}

// optionFloat reads an Option<f64> argument, def for None.
func optionFloat(a argList, i int, def float64) (float64, *UsageError) {
	e, ok := a.get(i).(*Enum)
	if !ok || e.Type != "Option" {
		return 0, errArgType(i+1, "Option<f64>", a.c.Args[i])
	}
	if e.Variant == "None" {
		return def, nil
	}
	if len(e.Fields) != 1 {
		return 0, errArgType(i+1, "Option<f64>", a.c.Args[i])
	}
	return argList{c: Call{Args: e.Fields}}.float(0)
}

// BurnConst is the value of one of burn-tensor's public constants named by
// a path (`burn_tensor::DEFAULT_RTOL`, `burn::tensor::DEFAULT_ATOL`):
// is_close's default tolerances (float.rs:32-35), both f64.
func BurnConst(path []string) (Value, bool) {
	path = normalizePath(path)
	if len(path) != 1 {
		return nil, false
	}
	switch path[0] {
	case "DEFAULT_RTOL":
		return Float{V: defaultRTol, Suffix: "f64"}, true
	case "DEFAULT_ATOL":
		return Float{V: defaultATol, Suffix: "f64"}, true
	}
	return nil, false
}

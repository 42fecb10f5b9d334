package nn

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// burn-nn's losses past cross entropy and MSE (crates/burn-nn/src/loss):
// BinaryCrossEntropyLoss, HuberLoss, KLDivLoss, PoissonNllLoss,
// SmoothL1Loss and CosineEmbeddingLoss, with their configs. Each forward
// is the chain of tensor operations the loss's file writes, called into
// engine/dispatch, so the trace, the panics and the values are its own.

func init() {
	register(&configDesc{name: "BinaryCrossEntropyLossConfig", device: true, fields: []field{
		{name: "weights", typ: "Option<Vec<f32>>"},
		{name: "smoothing", typ: "Option<f32>"},
		{name: "logits", typ: "bool", def: boolean(false)},
	}, init: initBCE})
	register(&configDesc{name: "HuberLossConfig", fields: []field{{name: "delta", typ: "f32"}}, init: initHuber})
	register(&configDesc{name: "KLDivLossConfig", fields: []field{{name: "log_target", typ: "bool", def: boolean(false)}}, init: initKLDiv})
	register(&configDesc{name: "PoissonNllLossConfig", fields: []field{
		{name: "log_input", typ: "bool", def: boolean(true)},
		{name: "full", typ: "bool", def: boolean(false)},
		{name: "eps", typ: "f64", def: f64(1e-8)},
	}, init: initPoisson})
	register(&configDesc{name: "SmoothL1LossConfig", fields: []field{{name: "beta", typ: "f32", def: F32(1)}}, init: initSmoothL1})
	register(&configDesc{name: "CosineEmbeddingLossConfig", fields: []field{
		{name: "margin", typ: "f32", def: F32(0)},
		{name: "reduction", typ: "Reduction", def: unit("Reduction", "Mean")},
	}, init: initCosineEmbedding})
}

// extraMethod is a method of a Burn module besides forward
// (forward_no_reduction, ...): its number of arguments and its body.
type extraMethod struct {
	arity int
	fn    func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error)
}

// rustF32 is `{}` of an f32 as Rust prints it.
func rustF32(v float64) string {
	f := float32(v)
	switch {
	case math.IsInf(float64(f), 1):
		return "inf"
	case math.IsInf(float64(f), -1):
		return "-inf"
	case f != f:
		return "NaN"
	}
	return strconv.FormatFloat(float64(f), 'f', -1, 32)
}

func f32Val(v float64) dispatch.Value { return dispatch.Float{V: float64(float32(v)), Suffix: "f32"} }

func boolOf(v dispatch.Value) bool {
	b, _ := dispatch.Deref(v).(dispatch.Bool)
	return bool(b)
}

// tensorIn is the i-th argument (1-based) as a tensor of the given kind.
func tensorIn(args []dispatch.Value, i int, kind dispatch.Kind, want string) (*dispatch.Tensor, error) {
	t, ok := dispatch.Deref(args[i-1]).(*dispatch.Tensor)
	if !ok || t.Kind() != kind {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: i, Message: "mismatched types: expected `" + want + "`, found `" + args[i-1].TypeName() + "`"}
	}
	return t, nil
}

func sameDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// reduction is a Reduction argument.
func reduction(v dispatch.Value, i int) (string, error) {
	red, _ := dispatch.Deref(v).(*dispatch.Enum)
	if red == nil || red.Type != "Reduction" {
		return "", &dispatch.UsageError{Code: "wrong-arguments", Arg: i, Message: "mismatched types: expected `Reduction`, found `" + v.TypeName() + "`"}
	}
	return red.Variant, nil
}

// reduceMeanSum is the losses' `match reduction { Mean | Auto => mean,
// Sum => sum, other => panic!("{other:?} reduction is not supported") }`.
// arg is the forward's argument that gave the reduction (numbered as a
// FixHint's), or dispatch.NoArg when the module holds it.
func reduceMeanSum(w *dispatch.World, loss dispatch.Value, red string, arg int, id, loc string) (dispatch.Value, error) {
	switch red {
	case "Mean", "Auto":
		return method(w, loss, "mean")
	case "Sum":
		return method(w, loss, "sum")
	}
	return nil, unsupportedReduction(id, red, arg, loc)
}

// unsupportedReduction is a loss's panic on a reduction its match leaves
// out, with the fixes that pass one it takes: Mean, or Sum.
func unsupportedReduction(id, red string, arg int, loc string) *dispatch.Panic {
	p := burnPanic(id, red+" reduction is not supported", loc)
	if arg != dispatch.NoArg {
		// {i::} is the argument's path up to its variant, as the program
		// wrote it (`Reduction::`, `burn::nn::loss::Reduction::`).
		for _, v := range []string{"Mean", "Sum"} {
			p.Fixes = append(p.Fixes, dispatch.FixHint{Title: "Use Reduction::" + v, Arg: arg, NewText: fmt.Sprintf("{%d::}%s", arg, v)})
		}
	}
	return p
}

// lossModule is a loss module whose forward takes arity arguments.
func lossModule(typ string, fields []string, values map[string]dispatch.Value, arity int,
	content func(*Module) []attr, forward func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error)) *Module {
	m := &Module{Type: typ, Fields: fields, Values: values, arity: arity}
	if content != nil {
		m.content = func(_ *dispatch.World, m *Module) ([]attr, error) { return content(m), nil }
	}
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		if len(c.Args) != arity {
			return nil, wrongArity(arity, len(c.Args))
		}
		return forward(w, m, c.Args)
	}
	return m
}

// ---- BinaryCrossEntropyLoss (loss/binary_cross_entropy.rs) ----

// initBCE is BinaryCrossEntropyLossConfig::init (binary_cross_entropy.rs:30):
// the assertions on the smoothing and the weights (:42), then the weights
// as a tensor (Tensor::from_floats).
func initBCE(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	if s, ok := dispatch.Deref(c.Values["smoothing"]).(*dispatch.Enum); ok && s.Variant == "Some" && len(s.Fields) == 1 {
		if a := num(s.Fields[0]); !(a >= 0 && a <= 1) {
			return nil, burnPanic("nn-bce-alpha", fmt.Sprintf("Alpha of Cross-entropy loss with smoothed labels should be in interval [0, 1]. Got %s", rustF32(a)),
				"crates/burn-nn/src/loss/binary_cross_entropy.rs:44")
		}
	}
	var weights dispatch.Value = none()
	if ws, ok := dispatch.Deref(c.Values["weights"]).(*dispatch.Enum); ok && ws.Variant == "Some" && len(ws.Fields) == 1 {
		if arr, _ := dispatch.Deref(ws.Fields[0]).(*dispatch.Array); arr != nil {
			for _, e := range arr.Elems {
				if !(num(e) > 0) {
					return nil, burnPanic("nn-bce-weights", "Weights of cross-entropy have to be positive.", "crates/burn-nn/src/loss/binary_cross_entropy.rs:50")
				}
			}
		}
		t, err := tensorFn(w, 1, "from_floats", ws.Fields[0], deviceRef(d))
		if err != nil {
			return nil, err
		}
		weights = some(t)
	}
	return lossModule("BinaryCrossEntropyLoss", []string{"weights", "smoothing", "logits"},
		map[string]dispatch.Value{"weights": weights, "smoothing": c.Values["smoothing"], "logits": c.Values["logits"]}, 2,
		func(m *Module) []attr {
			weights := "None"
			if wv, ok := dispatch.Deref(m.Values["weights"]).(*dispatch.Enum); ok && wv.Variant == "Some" {
				weights = fmt.Sprintf("Tensor {rank: 1, shape: %s}", dims(wv.Fields[0].(*dispatch.Tensor).Shape()))
			}
			smoothing := "None"
			if s, ok := dispatch.Deref(m.Values["smoothing"]).(*dispatch.Enum); ok && s.Variant == "Some" && len(s.Fields) == 1 {
				smoothing = rustF32(num(s.Fields[0]))
			}
			return []attr{{"weights", weights}, {"smoothing", smoothing}, {"logits", fmt.Sprint(boolOf(m.Values["logits"]))}}
		}, forwardBCE), nil
}

// forwardBCE is BinaryCrossEntropyLoss::forward (binary_cross_entropy.rs:100).
func forwardBCE(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
	logits, err := tensorIn(args, 1, dispatch.KindFloat, "Tensor<D>")
	if err != nil {
		return nil, err
	}
	targets, err := tensorIn(args, 2, dispatch.KindInt, fmt.Sprintf("Tensor<%d, Int>", logits.Rank()))
	if err != nil {
		return nil, err
	}
	if targets.Rank() != logits.Rank() {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: fmt.Sprintf("mismatched types: expected `Tensor<%d, Int>`, found `%s`", logits.Rank(), args[1].TypeName())}
	}
	// assertions (binary_cross_entropy.rs:138).
	ld, td := logits.Shape(), targets.Shape()
	if !sameDims(ld, td) {
		return nil, burnPanic("nn-bce-shape", fmt.Sprintf("Shape of targets (%s) should correspond to outer shape of logits (%s).", dims(td), dims(ld)),
			"crates/burn-nn/src/loss/binary_cross_entropy.rs:141")
	}
	D := len(td)
	var weights *dispatch.Tensor
	if wv, ok := dispatch.Deref(m.Values["weights"]).(*dispatch.Enum); ok && wv.Variant == "Some" {
		weights = wv.Fields[0].(*dispatch.Tensor)
		if D > 1 && weights.Shape()[0] != td[D-1] {
			return nil, burnPanic("nn-bce-classes", fmt.Sprintf("The number of classes (%d) does not match the weights provided (%d).", weights.Shape()[0], td[D-1]),
				"crates/burn-nn/src/loss/binary_cross_entropy.rs:151")
		}
	}
	tf, err := method(w, targets, "float")
	if err != nil {
		return nil, err
	}
	if s, ok := dispatch.Deref(m.Values["smoothing"]).(*dispatch.Enum); ok && s.Variant == "Some" && len(s.Fields) == 1 {
		alpha := float32(num(s.Fields[0]))
		classes := float32(2)
		if D > 1 {
			classes = float32(td[D-1])
		}
		if tf, err = chain(w, tf, call(w, "mul_scalar", f32Val(float64(1-alpha))), call(w, "add_scalar", f32Val(float64(alpha/classes)))); err != nil {
			return nil, err
		}
	}
	var loss dispatch.Value
	if boolOf(m.Values["logits"]) {
		a, err := chain(w, tf, call(w, "neg"), call(w, "add_scalar", dispatch.Float{V: 1}), call(w, "mul", logits))
		if err != nil {
			return nil, err
		}
		ls, err := w.Call(dispatch.Call{Path: []string{"log_sigmoid"}, Args: []dispatch.Value{logits}})
		if err != nil {
			return nil, err
		}
		if loss, err = method(w, a, "sub", ls); err != nil {
			return nil, err
		}
	} else {
		a, err := method(w, tf, "sub_scalar", dispatch.Int{V: 1})
		if err != nil {
			return nil, err
		}
		b, err := chain(w, logits, call(w, "neg"), call(w, "log1p"), call(w, "clamp_min", dispatch.Float{V: -100}))
		if err != nil {
			return nil, err
		}
		if a, err = method(w, a, "mul", b); err != nil {
			return nil, err
		}
		c, err := chain(w, logits, call(w, "log"), call(w, "clamp_min", dispatch.Float{V: -100}))
		if err != nil {
			return nil, err
		}
		if c, err = method(w, tf, "mul", c); err != nil {
			return nil, err
		}
		if loss, err = method(w, a, "sub", c); err != nil {
			return nil, err
		}
	}
	if weights != nil {
		var wt dispatch.Value
		if D > 1 {
			wt, err = method(w, weights, "expand", ints(td...))
		} else {
			wt, err = chain(w, targets, call(w, "flatten", usizeVal(0), usizeVal(0)))
			if err == nil {
				wt, err = chain(w, weights, call(w, "gather", usizeVal(0), wt), call(w, "expand", ints(td...)))
			}
		}
		if err != nil {
			return nil, err
		}
		if loss, err = method(w, loss, "mul", wt); err != nil {
			return nil, err
		}
	}
	return method(w, loss, "mean")
}

// ---- HuberLoss (loss/huber.rs) ----

// initHuber is HuberLossConfig::init (huber.rs:18): delta >= 0 (huber.rs:27),
// lin_bias = delta * delta * 0.5 in f32.
func initHuber(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	delta := float32(c.floatField("delta"))
	if !(delta >= 0) {
		return nil, burnPanic("nn-huber-delta", "Delta for Huber loss must be a non-negative number.", "crates/burn-nn/src/loss/huber.rs:27")
	}
	m := lossModule("HuberLoss", []string{"delta", "lin_bias"},
		map[string]dispatch.Value{"delta": f32Val(float64(delta)), "lin_bias": f32Val(float64(delta * delta * 0.5))}, 3,
		func(m *Module) []attr {
			return []attr{{"delta", rustF32(num(m.Values["delta"]))}, {"lin_bias", rustF32(num(m.Values["lin_bias"]))}}
		},
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			red, err := reduction(args[2], 3)
			if err != nil {
				return nil, err
			}
			loss, err := huberNoReduction(w, m, args)
			if err != nil {
				return nil, err
			}
			return reduceMeanSum(w, loss, red, 3, "nn-huber-reduction", "crates/burn-nn/src/loss/huber.rs:95")
		})
	m.methods = map[string]extraMethod{
		"forward_no_reduction": {2, huberNoReduction},
		"forward_residuals": {1, func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			return huberResiduals(w, m, args[0])
		}},
	}
	return m, nil
}

// huberNoReduction is forward_no_reduction (huber.rs:105): targets - predictions.
func huberNoReduction(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
	r, err := method(w, args[1], "sub", args[0])
	if err != nil {
		return nil, err
	}
	return huberResiduals(w, m, r)
}

// huberResiduals is forward_residuals (huber.rs:119).
func huberResiduals(w *dispatch.World, m *Module, r dispatch.Value) (dispatch.Value, error) {
	delta := num(m.Values["delta"])
	large, err := chain(w, r, call(w, "abs"), call(w, "greater_scalar", f32Val(delta)))
	if err != nil {
		return nil, err
	}
	outside, err := chain(w, r, call(w, "clamp", f32Val(-delta), f32Val(delta)), call(w, "mul", r), call(w, "sub_scalar", m.Values["lin_bias"]))
	if err != nil {
		return nil, err
	}
	inside, err := chain(w, r, call(w, "square"), call(w, "mul_scalar", dispatch.Float{V: 0.5}))
	if err != nil {
		return nil, err
	}
	return method(w, inside, "mask_where", large, outside)
}

// ---- KLDivLoss (loss/kldiv.rs) ----

func initKLDiv(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	m := lossModule("KLDivLoss", []string{"log_target"}, map[string]dispatch.Value{"log_target": c.Values["log_target"]}, 3,
		func(m *Module) []attr { return []attr{{"log_target", fmt.Sprint(boolOf(m.Values["log_target"]))}} },
		// forward (kldiv.rs:67): BatchMean and Auto divide the sum by the
		// batch size.
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			red, err := reduction(args[2], 3)
			if err != nil {
				return nil, err
			}
			loss, err := klNoReduction(w, m, args)
			if err != nil {
				return nil, err
			}
			switch red {
			case "BatchMean", "Auto":
				t, _ := dispatch.Deref(loss).(*dispatch.Tensor)
				if t == nil || t.Rank() == 0 {
					return nil, fmt.Errorf("KLDivLoss: loss without dims")
				}
				return chain(w, loss, call(w, "sum"), call(w, "div_scalar", f32Val(float64(t.Shape()[0]))))
			case "Mean":
				return method(w, loss, "mean")
			}
			return method(w, loss, "sum")
		})
	m.methods = map[string]extraMethod{"forward_no_reduction": {2, klNoReduction}}
	return m, nil
}

// klNoReduction is forward_no_reduction (kldiv.rs:84): with log targets
// exp(t) * (t - p), else t * (ln(clamp(t, min_positive, 1)) - p), the
// smallest positive normal of the targets' dtype.
func klNoReduction(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
	p, t := args[0], args[1]
	if boolOf(m.Values["log_target"]) {
		d, err := method(w, t, "sub", p)
		if err != nil {
			return nil, err
		}
		return chain(w, t, call(w, "exp"), call(w, "mul", d))
	}
	eps := dispatch.Float{V: float64(math.Float32frombits(0x00800000))}
	if tt, ok := dispatch.Deref(t).(*dispatch.Tensor); ok {
		switch tt.DType() {
		case dispatch.F64:
			eps = dispatch.Float{V: 2.2250738585072014e-308}
		case dispatch.F16:
			eps = dispatch.Float{V: 6.103515625e-05}
		}
	}
	lt, err := chain(w, t, call(w, "clamp", eps, dispatch.Float{V: 1}), call(w, "log"), call(w, "sub", p))
	if err != nil {
		return nil, err
	}
	return method(w, t, "mul", lt)
}

// ---- PoissonNllLoss (loss/poisson.rs) ----

// initPoisson is PoissonNllLossConfig::init (poisson.rs:50): eps > 0 (:64).
func initPoisson(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	if !(c.floatField("eps") > 0) {
		return nil, burnPanic("nn-poisson-eps", "eps for PoissonNllLoss must be a positive number.", "crates/burn-nn/src/loss/poisson.rs:64")
	}
	m := lossModule("PoissonNllLoss", []string{"log_input", "full", "eps"},
		map[string]dispatch.Value{"log_input": c.Values["log_input"], "full": c.Values["full"], "eps": c.Values["eps"]}, 3,
		func(m *Module) []attr {
			return []attr{{"log_input", fmt.Sprint(boolOf(m.Values["log_input"]))}, {"full", fmt.Sprint(boolOf(m.Values["full"]))},
				{"eps", rustFloat(num(m.Values["eps"]))}}
		},
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			red, err := reduction(args[2], 3)
			if err != nil {
				return nil, err
			}
			loss, err := poissonNoReduction(w, m, args)
			if err != nil {
				return nil, err
			}
			return reduceMeanSum(w, loss, red, 3, "nn-poisson-reduction", "crates/burn-nn/src/loss/poisson.rs:139")
		})
	m.methods = map[string]extraMethod{"forward_no_reduction": {2, poissonNoReduction}}
	return m, nil
}

// allNonNegative is `t.greater_equal_scalar(0.).all().into_scalar::<bool>()`
// (poisson.rs:193): false only when the values are known and one is
// negative; unknown values let the loss go on without values.
func allNonNegative(w *dispatch.World, t dispatch.Value) (bool, error) {
	v, err := chain(w, t, call(w, "greater_equal_scalar", dispatch.Float{V: 0}), call(w, "all"))
	if err != nil {
		return false, err
	}
	s, err := w.Call(dispatch.Call{Recv: v, Method: "into_scalar", Generics: [][]string{{"bool"}}})
	if err != nil {
		return false, err
	}
	if b, ok := dispatch.Deref(s).(dispatch.Bool); ok {
		return bool(b), nil
	}
	return true, nil
}

// poissonNoReduction is forward_no_reduction (poisson.rs:158), its
// assertions first (:186).
func poissonNoReduction(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
	p, err := tensorIn(args, 1, dispatch.KindFloat, "Tensor<D>")
	if err != nil {
		return nil, err
	}
	t, err := tensorIn(args, 2, dispatch.KindFloat, fmt.Sprintf("Tensor<%d>", p.Rank()))
	if err != nil {
		return nil, err
	}
	if !sameDims(p.Shape(), t.Shape()) {
		return nil, burnPanic("nn-poisson-shape", fmt.Sprintf("Shape of targets (%s) should correspond to outer shape of predictions (%s).", dims(t.Shape()), dims(p.Shape())),
			"crates/burn-nn/src/loss/poisson.rs:189")
	}
	if ok, err := allNonNegative(w, t); err != nil || !ok {
		if err == nil {
			err = burnPanic("nn-poisson-targets", "All the values of `targets` must be non-negative.", "crates/burn-nn/src/loss/poisson.rs:193")
		}
		return nil, err
	}
	logInput := boolOf(m.Values["log_input"])
	if !logInput {
		if ok, err := allNonNegative(w, p); err != nil || !ok {
			if err == nil {
				err = burnPanic("nn-poisson-predictions", "When `log_input` is `false`, all the values of `predictions` must be non-negative.", "crates/burn-nn/src/loss/poisson.rs:202")
			}
			return nil, err
		}
	}
	var loss dispatch.Value
	if logInput {
		tp, err := method(w, t, "mul", p)
		if err != nil {
			return nil, err
		}
		if loss, err = chain(w, p, call(w, "exp"), call(w, "sub", tp)); err != nil {
			return nil, err
		}
	} else {
		lp, err := chain(w, p, call(w, "add_scalar", m.Values["eps"]), call(w, "log"))
		if err != nil {
			return nil, err
		}
		if lp, err = method(w, t, "mul", lp); err != nil {
			return nil, err
		}
		if loss, err = method(w, p, "sub", lp); err != nil {
			return nil, err
		}
	}
	if boolOf(m.Values["full"]) {
		// t * ln(t) - t + ln(t * 2 * PI) * 0.5, zero where t <= 1.
		a, err := chain(w, t, call(w, "log"))
		if err != nil {
			return nil, err
		}
		if a, err = chain(w, t, call(w, "mul", a), call(w, "sub", t)); err != nil {
			return nil, err
		}
		b, err := chain(w, t, call(w, "mul_scalar", dispatch.Float{V: 2}), call(w, "mul_scalar", dispatch.Float{V: math.Pi}),
			call(w, "log"), call(w, "mul_scalar", dispatch.Float{V: 0.5}))
		if err != nil {
			return nil, err
		}
		if a, err = method(w, a, "add", b); err != nil {
			return nil, err
		}
		mask, err := method(w, t, "lower_equal_scalar", dispatch.Int{V: 1})
		if err != nil {
			return nil, err
		}
		zeros, err := method(w, t, "zeros_like")
		if err != nil {
			return nil, err
		}
		if a, err = method(w, a, "mask_where", mask, zeros); err != nil {
			return nil, err
		}
		if loss, err = method(w, loss, "add", a); err != nil {
			return nil, err
		}
	}
	return loss, nil
}

// ---- SmoothL1Loss (loss/smooth_l1.rs) ----

// initSmoothL1 is SmoothL1LossConfig::init (smooth_l1.rs:38): beta > 0 (:44).
func initSmoothL1(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	beta := float32(c.floatField("beta"))
	if !(beta > 0) {
		return nil, burnPanic("nn-smooth-l1-beta", "The parameter beta must be positive.", "crates/burn-nn/src/loss/smooth_l1.rs:44")
	}
	// SmoothL1Loss derives its display: `beta` is a constant field.
	m := lossModule("SmoothL1Loss", []string{"beta"}, map[string]dispatch.Value{"beta": f32Val(float64(beta))}, 2, nil, smoothL1)
	m.methods = map[string]extraMethod{
		"forward_with_reduction": {3, func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			red, err := reduction(args[2], 3)
			if err != nil {
				return nil, err
			}
			loss, err := smoothL1(w, m, args[:2])
			if err != nil {
				return nil, err
			}
			return reduceMeanSum(w, loss, red, 3, "nn-smooth-l1-reduction", "crates/burn-nn/src/loss/smooth_l1.rs:165")
		}},
		// forward_reduce_dims (smooth_l1.rs:196): mean_dims of the
		// unreduced loss.
		"forward_reduce_dims": {3, func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			loss, err := smoothL1(w, m, args[:2])
			if err != nil {
				return nil, err
			}
			return method(w, loss, "mean_dims", args[2])
		}},
	}
	return m, nil
}

// smoothL1 is SmoothL1Loss::forward (smooth_l1.rs:121), unreduced.
func smoothL1(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
	beta := float32(num(m.Values["beta"]))
	e, err := method(w, args[0], "sub", args[1])
	if err != nil {
		return nil, err
	}
	abs, err := method(w, e, "abs")
	if err != nil {
		return nil, err
	}
	l1, err := method(w, abs, "sub_scalar", f32Val(float64(0.5*beta)))
	if err != nil {
		return nil, err
	}
	l2, err := chain(w, e, call(w, "square"), call(w, "mul_scalar", dispatch.Float{V: 0.5}), call(w, "div_scalar", f32Val(float64(beta))))
	if err != nil {
		return nil, err
	}
	mask, err := method(w, abs, "lower_scalar", f32Val(float64(beta)))
	if err != nil {
		return nil, err
	}
	return method(w, l1, "mask_where", mask, l2)
}

// ---- CosineEmbeddingLoss (loss/cosine_embedding.rs) ----

func initCosineEmbedding(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	m := lossModule("CosineEmbeddingLoss", []string{"margin", "reduction"},
		map[string]dispatch.Value{"margin": c.Values["margin"], "reduction": c.Values["reduction"]}, 3,
		func(m *Module) []attr {
			red, _ := dispatch.Deref(m.Values["reduction"]).(*dispatch.Enum)
			name := "_"
			if red != nil {
				name = red.Variant
			}
			return []attr{{"margin", rustF32(num(m.Values["margin"]))}, {"reduction", name}}
		},
		// forward (cosine_embedding.rs:88): the unreduced loss, then the
		// module's own reduction.
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			loss, err := cosineNoReduction(w, m, args)
			if err != nil {
				return nil, err
			}
			red, _ := dispatch.Deref(m.Values["reduction"]).(*dispatch.Enum)
			return reduceMeanSum(w, loss, red.Variant, dispatch.NoArg, "nn-cosine-embedding-reduction", "crates/burn-nn/src/loss/cosine_embedding.rs:98")
		})
	m.methods = map[string]extraMethod{"forward_no_reduction": {3, cosineNoReduction}}
	return m, nil
}

// newCosineEmbedding is CosineEmbeddingLoss::new() and default()
// (cosine_embedding.rs:80): the config's defaults.
func newCosineEmbedding(w *dispatch.World) (dispatch.Value, error) {
	c, _ := newConfig(configs["CosineEmbeddingLossConfig"], nil)
	return initCosineEmbedding(w, c, nil)
}

// cosineNoReduction is forward_no_reduction (cosine_embedding.rs:113): its
// assertions (:142), the cosine similarity along dim 1, 1 - cos where the
// target is 1 and relu(cos - margin) where it is -1.
func cosineNoReduction(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
	a, err := tensorIn(args, 1, dispatch.KindFloat, "Tensor<2>")
	if err != nil {
		return nil, err
	}
	b, err := tensorIn(args, 2, dispatch.KindFloat, "Tensor<2>")
	if err != nil {
		return nil, err
	}
	t, err := tensorIn(args, 3, dispatch.KindInt, "Tensor<1, Int>")
	if err != nil {
		return nil, err
	}
	if a.Rank() != 2 || b.Rank() != 2 || t.Rank() != 1 {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: "mismatched types: expected `Tensor<2>`, `Tensor<2>` and `Tensor<1, Int>`"}
	}
	as, bs, ts := a.Shape(), b.Shape(), t.Shape()
	assertEq := func(id string, line int, l, r int64, msg string) error {
		if l == r {
			return nil
		}
		return burnPanic(id, fmt.Sprintf("assertion `left == right` failed: %s\n  left: %d\n right: %d", msg, l, r),
			fmt.Sprintf("crates/burn-nn/src/loss/cosine_embedding.rs:%d", line))
	}
	if err := assertEq("nn-cosine-embedding-batch", 147, as[0], bs[0], fmt.Sprintf("Batch size of input1 (%d) must match batch size of input2 (%d)", as[0], bs[0])); err != nil {
		return nil, err
	}
	if err := assertEq("nn-cosine-embedding-dim", 152, as[1], bs[1], fmt.Sprintf("Embedding dimension of input1 (%d) must match embedding dimension of input2 (%d)", as[1], bs[1])); err != nil {
		return nil, err
	}
	if err := assertEq("nn-cosine-embedding-target", 157, as[0], ts[0], fmt.Sprintf("Batch size of inputs (%d) must match batch size of target (%d)", as[0], ts[0])); err != nil {
		return nil, err
	}
	cos, err := w.Call(dispatch.Call{Path: []string{"linalg", "cosine_similarity"}, Args: []dispatch.Value{a, b, usizeVal(1), none()}})
	if err != nil {
		return nil, err
	}
	if cos, err = method(w, cos, "squeeze_dim", usizeVal(1)); err != nil {
		return nil, err
	}
	loss, err := method(w, cos, "zeros_like")
	if err != nil {
		return nil, err
	}
	similar, err := method(w, t, "equal_scalar", dispatch.Int{V: 1})
	if err != nil {
		return nil, err
	}
	simLoss, err := chain(w, cos, call(w, "neg"), call(w, "add_scalar", dispatch.Int{V: 1}))
	if err != nil {
		return nil, err
	}
	if loss, err = method(w, loss, "mask_where", similar, simLoss); err != nil {
		return nil, err
	}
	dissimilar, err := method(w, t, "equal_scalar", dispatch.Int{V: -1})
	if err != nil {
		return nil, err
	}
	d, err := method(w, cos, "sub_scalar", m.Values["margin"])
	if err != nil {
		return nil, err
	}
	if d, err = w.Call(dispatch.Call{Path: []string{"relu"}, Args: []dispatch.Value{d}}); err != nil {
		return nil, err
	}
	return method(w, loss, "mask_where", dissimilar, d)
}

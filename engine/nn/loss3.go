package nn

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// TripletMarginLoss and MultiMarginLoss (crates/burn-nn/src/loss).

func init() {
	register(&configDesc{name: "TripletMarginLossConfig", fields: []field{
		{name: "margin", typ: "f64", def: f64(1)}, {name: "p", typ: "f64", def: f64(2)},
	}, init: initTripletMargin})
	register(&configDesc{name: "MultiMarginLossConfig", fields: []field{
		{name: "margin", typ: "f64", def: f64(1)},
		{name: "p", typ: "i32", def: func() dispatch.Value { return dispatch.Int{V: 1, Suffix: "i32"} }},
	}, init: initMultiMargin})
}

// initTripletMargin is TripletMarginLossConfig::init (triplet_margin.rs:26);
// forward_no_reduction (:103) is max(0, |a - p|_p - |a - n|_p + margin)
// with linalg::lp_norm along dim 1.
func initTripletMargin(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	return reducedLoss("TripletMarginLoss", []string{"margin", "p"}, map[string]dispatch.Value{"margin": c.Values["margin"], "p": c.Values["p"]}, 3,
		func(m *Module) []attr {
			return []attr{{"margin", rustFloat(num(m.Values["margin"]))}, {"p", rustFloat(num(m.Values["p"]))}}
		},
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			dist := func(other dispatch.Value) (dispatch.Value, error) {
				d, err := method(w, args[0], "sub", other)
				if err != nil {
					return nil, err
				}
				n, err := w.Call(dispatch.Call{Path: []string{"linalg", "lp_norm"}, Args: []dispatch.Value{d, m.Values["p"], usizeVal(1)}})
				if err != nil {
					return nil, err
				}
				return method(w, n, "squeeze_dim", usizeVal(1))
			}
			pos, err := dist(args[1])
			if err != nil {
				return nil, err
			}
			neg, err := dist(args[2])
			if err != nil {
				return nil, err
			}
			return chain(w, pos, call(w, "sub", neg), call(w, "add_scalar", m.Values["margin"]), call(w, "clamp_min", dispatch.Float{V: 0}))
		}, "nn-triplet-margin-reduction", "crates/burn-nn/src/loss/triplet_margin.rs:91"), nil
}

// initMultiMargin is MultiMarginLossConfig::init (multi_margin.rs:23) with
// its assertions (:32, :37); forward_no_reduction (:111) sums
// max(0, margin + x_j - x_y)^p over the classes, less the target's own
// margin^p, over the number of classes.
func initMultiMargin(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	margin, p := c.floatField("margin"), c.intField("p")
	if !(margin >= 0) {
		return nil, burnPanic("nn-multi-margin-margin", "Margin for multi margin loss must be non-negative, got "+rustFloat(margin), "crates/burn-nn/src/loss/multi_margin.rs:32")
	}
	if p != 1 && p != 2 {
		return nil, burnPanic("nn-multi-margin-p", fmt.Sprintf("Multi margin loss only supports p = 1 or p = 2, got %d", p), "crates/burn-nn/src/loss/multi_margin.rs:37")
	}
	return reducedLoss("MultiMarginLoss", []string{"margin", "p"}, map[string]dispatch.Value{"margin": c.Values["margin"], "p": c.Values["p"]}, 2,
		func(m *Module) []attr {
			return []attr{{"margin", rustFloat(num(m.Values["margin"]))}, {"p", fmt.Sprint(int64(num(m.Values["p"])))}}
		},
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			x, err := tensorIn(args, 1, dispatch.KindFloat, "Tensor<2>")
			if err != nil {
				return nil, err
			}
			if x.Rank() != 2 {
				return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<2>`, found `" + args[0].TypeName() + "`"}
			}
			s := x.Shape()
			idx, err := method(w, args[1], "reshape", ints(s[0], 1))
			if err != nil {
				return nil, err
			}
			correct, err := method(w, x, "gather", usizeVal(1), idx)
			if err != nil {
				return nil, err
			}
			margin, p := num(m.Values["margin"]), int64(num(m.Values["p"]))
			summed, err := chain(w, x, call(w, "sub", correct), call(w, "add_scalar", m.Values["margin"]), call(w, "clamp_min", dispatch.Float{V: 0}),
				call(w, "powi_scalar", dispatch.Int{V: p, Suffix: "i32"}), call(w, "sum_dim", usizeVal(1)))
			if err != nil {
				return nil, err
			}
			mp := margin
			if p == 2 {
				mp = margin * margin
			}
			return chain(w, summed, call(w, "sub_scalar", dispatch.Float{V: mp, Suffix: "f64"}), call(w, "squeeze_dim", usizeVal(1)),
				call(w, "mul_scalar", dispatch.Float{V: 1 / float64(s[1]), Suffix: "f64"}))
		}, "nn-multi-margin-reduction", "crates/burn-nn/src/loss/multi_margin.rs:100"), nil
}

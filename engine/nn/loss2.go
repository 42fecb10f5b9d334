package nn

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
)

// HingeEmbeddingLoss, MarginRankingLoss, SoftMarginLoss, LpLoss and
// GaussianNLLLoss (crates/burn-nn/src/loss).

// constructors are associated functions of burn-nn's types that build a
// value without a config's `new` (SoftMarginLoss::new, LpLossConfig::l1).
var constructors = map[string]func(w *dispatch.World, args []dispatch.Value) (dispatch.Value, error){}

func init() {
	register(&configDesc{name: "HingeEmbeddingLossConfig", fields: []field{{name: "margin", typ: "f64", def: f64(1)}}, init: initHingeEmbedding})
	register(&configDesc{name: "MarginRankingLossConfig", fields: []field{{name: "margin", typ: "f64", def: f64(0)}}, init: initMarginRanking})
	register(&configDesc{name: "LpLossConfig", fields: []field{{name: "p", typ: "f64"}}, init: initLp})
	register(&configDesc{name: "GaussianNLLLossConfig", fields: []field{
		{name: "eps", typ: "f64", def: f64(1e-6)}, {name: "full", typ: "bool", def: boolean(false)},
	}, init: initGaussianNLL})
	noArgs := func(f func(w *dispatch.World) (dispatch.Value, error)) func(w *dispatch.World, args []dispatch.Value) (dispatch.Value, error) {
		return func(w *dispatch.World, args []dispatch.Value) (dispatch.Value, error) {
			if len(args) != 0 {
				return nil, wrongArity(0, len(args))
			}
			return f(w)
		}
	}
	soft := noArgs(func(*dispatch.World) (dispatch.Value, error) { return softMarginLoss(), nil })
	constructors["SoftMarginLoss::new"], constructors["SoftMarginLoss::default"] = soft, soft
	// LpLossConfig::l1() and l2() (lp_loss.rs:50, 58) build the loss
	// without the config's assertion.
	for name, p := range map[string]float64{"l1": 1, "l2": 2} {
		constructors["LpLossConfig::"+name] = noArgs(func(*dispatch.World) (dispatch.Value, error) { return lpLoss(p), nil })
	}
}

// reducedLoss is a loss whose forward is forward_no_reduction (n
// arguments) then the Mean | Auto / Sum / panic match at the site loc.
func reducedLoss(typ string, fields []string, values map[string]dispatch.Value, n int, content func(*Module) []attr,
	unreduced func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error), id, loc string) *Module {
	m := lossModule(typ, fields, values, n+1, content, func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
		red, err := reduction(args[n], n+1)
		if err != nil {
			return nil, err
		}
		loss, err := unreduced(w, m, args[:n])
		if err != nil {
			return nil, err
		}
		return reduceMeanSum(w, loss, red, n+1, id, loc)
	})
	m.methods = map[string]extraMethod{"forward_no_reduction": {n, unreduced}}
	return m
}

func marginContent(m *Module) []attr { return []attr{{"margin", rustFloat(num(m.Values["margin"]))}} }

// initHingeEmbedding is HingeEmbeddingLossConfig::init (hinge_embedding.rs:20);
// forward_no_reduction (:90) is max(0, margin - x) where the target is
// not 1, x where it is.
func initHingeEmbedding(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	return reducedLoss("HingeEmbeddingLoss", []string{"margin"}, map[string]dispatch.Value{"margin": c.Values["margin"]}, 2, marginContent,
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			neg, err := chain(w, args[0], call(w, "neg"), call(w, "add_scalar", m.Values["margin"]), call(w, "clamp_min", dispatch.Float{V: 0}))
			if err != nil {
				return nil, err
			}
			pos, err := method(w, args[1], "equal_scalar", dispatch.Int{V: 1})
			if err != nil {
				return nil, err
			}
			return method(w, neg, "mask_where", pos, args[0])
		}, "nn-hinge-embedding-reduction", "crates/burn-nn/src/loss/hinge_embedding.rs:79"), nil
}

// initMarginRanking is MarginRankingLossConfig::init (margin_ranking.rs:20):
// margin >= 0 (:28); forward_no_reduction (:100) is relu(-(y * (a - b)) + margin).
func initMarginRanking(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	if !(c.floatField("margin") >= 0) {
		return nil, burnPanic("nn-margin-ranking-margin", "Margin for margin ranking loss must be a non-negative number.", "crates/burn-nn/src/loss/margin_ranking.rs:28")
	}
	return reducedLoss("MarginRankingLoss", []string{"margin"}, map[string]dispatch.Value{"margin": c.Values["margin"]}, 3, marginContent,
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			d, err := method(w, args[0], "sub", args[1])
			if err != nil {
				return nil, err
			}
			s, err := chain(w, args[2], call(w, "mul", d), call(w, "neg"), call(w, "add_scalar", m.Values["margin"]))
			if err != nil {
				return nil, err
			}
			return w.Call(dispatch.Call{Path: []string{"relu"}, Args: []dispatch.Value{s}})
		}, "nn-margin-ranking-reduction", "crates/burn-nn/src/loss/margin_ranking.rs:88"), nil
}

// softMarginLoss is SoftMarginLoss (soft_margin.rs), a unit struct:
// forward_no_reduction (:50) is softplus(-(y * x), 1).
func softMarginLoss() *Module {
	return reducedLoss("SoftMarginLoss", nil, map[string]dispatch.Value{}, 2, nil,
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			x, err := chain(w, args[1], call(w, "mul", args[0]), call(w, "neg"))
			if err != nil {
				return nil, err
			}
			return w.Call(dispatch.Call{Path: []string{"softplus"}, Args: []dispatch.Value{x, dispatch.Float{V: 1}}})
		}, "nn-soft-margin-reduction", "crates/burn-nn/src/loss/soft_margin.rs:45")
}

// initLp is LpLossConfig::init (lp_loss.rs:41): p > 0 (:63).
func initLp(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	if !(c.floatField("p") > 0) {
		return nil, burnPanic("nn-lp-p", "The order of the norm p must be positive.", "crates/burn-nn/src/loss/lp_loss.rs:63")
	}
	return lpLoss(c.floatField("p")), nil
}

// lpLoss is LpLoss { p } (lp_loss.rs:114), whose display is derived:
// forward_no_reduction (:172) is |e| for p = 1, e * e for p = 2, |e|^p
// otherwise; forward_reduce_dims (:219) its mean_dims.
func lpLoss(p float64) *Module {
	unreduced := func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
		e, err := method(w, args[0], "sub", args[1])
		if err != nil {
			return nil, err
		}
		switch p := num(m.Values["p"]); p {
		case 1:
			return method(w, e, "abs")
		case 2:
			return method(w, e, "mul", e)
		default:
			return chain(w, e, call(w, "abs"), call(w, "powf_scalar", dispatch.Float{V: p, Suffix: "f64"}))
		}
	}
	m := reducedLoss("LpLoss", []string{"p"}, map[string]dispatch.Value{"p": dispatch.Float{V: p, Suffix: "f64"}}, 2, nil,
		unreduced, "nn-lp-reduction", "crates/burn-nn/src/loss/lp_loss.rs:151")
	m.methods["forward_reduce_dims"] = extraMethod{3, func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
		e, err := unreduced(w, m, args[:2])
		if err != nil {
			return nil, err
		}
		return method(w, e, "mean_dims", args[2])
	}}
	return m
}

// initGaussianNLL is GaussianNLLLossConfig::init (gaussian_nll.rs:26);
// forward_no_reduction (:103) is 0.5 * (ln(var) + (x - y)^2 / var), var
// clamped to eps, plus ln(2 pi) / 2 when full.
func initGaussianNLL(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	return reducedLoss("GaussianNLLLoss", []string{"eps", "full"}, map[string]dispatch.Value{"eps": c.Values["eps"], "full": c.Values["full"]}, 3,
		func(m *Module) []attr {
			full := "false"
			if boolOf(m.Values["full"]) {
				full = "true"
			}
			return []attr{{"eps", rustFloat(num(m.Values["eps"]))}, {"full", full}}
		},
		func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			v, err := method(w, args[2], "clamp_min", m.Values["eps"])
			if err != nil {
				return nil, err
			}
			sq, err := chain(w, args[0], call(w, "sub", args[1]), call(w, "square"), call(w, "div", v))
			if err != nil {
				return nil, err
			}
			loss, err := chain(w, v, call(w, "log"), call(w, "add", sq), call(w, "mul_scalar", dispatch.Float{V: 0.5}))
			if err != nil || !boolOf(m.Values["full"]) {
				return loss, err
			}
			return method(w, loss, "add_scalar", dispatch.Float{V: 0.918_938_533_204_672_8, Suffix: "f64"})
		}, "nn-gaussian-nll-reduction", "crates/burn-nn/src/loss/gaussian_nll.rs:91"), nil
}

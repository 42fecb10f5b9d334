package optim

import (
	"testing"

	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// TestUnknownRate: a learner's rate the engine does not know still steps
// the params (the trace and the state run), and the stepped values are
// unknown rather than guessed; a param without a gradient keeps its
// values.
func TestUnknownRate(t *testing.T) {
	cfg, _ := config.Parse("[dependencies]\nburn = { version = \"0.22\", features = [\"flex\", \"autodiff\"] }\n")
	if cfg == nil {
		t.Fatal("no config")
	}
	w := dispatch.NewWorld(cfg.Dispatch)
	must := func(v dispatch.Value, err error) dispatch.Value {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	model := func(c dispatch.Call) dispatch.Value {
		t.Helper()
		v, handled, err := nn.Call(w, c, nil)
		if !handled {
			t.Fatalf("%v not handled", c)
		}
		return must(v, err)
	}
	dev := must(w.Call(dispatch.Call{Recv: must(w.Call(dispatch.Call{Path: []string{"Device", "flex"}})), Method: "autodiff"}))
	usize := func(n int64) dispatch.Value { return dispatch.Int{V: n, Suffix: "usize"} }
	lin := model(dispatch.Call{Recv: model(dispatch.Call{Path: []string{"LinearConfig", "new"}, Args: []dispatch.Value{usize(2), usize(1)}}),
		Method: "init", Args: []dispatch.Value{&dispatch.Ref{V: dev}}})
	x := must(w.Call(dispatch.Call{Path: []string{"Tensor", "ones"}, Generics: [][]string{{"2"}, nil},
		Args: []dispatch.Value{&dispatch.Array{Elems: []dispatch.Value{usize(1), usize(2)}}, &dispatch.Ref{V: dev}}}))
	loss := must(w.Call(dispatch.Call{Recv: model(dispatch.Call{Recv: lin, Method: "forward", Args: []dispatch.Value{x}}), Method: "sum"}))
	grads := must(w.Call(dispatch.Call{Recv: loss, Method: "backward"}))
	gp, err := FromModule(w, nil, grads, lin, nil)
	if err != nil || gp.Len() != 2 {
		t.Fatalf("grads %v, %v", gp, err)
	}
	// The bias steps without a gradient.
	bias, _ := nn.Field(lin, "bias")
	biasParam := dispatch.Deref(bias).(*dispatch.Enum).Fields[0].(*nn.Param)
	gp.take(paramKey(w, biasParam.ID))
	optim := must(initOptimizer(w, model(dispatch.Call{Path: []string{"AdamConfig", "new"}}).(*nn.Config), nil))
	out, err := Step(w, nil, optim, dispatch.Unknown{}, lin, gp)
	if err != nil {
		t.Fatal(err)
	}
	weight, _ := nn.Field(out, "weight")
	wt := must(weight.(*nn.Param).Val(w)).(*dispatch.Tensor)
	if known(w, wt) || !wt.Tracked() {
		t.Errorf("weight: values known %v, tracked %v", known(w, wt), wt.Tracked())
	}
	if n := optim.(*ModuleOptimizer).StateLen(); n != 1 {
		t.Errorf("%d states", n)
	}
	bias, _ = nn.Field(out, "bias")
	bt := must(dispatch.Deref(bias).(*dispatch.Enum).Fields[0].(*nn.Param).Val(w)).(*dispatch.Tensor)
	if !known(w, bt) {
		t.Error("the bias lost its values")
	}
}

// known reports whether the engine knows a tensor's values: the
// to_vec of its data is a Vec.
func known(w *dispatch.World, t *dispatch.Tensor) bool {
	data, err := w.Call(dispatch.Call{Recv: t, Method: "into_data"})
	if err != nil {
		return false
	}
	v, err := w.Call(dispatch.Call{Recv: data, Method: "to_vec", Generics: [][]string{{"f32"}}})
	en, ok := v.(*dispatch.Enum)
	if err != nil || !ok || en.Variant != "Ok" || len(en.Fields) != 1 {
		return false
	}
	_, isVec := en.Fields[0].(*dispatch.Array)
	return isVec
}

// TestUnknownGrads: a step on gradients the engine does not know leaves
// every float param without values, and the next step, on known
// gradients, computes from a state whose values are unknown.
func TestUnknownGrads(t *testing.T) {
	cfg, _ := config.Parse("[dependencies]\nburn = { version = \"0.22\", features = [\"flex\", \"autodiff\"] }\n")
	w := dispatch.NewWorld(cfg.Dispatch)
	must := func(v dispatch.Value, err error) dispatch.Value {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	model := func(c dispatch.Call) dispatch.Value {
		t.Helper()
		v, _, err := nn.Call(w, c, nil)
		return must(v, err)
	}
	dev := must(w.Call(dispatch.Call{Recv: must(w.Call(dispatch.Call{Path: []string{"Device", "flex"}})), Method: "autodiff"}))
	usize := func(n int64) dispatch.Value { return dispatch.Int{V: n, Suffix: "usize"} }
	lin := model(dispatch.Call{Recv: model(dispatch.Call{Path: []string{"LinearConfig", "new"}, Args: []dispatch.Value{usize(2), usize(1)}}),
		Method: "init", Args: []dispatch.Value{&dispatch.Ref{V: dev}}})
	optim := must(initOptimizer(w, model(dispatch.Call{Path: []string{"AdamConfig", "new"}}).(*nn.Config), nil))
	weightOf := func(m dispatch.Value) *dispatch.Tensor {
		weight, _ := nn.Field(m, "weight")
		return must(weight.(*nn.Param).Val(w)).(*dispatch.Tensor)
	}
	grads := func(m dispatch.Value) *GradientsParams {
		x := must(w.Call(dispatch.Call{Path: []string{"Tensor", "ones"}, Generics: [][]string{{"2"}, nil},
			Args: []dispatch.Value{&dispatch.Array{Elems: []dispatch.Value{usize(1), usize(2)}}, &dispatch.Ref{V: dev}}}))
		loss := must(w.Call(dispatch.Call{Recv: model(dispatch.Call{Recv: m, Method: "forward", Args: []dispatch.Value{x}}), Method: "sum"}))
		gp, err := FromModule(w, nil, must(w.Call(dispatch.Call{Recv: loss, Method: "backward"})), m, nil)
		if err != nil {
			t.Fatal(err)
		}
		return gp
	}
	// A known step first, so the optimizer holds a state.
	lin = must(Step(w, nil, optim, f64v(0.1), lin, grads(lin)))
	if !known(w, weightOf(lin)) {
		t.Fatal("a known step lost the weight's values")
	}
	stepped := must(Step(w, nil, optim, f64v(0.1), lin, dispatch.Unknown{}))
	if known(w, weightOf(stepped)) {
		t.Error("the weight kept values after a step on unknown gradients")
	}
	// The params before that step, known, stepped again with known
	// gradients: their states missed a step the engine could not follow.
	again := must(Step(w, nil, optim, f64v(0.1), lin, grads(lin)))
	if known(w, weightOf(again)) {
		t.Error("a step from a state that missed an unknown step gave known values")
	}
	// An unknown model steps to an unknown one, without an error.
	if v, err := Step(w, nil, optim, f64v(0.1), dispatch.Unknown{}, grads(lin)); err != nil || v != (dispatch.Unknown{}) {
		t.Errorf("unknown model: %v, %v", v, err)
	}
}

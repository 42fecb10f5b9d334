package dispatch

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// The activations of activation/base.rs that the engine composes or
// dispatches: values worked by hand (in f64, then compared within f32's
// precision), the trace ops of each composition, and the checks.
func TestMoreActivations(t *testing.T) {
	fx := newOpFixture(t)
	x := func() *Tensor { return fx.floats("1", arr(f(-2), f(-0.5), f(0), f(1.5))) }
	act := func(name string, args ...Value) Call {
		return Call{Path: []string{"burn", "tensor", "activation", name}, Args: append([]Value{x()}, args...)}
	}
	cases := []struct {
		name string
		call Call
		want []float64
		ops  string // the ops dispatched after the input's creation
	}{
		{"log_sigmoid", act("log_sigmoid"), []float64{-2.126928, -0.974077, -0.693147, -0.201413}, "log_sigmoid"},
		{"hard_sigmoid", act("hard_sigmoid", f(0.2), f(0.5)), []float64{0.1, 0.4, 0.5, 0.8}, "hard_sigmoid"},
		{"hardtanh", act("hardtanh", f(-1), f(1)), []float64{-1, -0.5, 0, 1}, "float_clamp"},
		{"relu6", Call{Path: []string{"activation", "relu6"}, Args: []Value{fx.floats("1", arr(f(-1), f(3), f(7)))}}, []float64{0, 3, 6}, "float_clamp"},
		{"tanhshrink", act("tanhshrink"), []float64{-1.035972, -0.037883, 0, 0.594852}, "float_tanh float_sub"},
		{"softplus", act("softplus", f(2)), []float64{0.009075, 0.156631, 0.346574, 1.524294},
			"float_mul_scalar float_exp float_add_scalar float_log float_div_scalar"},
		{"mish", act("mish"), []float64{-0.252501, -0.220744, 0, 1.403378},
			"float_mul_scalar float_exp float_add_scalar float_log float_div_scalar float_tanh float_mul"},
		{"elu", act("elu", f(1)), []float64{-0.864665, -0.393469, 0, 1.5},
			"float_lower_equal_elem float_exp float_sub_scalar float_mul_scalar float_mask_where"},
		{"celu", act("celu", f(2)), []float64{-1.264241, -0.442398, 0, 1.5},
			"float_lower_equal_elem float_div_scalar float_exp float_sub_scalar float_mul_scalar float_mask_where"},
		{"selu", act("selu"), []float64{-1.520167, -0.691758, 0, 1.576051},
			"float_greater_equal_elem float_mul_scalar float_exp float_sub_scalar float_mul_scalar float_mask_where"},
		{"thresholded_relu", act("thresholded_relu", f(0)), []float64{0, 0, 0, 1.5}, "float_lower_equal_elem float_mask_fill"},
		{"threshold", act("threshold", f(0), f(-9)), []float64{-9, -9, -9, 1.5}, "float_lower_equal_elem float_mask_fill"},
		{"softsign", act("softsign"), []float64{-0.666667, -0.333333, 0, 0.6}, "float_abs float_add_scalar float_div"},
		{"hard_swish", act("hard_swish"), []float64{-0.333333, -0.208333, 0, 1.125}, "hard_sigmoid float_mul"},
		{"hard_shrink", act("hard_shrink", f(0.5)), []float64{-2, 0, 0, 1.5}, "float_abs float_lower_equal_elem float_mask_fill"},
		{"soft_shrink", act("soft_shrink", f(0.5)), []float64{-1.5, 0, 0, 1},
			"float_abs float_sign float_mul_scalar float_sub float_lower_equal_elem float_mask_fill"},
		{"gelu_approximate", act("gelu_approximate"), []float64{-0.045402, -0.154286, 0, 1.399572},
			"float_powf_scalar float_mul_scalar float_add float_mul_scalar float_tanh float_add_scalar float_mul float_mul_scalar"},
		{"softmin", Call{Path: []string{"activation", "softmin"}, Args: []Value{fx.floats("1", arr(f(1), f(2), f(3))), i(-1)}},
			[]float64{0.665241, 0.244728, 0.090031}, "softmin"},
		{"quiet_softmax", Call{Path: []string{"activation", "quiet_softmax"}, Args: []Value{fx.floats("1", arr(f(1), f(2), f(3))), i(0)}},
			[]float64{0.087144, 0.236883, 0.643914}, "float_detach float_max_dim float_sub float_exp float_sum_dim float_neg float_exp float_add float_div"},
		{"glu", Call{Path: []string{"activation", "glu"}, Args: []Value{fx.floats("1", arr(f(1), f(2), f(3), f(4))), i(0)}},
			[]float64{0.952574, 1.964028}, "float_slice float_slice sigmoid float_mul"},
	}
	for _, c := range cases {
		before := len(fx.w.Trace())
		out, ok := mustCall(t, fx.w, c.call).(*Tensor)
		if !ok || out.vals() == nil {
			t.Errorf("%s: no values", c.name)
			continue
		}
		if out.vals().DType != tensor.F32 || len(out.vals().F) != len(c.want) {
			t.Errorf("%s: %s %v", c.name, out.vals().DType, out.vals().F)
			continue
		}
		for k, v := range out.vals().F {
			if v != float64(float32(v)) || math.Abs(v-c.want[k]) > 2e-6*math.Max(1, math.Abs(c.want[k])) {
				t.Errorf("%s[%d] = %v, want %v", c.name, k, v, c.want[k])
			}
		}
		var ops []string
		for _, e := range fx.w.Trace()[before:] {
			if e.Op != "float_from_data" {
				ops = append(ops, e.Op)
			}
		}
		if got := strings.Join(ops, " "); got != c.ops {
			t.Errorf("%s dispatches %q, want %q", c.name, got, c.ops)
		}
	}
	// glu's assert (base.rs:550) after its dim check (base.rs:549).
	odd := fx.floats("2", arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6))))
	p := mustPanic(t, fx.w, Call{Path: []string{"activation", "glu"}, Args: []Value{odd, i(1)}})
	if p.Message != "Input tensor along dimension 1 must have an even size. N is divisible by 2." ||
		p.Location != "crates/burn-tensor/src/tensor/activation/base.rs:550" {
		t.Errorf("glu of an odd dim: %q at %s", p.Message, p.Location)
	}
	p = mustPanic(t, fx.w, Call{Path: []string{"activation", "glu"}, Args: []Value{odd, i(2)}})
	if !strings.Contains(p.Message, "Operation: 'GLU'") {
		t.Errorf("glu of dim 2 of a rank-2 tensor: %q", p.Message)
	}
	p = mustPanic(t, fx.w, Call{Path: []string{"activation", "quiet_softmax"}, Args: []Value{odd, i(-3)}})
	if !strings.Contains(p.Message, "Operation: 'Quiet Softmax'") {
		t.Errorf("quiet_softmax of dim -3: %q", p.Message)
	}
	if _, err := fx.w.Call(Call{Path: []string{"activation", "elu"}, Args: []Value{fx.ints("1", arr(i(1))), f(1)}}); err == nil {
		t.Error("elu of an Int tensor ran")
	}
}

// Each composed activation against its formula at random points, and the
// gradient of elu through its composition (mask_where routes the upstream
// gradient to x where x > 0 and to alpha * exp(x) elsewhere).
func TestMoreActivationsAgainstFormulas(t *testing.T) {
	fx := newOpFixture(t, "autodiff")
	r := rand.New(rand.NewPCG(3, 5))
	sig := func(a float64) float64 { return 1 / (1 + math.Exp(-a)) }
	formulas := map[string]func(a float64) float64{
		"log_sigmoid": func(a float64) float64 { return math.Log(sig(a)) },
		"tanhshrink":  func(a float64) float64 { return a - math.Tanh(a) },
		"mish":        func(a float64) float64 { return a * math.Tanh(math.Log1p(math.Exp(a))) },
		"selu": func(a float64) float64 {
			if a >= 0 {
				return seluGamma * a
			}
			return seluAlpha * seluGamma * (math.Exp(a) - 1)
		},
		"softsign":   func(a float64) float64 { return a / (1 + math.Abs(a)) },
		"hard_swish": func(a float64) float64 { return a * math.Min(1, math.Max(0, a/6+0.5)) },
	}
	for name, want := range formulas {
		xs := &Array{}
		vals := make([]float64, 32)
		for k := range vals {
			vals[k] = float64(float32(r.Float64()*8 - 4))
			xs.Elems = append(xs.Elems, f(vals[k]))
		}
		out := mustCall(t, fx.w, Call{Path: []string{"activation", name}, Args: []Value{fx.floats("1", xs)}}).(*Tensor)
		for k, v := range out.vals().F {
			if w := want(vals[k]); math.Abs(v-w) > 1e-5*math.Max(1, math.Abs(w)) {
				t.Errorf("%s(%v) = %v, want %v", name, vals[k], v, w)
			}
		}
	}
	ad := mustCall(t, fx.w, method(fx.d, "autodiff")).(*Device)
	leaf := mustCall(t, fx.w, fnG("Tensor::from_floats", []string{"1"}, arr(f(-1), f(2)), ref(ad))).(*Tensor)
	x := mustCall(t, fx.w, method(leaf, "require_grad")).(*Tensor)
	y := mustCall(t, fx.w, Call{Path: []string{"activation", "elu"}, Args: []Value{x, f(0.5)}}).(*Tensor)
	grads := mustCall(t, fx.w, method(mustCall(t, fx.w, method(y, "sum")), "backward"))
	g := mustCall(t, fx.w, method(x, "grad", ref(grads)))
	gt, ok := Deref(g).(*Enum)
	if !ok || gt.Variant != "Some" {
		t.Fatalf("grad of elu: %v", g)
	}
	gv := Deref(gt.Fields[0]).(*Tensor).vals().F
	if math.Abs(gv[0]-0.5*math.Exp(-1)) > 1e-6 || gv[1] != 1 {
		t.Errorf("grad of elu(0.5) at [-1, 2] = %v, want [%v, 1]", gv, 0.5*math.Exp(-1))
	}
}

// cross_entropy_with_logits (loss/mod.rs:22-31): the mean over the batch
// of -sum(targets * log_softmax(logits)), worked by hand.
func TestCrossEntropyWithLogits(t *testing.T) {
	fx := newOpFixture(t)
	logits := fx.floats("2", arr(arr(f(1), f(2), f(3)), arr(f(0), f(0), f(0))))
	targets := fx.floats("2", arr(arr(f(0), f(0), f(1)), arr(f(0.5), f(0.5), f(0))))
	before := len(fx.w.Trace())
	out := mustCall(t, fx.w, Call{Path: []string{"burn", "tensor", "loss", "cross_entropy_with_logits"}, Args: []Value{logits, targets}}).(*Tensor)
	// Row 0: log(e + e^2 + e^3) - 3; row 1: log 3.
	want := (math.Log(math.E+math.Exp(2)+math.Exp(3)) - 3 + math.Log(3)) / 2
	if out.vals() == nil || !sameShape(out.shape, []int64{1}) || math.Abs(out.vals().F[0]-want) > 1e-6 {
		t.Errorf("cross_entropy_with_logits = %v %v, want [%v]", out.shape, out.vals(), want)
	}
	if got := lastOps(fx.w, len(fx.w.Trace())-before); got != "log_softmax float_mul float_sum_dim float_mean float_neg" {
		t.Errorf("cross_entropy_with_logits dispatches %q", got)
	}
}

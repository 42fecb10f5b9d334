package dispatch

import (
	"math"
	"slices"
	"testing"

	"github.com/dispatch-playground/playground/engine/tensor"
)

func TestModulePools(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x3 := ones(t, w, d, "", 1, 2, 5)
	x4 := ones(t, w, d, "", 1, 1, 3, 3)
	b := func(v bool) Bool { return Bool(v) }
	cases := []struct {
		call   Call
		shape  []int64
		op     string
		values []float64 // nil: not checked
	}{
		{fn("burn::tensor::module::max_pool1d", x3, i(2), i(2), i(0), i(1), b(true)), []int64{1, 2, 3}, "max_pool1d", nil},
		{fn("max_pool2d", x4, dims(2, 2), dims(1, 1), dims(0, 0), dims(1, 1), b(false)), []int64{1, 1, 2, 2}, "max_pool2d", []float64{1, 1, 1, 1}},
		{fn("avg_pool1d", x3, i(3), i(1), i(1), b(false), b(false)), []int64{1, 2, 5}, "avg_pool1d", nil},
		// Counting the padding, a corner of 2x2 ones over a 3x3 window is 4/9.
		{fn("avg_pool2d", x4, dims(3, 3), dims(2, 2), dims(1, 1), b(true), b(false)), []int64{1, 1, 2, 2}, "avg_pool2d",
			[]float64{4.0 / 9, 4.0 / 9, 4.0 / 9, 4.0 / 9}},
		{fn("avg_pool2d", x4, dims(3, 3), dims(2, 2), dims(1, 1), b(false), b(false)), []int64{1, 1, 2, 2}, "avg_pool2d", []float64{1, 1, 1, 1}},
		{fn("adaptive_avg_pool1d", x3, i(7)), []int64{1, 2, 7}, "adaptive_avg_pool1d", nil},
		{fn("adaptive_avg_pool2d", x4, dims(1, 2)), []int64{1, 1, 1, 2}, "adaptive_avg_pool2d", []float64{1, 1}},
		{fn("adaptive_avg_pool3d", ones(t, w, d, "", 1, 1, 2, 3, 4), dims(1, 1, 2)), []int64{1, 1, 1, 1, 2}, "adaptive_avg_pool3d", []float64{1, 1}},
	}
	for _, c := range cases {
		v := mustCall(t, w, c.call).(*Tensor)
		if !slices.Equal(v.Shape(), c.shape) {
			t.Errorf("%s: shape %v, want %v", describe(c.call), v.Shape(), c.shape)
		}
		if last := w.Trace()[len(w.Trace())-1]; last.Op != c.op {
			t.Errorf("%s: trace op %s, want %s", describe(c.call), last.Op, c.op)
		}
		if c.values != nil {
			got := v.floatValues()
			if len(got) != len(c.values) {
				t.Fatalf("%s: values %v, want %v", describe(c.call), got, c.values)
			}
			for k := range got {
				if d := got[k] - c.values[k]; d > 1e-6 || d < -1e-6 {
					t.Errorf("%s: values %v, want %v", describe(c.call), got, c.values)
					break
				}
			}
		}
	}

	pair := mustCall(t, w, fn("max_pool2d_with_indices", x4, dims(2, 2), dims(1, 1), dims(0, 0), dims(1, 1), b(false))).(Tuple)
	out, idx := pair[0].(*Tensor), pair[1].(*Tensor)
	if out.kind != KindFloat || idx.kind != KindInt || idx.dtype != w.defaultsFor(d).int || !slices.Equal(idx.Shape(), []int64{1, 1, 2, 2}) {
		t.Errorf("with_indices = %s, %s", Debug(out), Debug(idx))
	}
	// Equal maxima: each window keeps its first element.
	if got := idx.floatValues(); !slices.Equal(got, []float64{0, 1, 3, 4}) {
		t.Errorf("indices %v, want [0 1 3 4]", got)
	}

	p := mustPanic(t, w, fn("max_pool1d", x3, i(2), i(0), i(0), i(1), b(false)))
	if p.Message != "pool: stride must be > 0" || p.Location != "crates/burn-flex/src/ops/pool.rs:145" {
		t.Errorf("stride 0: %q at %s", p.Message, p.Location)
	}
	ue := mustReject(t, w, fn("max_pool2d", x3, dims(2, 2), dims(1, 1), dims(0, 0), dims(1, 1), b(false)))
	if ue.Code != "wrong-arguments" {
		t.Errorf("rank-3 max_pool2d: %+v", ue)
	}
}

func TestModuleInterpolate(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x := ones(t, w, d, "", 1, 2, 3, 3)
	opts := mustCall(t, w, fn("InterpolateOptions::new", enum("InterpolateMode", "Bilinear")))
	half := mustCall(t, w, method(opts, "with_align_corners", Bool(false))).(*InterpolateOptions)
	if !opts.(*InterpolateOptions).alignCorners || half.alignCorners || half.mode != "Bilinear" {
		t.Errorf("options %+v then %+v", opts, half)
	}
	out := mustCall(t, w, fn("burn::tensor::module::interpolate", x, dims(5, 4), half)).(*Tensor)
	if !slices.Equal(out.Shape(), []int64{1, 2, 5, 4}) || w.Trace()[len(w.Trace())-1].Op != "interpolate" {
		t.Errorf("interpolate: %v, op %s", out.Shape(), w.Trace()[len(w.Trace())-1].Op)
	}
	if v := out.floatValues(); len(v) != 40 || v[0] != 1 || v[39] != 1 {
		t.Errorf("interpolating ones: %v", v)
	}
	exact := mustCall(t, w, fn("InterpolateOptions::new", enum("InterpolateMode", "NearestExact")))
	p := mustPanic(t, w, fn("interpolate", x, dims(5, 4), exact))
	if p.Message != "interpolate: unsupported mode NearestExact / dtype F32" || p.Location != "crates/burn-flex/src/ops/module.rs:601" {
		t.Errorf("NearestExact: %q at %s", p.Message, p.Location)
	}
	if ue := mustReject(t, w, fn("InterpolateOptions::new", i(1))); ue.Code != "wrong-arguments" {
		t.Errorf("InterpolateOptions::new(1): %+v", ue)
	}
}

func TestModuleCTCLoss(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	// Every log-probability 1, input length 1: the label at t=0 alone, loss -1.
	lp, targets, lengths := ones(t, w, d, "", 3, 1, 2), ones(t, w, d, "Int", 1, 1), ones(t, w, d, "Int", 1)
	out := mustCall(t, w, fn("burn::tensor::module::ctc_loss", lp, targets, lengths, lengths, i(0))).(*Tensor)
	if !slices.Equal(out.Shape(), []int64{1}) || w.Trace()[len(w.Trace())-1].Op != "ctc_loss" {
		t.Errorf("ctc_loss: %v, op %s", out.Shape(), w.Trace()[len(w.Trace())-1].Op)
	}
	if v := out.floatValues(); len(v) != 1 || v[0] != -1 {
		t.Errorf("ctc_loss values %v, want [-1]", v)
	}
	if ue := mustReject(t, w, fn("ctc_loss", lp, lp, lengths, lengths, i(0))); ue.Code != "wrong-arguments" {
		t.Errorf("float targets: %+v", ue)
	}
}

func TestModuleAttention(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	q, k, v := ones(t, w, d, "", 1, 2, 3, 4), ones(t, w, d, "", 1, 2, 5, 4), ones(t, w, d, "", 1, 2, 5, 6)
	none := enum("Option", "None")
	def := &Enum{Type: "Default", Variant: "default"}
	out := mustCall(t, w, fn("burn::tensor::module::attention", q, k, v, none, none, def)).(*Tensor)
	if !slices.Equal(out.Shape(), []int64{1, 2, 3, 6}) || w.Trace()[len(w.Trace())-1].Op != "attention" {
		t.Errorf("attention: %v, op %s", out.Shape(), w.Trace()[len(w.Trace())-1].Op)
	}
	if vals := out.floatValues(); len(vals) != 36 || vals[0] != 1 {
		t.Errorf("attention over ones: %v", vals)
	}
	before := len(w.Trace())
	causal := &Enum{Type: "ops", Variant: "AttentionModuleOptions", Named: map[string]Value{"is_causal": Bool(true)}}
	mustCall(t, w, fn("attention_fallback", q, k, v, none, none, causal))
	var ops []string
	for _, ev := range w.Trace()[before:] {
		ops = append(ops, ev.Op)
	}
	if len(ops) != 20 || ops[0] != "float_transpose" || ops[1] != "float_matmul" || ops[11] != "float_mask_fill" || ops[19] != "float_matmul" {
		t.Errorf("attention_fallback trace %v", ops)
	}
	soft := &Enum{Type: "AttentionModuleOptions", Variant: "AttentionModuleOptions",
		Named: map[string]Value{"softcap": enum("Option", "Some", f(-1))}}
	p := mustPanic(t, w, fn("attention", q, k, v, none, none, soft))
	if p.Message != "softcap must be positive, got -1" || p.Location != "crates/burn-flex/src/ops/attention.rs:701" {
		t.Errorf("softcap -1: %q at %s", p.Message, p.Location)
	}
	bad := enum("Option", "Some", ones(t, w, d, "", 1, 2, 3, 2))
	p = mustPanic(t, w, fn("attention", q, k, v, none, bad, def))
	if p.Message != "attention: bias dim 3 must be 5 or 1, got 2" {
		t.Errorf("bias [1, 2, 3, 2]: %q", p.Message)
	}
}

func TestModuleConvValues(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	opts := mustCall(t, w, fn("ConvOptions::new", dims(1, 1), dims(1, 1), dims(1, 1), i(1)))
	bias := enum("Option", "Some", ones(t, w, d, "", 2))
	out := mustCall(t, w, fn("conv2d", ones(t, w, d, "", 1, 3, 4, 4), ones(t, w, d, "", 2, 3, 3, 3), bias, opts)).(*Tensor)
	// A corner of the padded input sees 2x2 of the 3x3 kernel, over 3 channels, plus the bias.
	if v := out.floatValues(); len(v) != 32 || v[0] != 13 || v[5] != 28 {
		t.Errorf("conv2d values %v", v)
	}
	for _, c := range []struct {
		call Call
		msg  string
	}{
		{fn("ConvOptions::new", dims(1, 0), dims(0, 0), dims(0, 1), i(0)), "stride must be non-zero"},
		{fn("ConvOptions::new", dims(1, 1), dims(0, 0), dims(0, 1), i(0)), "dilation must be non-zero"},
		{fn("ConvTransposeOptions::new", dims(1, 1), dims(0, 0), dims(0, 0), dims(1, 1), i(0)), "groups must be non-zero"},
	} {
		p := mustPanic(t, w, c.call)
		if p.Message != c.msg || p.Location != "crates/burn-std/src/ops.rs:9" {
			t.Errorf("%s: %q at %s, want %q", describe(c.call), p.Message, p.Location, c.msg)
		}
	}
}

func TestModuleDeformConv2d(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	opts := mustCall(t, w, fn("DeformConvOptions::new", dims(1, 1), dims(0, 0), dims(1, 1), i(1), i(1)))
	x, weight := ones(t, w, d, "", 1, 2, 4, 4), ones(t, w, d, "", 3, 2, 3, 3)
	// Zero offsets: a plain 3x3 convolution of ones over 2 channels, 18.
	offset := mustCall(t, w, fnG("Tensor::zeros", []string{"4"}, dims(1, 18, 2, 2), ref(d))).(*Tensor)
	none := enum("Option", "None")
	out := mustCall(t, w, fn("burn::tensor::module::deform_conv2d", x, offset, weight, none, none, opts)).(*Tensor)
	if !slices.Equal(out.Shape(), []int64{1, 3, 2, 2}) || w.Trace()[len(w.Trace())-1].Op != "deform_conv2d" {
		t.Errorf("deform_conv2d: %v, op %s", out.Shape(), w.Trace()[len(w.Trace())-1].Op)
	}
	if v := out.floatValues(); len(v) != 12 || v[0] != 18 || v[11] != 18 {
		t.Errorf("deform_conv2d values %v", v)
	}
	p := mustPanic(t, w, fn("DeformConvOptions::new", dims(1, 1), dims(0, 0), dims(1, 1), i(1), i(0)))
	if p.Message != "offset groups must be non-zero" {
		t.Errorf("offset groups 0: %q", p.Message)
	}
	// TensorCheck::conv with the weight groups: 2 channels, 3 per group of 1.
	p = mustPanic(t, w, fn("deform_conv2d", x, offset, ones(t, w, d, "", 3, 3, 3, 3), none, none, opts))
	if p.Location != "crates/burn-tensor/src/tensor/module.rs:220" {
		t.Errorf("channel mismatch: %q at %s", p.Message, p.Location)
	}
}

func TestModuleUnfoldFoldEmbedding(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	opts := mustCall(t, w, fn("UnfoldOptions::new", dims(1, 1), dims(0, 0), dims(1, 1)))
	cols := mustCall(t, w, fn("burn::tensor::module::unfold4d", ones(t, w, d, "", 1, 2, 3, 3), dims(2, 2), opts)).(*Tensor)
	if !slices.Equal(cols.Shape(), []int64{1, 8, 4}) || w.Trace()[len(w.Trace())-1].Op != "unfold4d" {
		t.Errorf("unfold4d: %v, op %s", cols.Shape(), w.Trace()[len(w.Trace())-1].Op)
	}
	before := len(w.Trace())
	img := mustCall(t, w, fn("fold4d", cols, dims(3, 3), dims(2, 2), opts)).(*Tensor)
	var ops []string
	for _, ev := range w.Trace()[before:] {
		ops = append(ops, ev.Op)
	}
	if !slices.Equal(img.Shape(), []int64{1, 2, 3, 3}) || !slices.Equal(ops, []string{"float_from_data", "float_reshape", "conv_transpose2d"}) {
		t.Errorf("fold4d: %v, ops %v", img.Shape(), ops)
	}
	// The centre of 3x3 is in all four 2x2 blocks.
	if v := img.floatValues(); len(v) != 18 || v[4] != 4 || v[0] != 1 {
		t.Errorf("fold4d values %v", v)
	}
	p := mustPanic(t, w, fn("fold4d", cols, dims(4, 4), dims(2, 2), opts))
	want := "assertion `left == right` failed: fold4d: number of blocks (4) does not match the expected grid (3 x 3) for the given output size and options\n  left: 4\n right: 9"
	if p.Message != want || p.Location != "crates/burn-backend/src/backend/ops/modules/base.rs:547" {
		t.Errorf("fold4d to 4x4: %q at %s", p.Message, p.Location)
	}
	if p := mustPanic(t, w, fn("UnfoldOptions::new", dims(1, 1), dims(0, 0), dims(1, 0))); p.Message != "dilation must be non-zero" {
		t.Errorf("dilation 0: %q", p.Message)
	}
	emb := mustCall(t, w, fn("embedding", ones(t, w, d, "", 4, 3), ones(t, w, d, "Int", 2, 5))).(*Tensor)
	if !slices.Equal(emb.Shape(), []int64{2, 5, 3}) || w.Trace()[len(w.Trace())-1].Op != "embedding" || len(emb.floatValues()) != 30 {
		t.Errorf("embedding: %v, op %s", emb.Shape(), w.Trace()[len(w.Trace())-1].Op)
	}
}

func TestModuleBatchNorm(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x, c3 := ones(t, w, d, "", 2, 3, 4), ones(t, w, d, "", 3)
	// (1 - 1) / sqrt(1 + 3) * 1 + 1 = 1.
	out := mustCall(t, w, fn("burn::tensor::module::batch_norm", x, c3, c3, c3, c3, f(3))).(*Tensor)
	if !slices.Equal(out.Shape(), []int64{2, 3, 4}) || w.Trace()[len(w.Trace())-1].Op != "batch_norm" || out.floatValues()[0] != 1 {
		t.Errorf("batch_norm: %v, op %s, %v", out.Shape(), w.Trace()[len(w.Trace())-1].Op, out.floatValues())
	}
	p := mustPanic(t, w, fn("batch_norm", x, c3, c3, ones(t, w, d, "", 4), c3, f(1e-5)))
	want := "assertion `left == right` failed: invalid batch norm mean shape\n  left: [4]\n right: [3]"
	if p.Message != want || p.Location != "crates/burn-tensor/src/tensor/module.rs:34" {
		t.Errorf("mean of 4: %q at %s", p.Message, p.Location)
	}
}

// TestModuleFunctionsStayInBudget runs module functions whose work is far
// beyond the run's budget: the outputs keep their shapes and carry no
// values, and the run says values were elided.
func TestModuleFunctionsStayInBudget(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	none := enum("Option", "None")
	// 1x64x100x100 with a 64x64x9x9 kernel: 3.3*10^9 multiply-adds, 640,000 elements.
	x := ones(t, w, d, "", 1, 64, 100, 100)
	weight := ones(t, w, d, "", 64, 64, 9, 9)
	opts := mustCall(t, w, fn("ConvOptions::new", dims(1, 1), dims(4, 4), dims(1, 1), i(1)))
	conv := mustCall(t, w, fn("conv2d", x, weight, none, opts)).(*Tensor)
	pooled := mustCall(t, w, fn("max_pool2d", x, dims(50, 50), dims(1, 1), dims(0, 0), dims(1, 1), Bool(false))).(*Tensor)
	if !slices.Equal(conv.Shape(), []int64{1, 64, 100, 100}) || conv.vals() != nil || pooled.vals() != nil || !w.budget.Elided() {
		t.Errorf("over budget: conv %v values %v, pool values %v, elided %v", conv.Shape(), conv.vals() != nil, pooled.vals() != nil, w.budget.Elided())
	}
	if w.budget.WorkUsed() > tensor.DefaultWork {
		t.Errorf("work used %d", w.budget.WorkUsed())
	}
}

func TestModuleConvAsymmetricPadding(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	none := enum("Option", "None")
	// Length 4 padded by 2 on the left only: a kernel of 3 gives 4 outputs,
	// the first seeing one input.
	opts := mustCall(t, w, fn("PaddedConvOptions::asymmetric", dims(1), dims(2), dims(0), dims(1), i(1)))
	x, k := ones(t, w, d, "", 1, 1, 4), ones(t, w, d, "", 1, 1, 3)
	before := len(w.Trace())
	out := mustCall(t, w, fn("conv1d", x, k, none, opts)).(*Tensor)
	var ops []string
	for _, ev := range w.Trace()[before:] {
		ops = append(ops, ev.Op)
	}
	if !slices.Equal(out.Shape(), []int64{1, 1, 4}) || !slices.Equal(out.floatValues(), []float64{1, 2, 3, 3}) ||
		!slices.Equal(ops, []string{"float_full", "float_slice_assign", "conv1d"}) {
		t.Errorf("asymmetric conv1d: %v %v, ops %v", out.Shape(), out.floatValues(), ops)
	}
	same := mustCall(t, w, fn("PaddedConvOptions::asymmetric", dims(1, 1), dims(1, 1), dims(1, 1), dims(1, 1), i(1))).(*ConvOptions)
	if same.paddingEnd != nil || same.TypeName() != "PaddedConvOptions" {
		t.Errorf("equal ends: %+v", same)
	}
	asym := mustCall(t, w, fn("PaddedConvOptions::asymmetric", dims(1, 1, 1), dims(0, 0, 0), dims(1, 0, 0), dims(1, 1, 1), i(1)))
	p := mustPanic(t, w, fn("conv3d", ones(t, w, d, "", 1, 1, 3, 3, 3), ones(t, w, d, "", 1, 1, 2, 2, 2), none, asym))
	if p.Message != "Asymmetric padding is not yet supported for conv3d" || p.Location != "crates/burn-tensor/src/tensor/module.rs:200" {
		t.Errorf("conv3d asymmetric: %q at %s", p.Message, p.Location)
	}
}

func TestModuleInterpolateOptionsLiteral(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	lit := &Enum{Type: "ops", Variant: "InterpolateOptions", Named: map[string]Value{
		"mode": enum("InterpolateMode", "Nearest"), "align_corners": Bool(false)}}
	out := mustCall(t, w, fn("interpolate", ones(t, w, d, "", 1, 1, 2, 2), dims(4, 4), lit)).(*Tensor)
	if !slices.Equal(out.Shape(), []int64{1, 1, 4, 4}) || len(out.floatValues()) != 16 {
		t.Errorf("interpolate with a literal: %v", out.Shape())
	}
	bad := &Enum{Type: "ops", Variant: "InterpolateOptions", Named: map[string]Value{"mode": enum("InterpolateMode", "Nearest")}}
	if ue := mustReject(t, w, fn("interpolate", ones(t, w, d, "", 1, 1, 2, 2), dims(4, 4), bad)); ue.Code != "wrong-arguments" {
		t.Errorf("a literal without align_corners: %+v", ue)
	}
}

// TestAttentionFallbackRoutesEachOp: attention_fallback's ops are Dispatch
// ops of their own, so a value tensor on another backend fails at the
// last matmul, with binary_float!'s message, after the softmax ran.
func TestAttentionFallbackRoutesEachOp(t *testing.T) {
	w := world(t, "flex", "ndarray")
	flex, nd := device(t, w, "flex"), device(t, w, "ndarray")
	q, k := ones(t, w, flex, "", 1, 1, 2, 3), ones(t, w, flex, "", 1, 1, 2, 3)
	v := ones(t, w, nd, "", 1, 1, 2, 3)
	none := enum("Option", "None")
	p := mustPanic(t, w, fn("attention_fallback", q, k, v, none, none, &Enum{Type: "Default", Variant: "default"}))
	if last := w.Trace()[len(w.Trace())-1]; last.Op != "float_matmul" || last.Note != "panic" {
		t.Errorf("fallback failed at %s (%s): %q", last.Op, last.Note, p.Message)
	}
	if p.Input != 3 {
		t.Errorf("panic input %d, want 3 (value)", p.Input)
	}
}

func TestModuleLayerNorm(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x := mustCall(t, w, fnG("Tensor::from_floats", []string{"2"}, arr(arr(f(1), f(2), f(3)), arr(f(2), f(2), f(2))), ref(d))).(*Tensor)
	gamma, beta := ones(t, w, d, "", 3), ones(t, w, d, "", 3)
	out := mustCall(t, w, fn("burn::tensor::module::layer_norm", x, gamma, enum("Option", "Some", beta), f(0))).(*Tensor)
	// Row 1: mean 2, variance 2/3: (x - 2) / sqrt(2/3) + 1; row 2 is constant: 0/0.
	got := out.floatValues()
	r := 1 / math.Sqrt(2.0/3)
	if len(got) != 6 || math.Abs(got[0]-(1-r)) > 1e-6 || math.Abs(got[1]-1) > 1e-6 || math.Abs(got[2]-(1+r)) > 1e-6 || !math.IsNaN(got[3]) {
		t.Errorf("layer_norm values %v", got)
	}
	if w.Trace()[len(w.Trace())-1].Op != "layer_norm" {
		t.Errorf("op %s", w.Trace()[len(w.Trace())-1].Op)
	}
	p := mustPanic(t, w, fn("layer_norm", x, ones(t, w, d, "", 4), enum("Option", "None"), f(1e-5)))
	want := "layer_norm: gamma must be a 1-D tensor of length equal to last dim of input (got shape Shape { dims: [4] }, expected [3])"
	if p.Message != want || p.Location != "crates/burn-flex/src/ops/activation.rs:576" {
		t.Errorf("gamma of 4: %q at %s", p.Message, p.Location)
	}
}

func TestModuleBackwardFunctions(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x := ones(t, w, d, "", 1, 1, 3, 3)
	b := func(v bool) Bool { return Bool(v) }
	// Each 2x2 window of a 2x2 stride-1 pool spreads a quarter: the centre
	// is in four windows.
	grad := ones(t, w, d, "", 1, 1, 2, 2)
	g := mustCall(t, w, fn("burn::tensor::module::avg_pool2d_backward", x, grad, dims(2, 2), dims(1, 1), dims(0, 0), b(false), b(false))).(*Tensor)
	if v := g.floatValues(); !slices.Equal(g.Shape(), []int64{1, 1, 3, 3}) || len(v) != 9 || v[4] != 1 || v[0] != 0.25 || w.Trace()[len(w.Trace())-1].Op != "avg_pool2d_backward" {
		t.Errorf("avg_pool2d_backward: %v %v", g.Shape(), v)
	}
	pair := mustCall(t, w, fn("max_pool2d_with_indices", x, dims(2, 2), dims(1, 1), dims(0, 0), dims(1, 1), b(false))).(Tuple)
	g = mustCall(t, w, fn("max_pool2d_with_indices_backward", x, dims(2, 2), dims(1, 1), dims(0, 0), dims(1, 1), b(false), grad, pair[1])).(*Tensor)
	// Equal maxima: every window's gradient goes to its first element.
	if v := g.floatValues(); !slices.Equal(v, []float64{1, 1, 0, 1, 1, 0, 0, 0, 0}) {
		t.Errorf("max_pool2d_with_indices_backward: %v", v)
	}
	opts := mustCall(t, w, fn("ConvOptions::new", dims(1, 1), dims(0, 0), dims(1, 1), i(1)))
	g = mustCall(t, w, fn("conv2d_weight_backward", x, ones(t, w, d, "", 1, 1, 2, 2), grad, opts)).(*Tensor)
	// Each weight tap sums the input over the four output positions.
	if v := g.floatValues(); !slices.Equal(g.Shape(), []int64{1, 1, 2, 2}) || !slices.Equal(v, []float64{4, 4, 4, 4}) {
		t.Errorf("conv2d_weight_backward: %v %v", g.Shape(), v)
	}
	adx := mustCall(t, w, method(d, "autodiff")).(*Device)
	xa := ones(t, w, adx, "", 1, 1, 3, 3)
	p := mustPanic(t, w, fn("avg_pool2d_backward", xa, ones(t, w, adx, "", 1, 1, 2, 2), dims(2, 2), dims(1, 1), dims(0, 0), b(false), b(false)))
	if p.Message != "Can't differentiate avg pool 2d backward." {
		t.Errorf("avg_pool2d_backward on autodiff: %q", p.Message)
	}
}

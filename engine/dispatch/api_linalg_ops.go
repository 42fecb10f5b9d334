package dispatch

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// The burn::tensor::linalg functions burn-tensor composes from tensor
// methods (crates/burn-tensor/src/tensor/linalg/): each is modelled by
// calling those methods in Burn's order, so their values, gradients,
// routing and panics are the methods' own.

const locLinalg = "crates/burn-tensor/src/tensor/linalg/"

// linalgComposed are the functions modelled here.
var linalgComposed = map[string]bool{
	"outer": true, "outer_dim": true, "trace": true, "diag": true, "matvec": true, "cosine_similarity": true,
	"vector_norm": true, "lp_norm": true, "vector_normalize": true, "l0_norm": true, "l1_norm": true,
	"l2_norm": true, "max_abs_norm": true, "min_abs_norm": true,
}

// stepG is step with a method turbofish (`unsqueeze_dim::<3>`).
func (w *World) stepG(t *Tensor, method string, generics []string, args ...Value) (*Tensor, *UsageError, *Panic) {
	v, ue, p := w.tensorMethod(t, Call{Recv: t, Method: method, Args: args, Generics: [][]string{generics}})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out, ok := v.(*Tensor)
	if !ok {
		return nil, &UsageError{Code: "unsupported-api", Arg: -1, Message: "`" + method + "` returned no tensor"}, nil
	}
	return out, nil, nil
}

// linalgGeneric is the i-th const generic of the call's turbofish, else the
// rank the declared type names when i is the output's, else def.
func linalgGeneric(c Call, i, def int) int {
	g := lastGenerics(c)
	if i < len(g) {
		if n, err := strconv.Atoi(strings.TrimSpace(g[i])); err == nil {
			return n
		}
	}
	return def
}

// assertEqPanic is the message assert_eq! prints with a custom message.
func assertEqPanic(id, location string, left, right int, msg string) *Panic {
	return newPanic(id, location, fmt.Sprintf("assertion `left == right` failed: %s\n  left: %d\n right: %d", msg, left, right))
}

func (w *World) linalgComposedFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	want := map[string]int{"outer": 2, "outer_dim": 3, "trace": 1, "diag": 1, "matvec": 2, "cosine_similarity": 4,
		"vector_norm": 3, "lp_norm": 3, "vector_normalize": 4}[name]
	if want == 0 {
		want = 2 // the l*_norm and *_abs_norm functions: (x, dim)
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	t, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	rank := t.Rank()
	floatOnly := map[string]bool{"trace": true, "cosine_similarity": true, "vector_norm": true, "lp_norm": true,
		"vector_normalize": true, "l2_norm": true}
	if (floatOnly[name] && t.kind != KindFloat) || (name != "diag" && t.kind == KindBool) {
		return nil, errArgType(1, fmt.Sprintf("Tensor<%d>", rank), c.Args[0]), nil
	}
	dimArg := func(i int, method string) (int, *Panic, *UsageError) {
		d, ue := a.int(i)
		if ue != nil {
			return 0, nil, ue
		}
		dim, f := burncheck.TensorDim(method, d, rank)
		return dim, checkFailed(f), nil
	}
	switch name {
	case "outer", "outer_dim":
		o, ue := sameTensorArg(a, 1, t)
		if ue != nil {
			return nil, ue, nil
		}
		outRank := linalgGeneric(c, 1, -1)
		if outRank < 0 {
			if tt := parseTensorType(nil, c.Expect); tt.rank >= 0 {
				outRank = tt.rank
			} else {
				outRank = rank + 1
			}
		}
		// outer.rs:60-66: R == D + 1, then the dim.
		if outRank != rank+1 {
			return nil, nil, assertEqPanic("bt-linalg-outer-rank", locLinalg+"outer.rs:60", outRank, rank+1,
				fmt.Sprintf("`outer` with D=%d expects R=%d (got R=%d)", rank, rank+1, outRank))
		}
		dim := rank - 1
		if name == "outer_dim" {
			var p *Panic
			if dim, p, ue = dimArg(2, "linalg::outer_dim"); ue != nil || p != nil {
				return nil, ue, p
			}
		}
		r := []string{strconv.Itoa(outRank)}
		x, ue, p := w.stepG(t, "unsqueeze_dim", r, Int{V: int64(dim + 1)})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		y, ue, p := w.stepG(o, "unsqueeze_dim", r, Int{V: int64(dim)})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return w.tensorMethod(x, Call{Recv: x, Method: "mul", Args: []Value{y}})
	case "diag":
		return w.diag(t, linalgGeneric(c, 1, rank-1))
	case "trace":
		// trace.rs:20-22: diag, then sum_dim(DO - 1).
		outRank := linalgGeneric(c, 1, rank-1)
		d, ue, p := w.diag(t, outRank)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		dt := d.(*Tensor)
		return w.tensorMethod(dt, Call{Recv: dt, Method: "sum_dim", Args: []Value{Int{V: int64(outRank - 1)}}})
	case "matvec":
		return w.matvec(t, a, c)
	case "cosine_similarity":
		return w.cosineSimilarity(t, a)
	case "vector_norm", "lp_norm", "vector_normalize":
		method := map[string]string{"vector_norm": "linalg::vector_norm", "lp_norm": "linalg::lp_norm",
			"vector_normalize": "linalg::vector_normalize"}[name]
		p, ok := normExponent(a.get(1))
		if !ok {
			return nil, errArgType(2, "impl Into<Norm>", c.Args[1]), nil
		}
		dim, pn, ue := dimArg(2, method)
		if ue != nil || pn != nil {
			return nil, ue, pn
		}
		norm, ue, pn := w.lpNorm(t, p, dim)
		if ue != nil || pn != nil || name != "vector_normalize" {
			return norm, ue, pn
		}
		eps := a.get(3)
		if _, ok := scalarOf(eps); !ok {
			return nil, errArgType(4, "ElementConversion", c.Args[3]), nil
		}
		clamped, ue, pn := w.step(norm.(*Tensor), "clamp_min", eps)
		if ue != nil || pn != nil {
			return nil, ue, pn
		}
		return w.tensorMethod(t, Call{Recv: t, Method: "div", Args: []Value{clamped}})
	default:
		method := map[string]string{"l0_norm": "linalg::l0_norm", "l1_norm": "linalg::l1_norm", "l2_norm": "linalg::l2_norm",
			"max_abs_norm": "linalg::max_abs_norm", "min_abs_norm": "linalg::min_abs_norm"}[name]
		dim, p, ue := dimArg(1, method)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		exp := map[string]float64{"l0_norm": 0, "l1_norm": 1, "l2_norm": 2, "max_abs_norm": math.Inf(1), "min_abs_norm": math.Inf(-1)}[name]
		return w.lpNorm(t, exp, dim)
	}
}

// diag is linalg::diag::<D, DO> (diag.rs:22-41): the check, then a
// reshape to [.., rows * cols, 1], take of the indices k * (cols + 1) and
// a squeeze of the last dim.
func (w *World) diag(t *Tensor, outRank int) (Value, *UsageError, *Panic) {
	rank := t.Rank()
	if p := checkFailed(burncheck.LinalgDiag(rank, outRank)); p != nil {
		return nil, nil, p
	}
	rows, cols := t.shape[rank-2], t.shape[rank-1]
	flatShape := t.Shape()
	flatShape[rank-2], flatShape[rank-1] = rows*cols, 1
	flat, ue, p := w.step(t, "reshape", dims64(flatShape))
	if ue != nil || p != nil {
		return nil, ue, p
	}
	dev := t.Device()
	n := min(rows, cols)
	lo := int64(0)
	rng, ue, p := w.create("arange", tensorType{rank: 1, kind: KindInt}, []int64{n}, argList{c: Call{Args: []Value{&Range{Lo: &lo, Hi: &n}, dev}}}, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	stepT, ue, p := w.create("from_data", tensorType{rank: 1, kind: KindInt}, []int64{1},
		argList{c: Call{Args: []Value{&Array{Elems: []Value{Int{V: cols + 1, Suffix: "i64"}}}, dev}}}, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	indices, ue, p := w.step(rng.(*Tensor), "mul", stepT)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	taken, ue, p := w.stepG(flat, "take", []string{"1", strconv.Itoa(rank)}, Int{V: int64(rank - 2)}, indices)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.tensorMethod(taken, Call{Recv: taken, Method: "squeeze_dim", Args: []Value{Int{V: int64(rank - 1)}},
		Generics: [][]string{{strconv.Itoa(rank - 1)}}})
}

func dims64(shape []int64) *Array {
	out := &Array{}
	for _, s := range shape {
		out.Elems = append(out.Elems, Int{V: s})
	}
	return out
}

// matvec is linalg::matvec::<DM, DV> (matvec.rs:21-64): its four asserts,
// then matmul with the vector unsqueezed at DV and the last dim squeezed.
func (w *World) matvec(m *Tensor, a argList, c Call) (Value, *UsageError, *Panic) {
	v, ok := a.get(1).(*Tensor)
	if !ok || v.kind != m.kind {
		return nil, errArgType(2, "Tensor<DV, K>", c.Args[1]), nil
	}
	dm, dv := m.Rank(), v.Rank()
	loc := locLinalg + "matvec.rs:"
	if dm < 2 {
		return nil, nil, newPanic("bt-linalg-matvec-rank", loc+"25", fmt.Sprintf("matvec expects the matrix to be at least rank 2 (got %d)", dm))
	}
	if dm != dv+1 {
		return nil, nil, newPanic("bt-linalg-matvec-ranks", loc+"29",
			fmt.Sprintf("matvec expects the vector rank (%d) to be exactly one less than the matrix rank (%d)", dv, dm))
	}
	if batch := dm - 2; batch > 0 {
		mb, vb := m.shape[:batch], v.shape[:batch]
		for i := range mb {
			if mb[i] != vb[i] && mb[i] != 1 && vb[i] != 1 {
				return nil, nil, newPanic("bt-linalg-matvec-batch", loc+"43",
					fmt.Sprintf("Batch dimensions are not broadcast-compatible: matrix %s vs vector %s", dimsDebug(mb), dimsDebug(vb)))
			}
		}
	}
	if mi, vi := m.shape[dm-1], v.shape[dv-1]; mi != vi {
		return nil, nil, newPanic("bt-linalg-matvec-inner", loc+"53",
			fmt.Sprintf("Inner dimension mismatch: matrix has %d columns but vector has %d entries", mi, vi))
	}
	expanded, ue, p := w.stepG(v, "unsqueeze_dim", []string{strconv.Itoa(dm)}, Int{V: int64(dv)})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	prod, ue, p := w.step(m, "matmul", expanded)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.tensorMethod(prod, Call{Recv: prod, Method: "squeeze_dim", Args: []Value{Int{V: int64(dm - 1)}},
		Generics: [][]string{{strconv.Itoa(dv)}}})
}

// cosineSimilarity is linalg::cosine_similarity (cosine_similarity.rs:
// 23-43): sum of the product over dim, divided by the product of the two
// L2 norms, each clamped to eps (by default the dtype's smallest positive
// normal value).
func (w *World) cosineSimilarity(x1 *Tensor, a argList) (Value, *UsageError, *Panic) {
	x2, ue := sameTensorArg(a, 1, x1)
	if ue != nil {
		return nil, ue, nil
	}
	d, ue := a.int(2)
	if ue != nil {
		return nil, ue, nil
	}
	dim, f := burncheck.TensorDim("linalg::cosine_similarity", d, x1.Rank())
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	var eps Value
	switch e := a.get(3).(type) {
	case *Enum:
		switch {
		case e.Type == "Option" && e.Variant == "Some" && len(e.Fields) == 1:
			eps = Deref(e.Fields[0])
			if _, ok := scalarOf(eps); !ok {
				return nil, errArgType(4, "Option<f64>", a.c.Args[3]), nil
			}
		case e.Type == "Option" && e.Variant == "None":
			// FloatDType::finfo().min_positive (burn-std dtype.rs).
			switch x1.dtype {
			case "F64":
				eps = Float{V: 2.2250738585072014e-308}
			case "F16":
				eps = Float{V: 6.103515625e-05}
			case "BF16":
				eps = Float{V: 1.1754944e-38}
			default:
				eps = Float{V: float64(float32(1.1754944e-38))}
			}
		}
	}
	if eps == nil {
		return nil, errArgType(4, "Option<f64>", a.c.Args[3]), nil
	}
	prod, ue, p := w.step(x1, "mul", x2)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	dot, ue, p := w.step(prod, "sum_dim", Int{V: int64(dim)})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	n1, ue, p := w.l2Norm(x1, dim)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	n2, ue, p := w.l2Norm(x2, dim)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	c1, ue, p := w.step(n1, "clamp_min", eps)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	c2, ue, p := w.step(n2, "clamp_min", eps)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	den, ue, p := w.step(c1, "mul", c2)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.tensorMethod(dot, Call{Recv: dot, Method: "div", Args: []Value{den}})
}

// l2Norm is l2_norm_impl (vector_norm.rs:268-270): square, sum_dim, sqrt.
func (w *World) l2Norm(t *Tensor, dim int) (*Tensor, *UsageError, *Panic) {
	sq, ue, p := w.step(t, "square")
	if ue != nil || p != nil {
		return nil, ue, p
	}
	s, ue, p := w.step(sq, "sum_dim", Int{V: int64(dim)})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.step(s, "sqrt")
}

// normExponent is Into<Norm> then Norm::to_exponent (vector_norm.rs:9-95):
// a Norm variant, or a number (an integer's i32::MAX or u32::MAX is L∞,
// i32::MIN is L-∞).
func normExponent(v Value) (float64, bool) {
	switch x := Deref(v).(type) {
	case Int:
		switch {
		case x.V == math.MaxInt32 || x.V == math.MaxUint32:
			return math.Inf(1), true
		case x.V == math.MinInt32:
			return math.Inf(-1), true
		}
		return float64(x.V), true
	case Float:
		return x.V, true
	case *Enum:
		if x.Type != "Norm" {
			return 0, false
		}
		switch x.Variant {
		case "L0":
			return 0, true
		case "L1":
			return 1, true
		case "L2":
			return 2, true
		case "LInf":
			return math.Inf(1), true
		case "LNegInf":
			return math.Inf(-1), true
		case "Lp":
			if len(x.Fields) == 1 {
				if s, ok := scalarOf(x.Fields[0]); ok {
					return ifElse(s.IsInt, float64(s.I), s.F), true
				}
			}
		}
	}
	return 0, false
}

// normFunction is Norm::Lp(p).
func normFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "Lp" {
		return nil, errUnknownFunction("enum `Norm`", name), nil
	}
	if len(c.Args) != 1 {
		return nil, errArgCount(false, 1, len(c.Args)), nil
	}
	return &Enum{Type: "Norm", Variant: "Lp", Fields: c.Args}, nil, nil
}

// lpNorm is lp_norm_impl (vector_norm.rs:103-115) and the norms it picks.
func (w *World) lpNorm(t *Tensor, p float64, dim int) (Value, *UsageError, *Panic) {
	d := Int{V: int64(dim)}
	run := func(steps ...[]Value) (Value, *UsageError, *Panic) {
		cur := t
		for _, s := range steps {
			var ue *UsageError
			var pn *Panic
			if cur, ue, pn = w.step(cur, string(s[0].(Str)), s[1:]...); ue != nil || pn != nil {
				return nil, ue, pn
			}
		}
		return cur, nil, nil
	}
	op := func(name string, args ...Value) []Value { return append([]Value{Str(name)}, args...) }
	switch {
	case p == 0:
		// l0_norm_impl: zeros_like().mask_fill(x != 0, 1).sum_dim(dim).
		mask, ue, pn := w.step(t, "not_equal_elem", Int{V: 0})
		if ue != nil || pn != nil {
			return nil, ue, pn
		}
		return run(op("zeros_like"), op("mask_fill", mask, Int{V: 1}), op("sum_dim", d))
	case p == 1:
		return run(op("abs"), op("sum_dim", d))
	case p == 2:
		return w.l2Norm(t, dim)
	case p == math.Trunc(p) && !math.IsInf(p, 0) && int64(p)%2 == 0:
		// lp_signed_norm.
		return run(op("powi_scalar", Int{V: int64(uint32(int64(p)))}), op("sum_dim", d), op("powf_scalar", Float{V: 1 / float64(uint32(int64(p)))}))
	case math.IsInf(p, 1):
		// max_abs_dim, as abs then max_dim.
		return run(op("abs"), op("max_dim", d))
	case math.IsInf(p, -1):
		return run(op("abs"), op("min_dim", d))
	}
	return run(op("abs"), op("powf_scalar", Float{V: p}), op("sum_dim", d), op("powf_scalar", Float{V: 1 / p}))
}

// luValues gives lu's P, L and U the values package tensor computes as
// Burn's unblocked algorithm does; they stay shapes only for a tracked
// input or a matrix Burn factors by blocks.
func (w *World) luValues(t *Tensor, outs Tuple) {
	if !t.hasVals() || len(outs) != 3 {
		return
	}
	p, l, u, err := tensor.LU(t.vals())
	if err != nil {
		return
	}
	for i, v := range []*tensor.Tensor{p, l, u} {
		w.compute(outs[i].(*Tensor), []*Tensor{t}, func() (*tensor.Tensor, error) { return v, nil })
	}
}

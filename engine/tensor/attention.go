package tensor

import "math"

// Attention is burn-backend's attention_fallback
// (crates/burn-backend/src/backend/ops/modules/attention.rs:14-91), built
// from this package's own operations, so a tracked input differentiates
// through them exactly as burn-autodiff differentiates the fallback
// (crates/burn-autodiff/src/ops/module.rs:1936-1945). burn-flex's own
// kernel for untracked inputs (crates/burn-flex/src/ops/attention.rs)
// computes the same function; its float rounding may differ in the last
// digits.

// AttentionOptions is burn-std's AttentionModuleOptions; nil Scale is
// 1/sqrt(head_dim), nil Softcap none.
type AttentionOptions struct {
	Scale, Softcap *float64
	Causal         bool
}

// finfo is the most negative finite value and the smallest positive
// normal of a float dtype (DType::finfo).
func finfo(d DType) (lowest, minPositive float64) {
	switch d {
	case F64:
		return -math.MaxFloat64, 0x1p-1022
	case F16:
		return -65504, 0x1p-14
	case BF16:
		return -3.3895313892515355e38, 0x1p-126
	}
	return -math.MaxFloat32, 0x1p-126
}

// AttentionWork is the multiply-adds of attention on q [b, h, sq, d],
// k [b, h, sk, d] and v [b, h, sk, dv]: the two matmuls.
func AttentionWork(q, k, v []int64) (int64, bool) {
	if len(q) != 4 || len(k) != 4 || len(v) != 4 {
		return 0, false
	}
	a, ok1 := ShapeElements([]int64{q[0], q[1], q[2], k[2], q[3]})
	b, ok2 := ShapeElements([]int64{q[0], q[1], q[2], k[2], v[3]})
	return a + b, ok1 && ok2 && a+b >= 0
}

// Attention computes softmax(q k^T * scale [softcapped, masked, biased]) v.
// mask (bool, true masks) and bias broadcast to [b, h, sq, sk]; either may
// be nil.
func Attention(q, k, v, mask, bias *Tensor, o AttentionOptions) (*Tensor, error) {
	if len(q.Shape) != 4 || len(k.Shape) != 4 || len(v.Shape) != 4 {
		return nil, shapeError("attention of ranks %d, %d, %d", len(q.Shape), len(k.Shape), len(v.Shape))
	}
	scale := 1 / math.Sqrt(float64(q.Shape[3]))
	if o.Scale != nil {
		scale = *o.Scale
	}
	kt, err := SwapDims(k, 2, 3)
	if err != nil {
		return nil, err
	}
	scores, err := Matmul(q, kt)
	if err != nil {
		return nil, err
	}
	if scores, err = WithScalar("mul_scalar", scores, FloatScalar(scale)); err != nil {
		return nil, err
	}
	if o.Softcap != nil {
		c := FloatScalar(*o.Softcap)
		if scores, err = WithScalar("div_scalar", scores, c); err != nil {
			return nil, err
		}
		if scores, err = Unary("tanh", scores); err != nil {
			return nil, err
		}
		if scores, err = WithScalar("mul_scalar", scores, c); err != nil {
			return nil, err
		}
	}
	ninf := FloatScalar(math.Inf(-1))
	if mask != nil {
		if scores, err = MaskFill(scores, mask, ninf); err != nil {
			return nil, err
		}
	}
	if o.Causal {
		// build_causal_mask (attention.rs:95-124): col > row + (sk - sq).
		sq, sk := scores.Shape[2], scores.Shape[3]
		causal := make([]bool, sq*sk)
		for r := range sq {
			for c := range sk {
				causal[r*sk+c] = r+sk-sq < c
			}
		}
		m, err := FromBools(causal, []int{1, 1, sq, sk}, BoolNative)
		if err != nil {
			return nil, err
		}
		if scores, err = MaskFill(scores, m, ninf); err != nil {
			return nil, err
		}
	}
	if bias != nil {
		if scores, err = Binary("add", scores, bias); err != nil {
			return nil, err
		}
	}
	lowest, minPositive := finfo(scores.DType)
	mx, err := ReduceDim("max_dim", scores, 3, scores.DType)
	if err != nil {
		return nil, err
	}
	if mx, err = WithScalar("clamp_min", mx, FloatScalar(lowest)); err != nil {
		return nil, err
	}
	shifted, err := Binary("sub", scores, mx)
	if err != nil {
		return nil, err
	}
	num, err := Unary("exp", shifted)
	if err != nil {
		return nil, err
	}
	sum, err := ReduceDim("sum_dim", num, 3, num.DType)
	if err != nil {
		return nil, err
	}
	if sum, err = WithScalar("clamp_min", sum, FloatScalar(minPositive)); err != nil {
		return nil, err
	}
	softmax, err := Binary("div", num, sum)
	if err != nil {
		return nil, err
	}
	return Matmul(softmax, v)
}

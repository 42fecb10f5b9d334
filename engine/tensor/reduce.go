package tensor

import (
	"fmt"
	"math"
)

// Reductions. A whole-tensor reduction returns shape [1], and a reduction
// along a dim keeps that dim with size 1, as Burn's sum, sum_dim, argmax
// and friends do. Float sums accumulate in float64 and round once, so a
// long sum can differ from a backend's f32 accumulation in the last digit.

// axis splits a shape around dim: outer blocks, the dim's size and the
// inner stride, so element (o, k, i) is at (o*size+k)*inner+i.
type axis struct{ outer, size, inner int }

func splitAt(shape []int, dim int) axis {
	a := axis{outer: 1, size: shape[dim], inner: 1}
	for _, s := range shape[:dim] {
		a.outer *= s
	}
	for _, s := range shape[dim+1:] {
		a.inner *= s
	}
	return a
}

func (a axis) pos(o, k, i int) int { return (o*a.size+k)*a.inner + i }

func keptShape(shape []int, dim int) []int {
	out := append([]int(nil), shape...)
	out[dim] = 1
	return out
}

func checkDim(t *Tensor, dim int) error {
	if dim < 0 || dim >= len(t.Shape) {
		return shapeError("dim %d of a rank-%d tensor", dim, len(t.Shape))
	}
	return nil
}

// Reduce applies a whole-tensor reduction: sum, mean, prod, max, min
// (shape [1], the tensor's dtype) or any, all (shape [1], boolDType). Burn
// computes max and min as max_dim(0) of the flattened tensor
// (burn-backend's float_max), which is where their gradient goes.
func Reduce(method string, t *Tensor, boolDType DType) (*Tensor, error) {
	switch method {
	case "sum", "mean", "prod", "max", "min", "any", "all":
	default:
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	flat, err := Reshape(t, []int{t.NumElements()})
	if err != nil {
		return nil, err
	}
	return ReduceDim(method+"_dim", flat, 0, boolDType)
}

// ReduceDim applies a reduction along dim, keeping it with size 1:
// sum_dim, mean_dim, prod_dim, max_dim, min_dim (the tensor's dtype),
// argmax, argmin (outDType, the device's int dtype) or any_dim, all_dim
// (outDType, the device's bool store).
func ReduceDim(method string, t *Tensor, dim int, outDType DType) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	a := splitAt(t.Shape, dim)
	shape := keptShape(t.Shape, dim)
	switch method {
	case "sum_dim", "mean_dim", "prod_dim":
		if t.DType.IsBool() {
			return nil, kindError("%s of a Bool tensor", method)
		}
		return accumulate(method, t, a, shape)
	case "max_dim", "min_dim", "argmax", "argmin":
		if t.DType.IsBool() {
			return nil, kindError("%s of a Bool tensor", method)
		}
		if a.size == 0 {
			return nil, shapeError("%s over an empty dim", method)
		}
		return extreme(method, t, a, shape, dim, outDType), nil
	case "any_dim", "all_dim":
		out := newData(outDType, shape)
		all := method == "all_dim"
		for o := range a.outer {
			for i := range a.inner {
				r := all
				for k := range a.size {
					if t.Bool(a.pos(o, k, i)) != all {
						r = !all
						break
					}
				}
				out.B[o*a.inner+i] = r
			}
		}
		return &Tensor{Data: *out}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
}

// accumulate is sum_dim, mean_dim and prod_dim.
func accumulate(method string, t *Tensor, a axis, shape []int) (*Tensor, error) {
	out := newData(t.DType, shape)
	if t.DType.IsInt() {
		for o := range a.outer {
			for i := range a.inner {
				acc := int64(pick(method == "prod_dim", 1, 0))
				for k := range a.size {
					v := t.I[a.pos(o, k, i)]
					acc = pick(method == "prod_dim", acc*v, acc+v)
				}
				acc = t.DType.wrapInt(acc)
				if method == "mean_dim" {
					if a.size == 0 {
						return nil, ErrIntDivideByZero
					}
					acc, _ = divInt(acc, int64(a.size))
				}
				out.I[o*a.inner+i] = acc
			}
		}
		return &Tensor{Data: *out}, nil
	}
	d := t.DType
	for o := range a.outer {
		for i := range a.inner {
			acc := pick(method == "prod_dim", 1.0, 0)
			for k := range a.size {
				v := t.F[a.pos(o, k, i)]
				acc = pick(method == "prod_dim", acc*v, acc+v)
			}
			acc = d.roundFloat(acc)
			if method == "mean_dim" {
				acc = d.roundFloat(acc / float64(a.size))
			}
			out.F[o*a.inner+i] = acc
		}
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		gin := make([]float64, t.NumElements())
		for o := range a.outer {
			for i := range a.inner {
				gv := g.F[o*a.inner+i]
				switch method {
				case "sum_dim":
					for k := range a.size {
						gin[a.pos(o, k, i)] = gv
					}
				case "mean_dim":
					for k := range a.size {
						gin[a.pos(o, k, i)] = gv / float64(a.size)
					}
				default:
					productsOfOthers(t.F, a, o, i, gv, gin)
				}
			}
		}
		return []*Data{sumInto(gin, nil, t.Shape, d)}
	}), nil
}

// productsOfOthers sets gin at each position of one lane to gv times the
// product of the lane's other elements (prefix and suffix products, so a
// zero in the lane does not divide by zero).
func productsOfOthers(x []float64, a axis, o, i int, gv float64, gin []float64) {
	prefix := 1.0
	suffix := make([]float64, a.size+1)
	suffix[a.size] = 1
	for k := a.size - 1; k >= 0; k-- {
		suffix[k] = suffix[k+1] * x[a.pos(o, k, i)]
	}
	for k := range a.size {
		p := a.pos(o, k, i)
		gin[p] = gv * prefix * suffix[k+1]
		prefix *= x[p]
	}
}

// extreme is max_dim, min_dim, argmax and argmin: the first position of
// the largest (smallest) value in each lane, or of its first NaN. max_dim's gradient goes to
// that position only, as burn-autodiff scatters it through
// max_dim_with_indices.
func extreme(method string, t *Tensor, a axis, shape []int, dim int, outDType DType) *Tensor {
	wantMax := method == "max_dim" || method == "argmax"
	lanes := a.outer * a.inner
	best := make([]int, lanes) // the winning position in t, per lane
	for o := range a.outer {
		for i := range a.inner {
			b := a.pos(o, 0, i)
			for k := 1; k < a.size; k++ {
				p := a.pos(o, k, i)
				var c int
				if t.DType.IsFloat() {
					c = compareFloat(t.F[p], t.F[b])
					switch {
					case math.IsNaN(t.F[b]):
						c = 0 // a NaN, once found, stays the result
					case math.IsNaN(t.F[p]):
						c = pick(wantMax, 1, -1) // NaN propagates, as torch's max does
					}
				} else {
					c = compareInt(t.DType, t.I[p], t.I[b])
				}
				if (wantMax && c == 1) || (!wantMax && c == -1) {
					b = p
				}
			}
			best[o*a.inner+i] = b
		}
	}
	if method == "argmax" || method == "argmin" {
		out := newData(outDType, shape)
		for l, p := range best {
			out.I[l] = int64((p / a.inner) % a.size)
		}
		return &Tensor{Data: *out}
	}
	out := newData(t.DType, shape)
	for l, p := range best {
		if t.DType.IsFloat() {
			out.F[l] = t.F[p]
		} else {
			out.I[l] = t.I[p]
		}
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		gin := make([]float64, t.NumElements())
		for l, p := range best {
			gin[p] = g.F[l]
		}
		return []*Data{sumInto(gin, nil, t.Shape, t.DType)}
	})
}

// Cumsum is cumsum(dim): running sums along dim. Its gradient is the
// running sum of the gradient from the other end.
func Cumsum(t *Tensor, dim int) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if t.DType.IsBool() {
		return nil, kindError("cumsum of a Bool tensor")
	}
	a := splitAt(t.Shape, dim)
	out := newData(t.DType, t.Shape)
	for o := range a.outer {
		for i := range a.inner {
			var fs float64
			var is int64
			for k := range a.size {
				p := a.pos(o, k, i)
				if t.DType.IsFloat() {
					fs = t.DType.roundFloat(fs + t.F[p])
					out.F[p] = fs
				} else {
					is = t.DType.wrapInt(is + t.I[p])
					out.I[p] = is
				}
			}
		}
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		gin := make([]float64, len(g.F))
		for o := range a.outer {
			for i := range a.inner {
				s := 0.0
				for k := a.size - 1; k >= 0; k-- {
					p := a.pos(o, k, i)
					s += g.F[p]
					gin[p] = s
				}
			}
		}
		return []*Data{sumInto(gin, nil, t.Shape, t.DType)}
	}), nil
}

package tensor

import (
	"fmt"
	"math"
)

// Cumulative scans beside cumsum (reduce.go): cumprod, cummin and cummax,
// computed as burn-flex does (crates/burn-flex/src/ops/cumulative.rs:
// 160-205): one running value per lane along dim, rounded to the dtype at
// every step; a float NaN, once met, stays the running min or max. Their
// gradients are burn-autodiff's (crates/burn-autodiff/src/ops/
// tensor.rs:2335-2560).

// Cumulative applies cumprod, cummin or cummax along dim.
func Cumulative(method string, t *Tensor, dim int) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if method == "cumsum" {
		return Cumsum(t, dim)
	}
	if method != "cumprod" && method != "cummin" && method != "cummax" {
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	if t.DType.IsBool() {
		return nil, kindError("%s of a Bool tensor", method)
	}
	a := splitAt(t.Shape, dim)
	out := newData(t.DType, t.Shape)
	for o := range a.outer {
		for i := range a.inner {
			for k := range a.size {
				p := a.pos(o, k, i)
				if k == 0 {
					if t.DType.IsFloat() {
						out.F[p] = t.F[p]
					} else {
						out.I[p] = t.I[p]
					}
					continue
				}
				q := a.pos(o, k-1, i)
				if t.DType.IsFloat() {
					out.F[p] = scanFloat(method, t.DType, out.F[q], t.F[p])
				} else {
					out.I[p] = scanInt(method, t.DType, out.I[q], t.I[p])
				}
			}
		}
	}
	in := t
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		if method == "cumprod" {
			return []*Data{cumprodGrad(in, a, g)}
		}
		return []*Data{cumExtremeGrad(in, out, a, g)}
	}), nil
}

func scanFloat(method string, d DType, acc, v float64) float64 {
	switch method {
	case "cumprod":
		return d.roundFloat(acc * v)
	case "cummin":
		return pick(math.IsNaN(v) || v < acc, v, acc)
	}
	return pick(math.IsNaN(v) || v > acc, v, acc)
}

func scanInt(method string, d DType, acc, v int64) int64 {
	switch method {
	case "cumprod":
		return d.wrapInt(acc * v)
	case "cummin":
		return pick(compareInt(d, v, acc) < 0, v, acc)
	}
	return pick(compareInt(d, v, acc) > 0, v, acc)
}

// cumExtremeGrad is CumMin's and CumMax's backward (tensor.rs:2451-2488
// and 2518-2555): each output's gradient goes to the latest position at or
// before it whose input equals the output there, found as the running max
// of (index where output == input, else 0), and is scatter-added there.
func cumExtremeGrad(in *Tensor, out *Data, a axis, g *Data) *Data {
	gin := make([]float64, len(g.F))
	for o := range a.outer {
		for i := range a.inner {
			source := 0
			for k := range a.size {
				p := a.pos(o, k, i)
				if out.F[p] == in.F[p] {
					source = max(source, k)
				}
				gin[a.pos(o, source, i)] += g.F[p]
			}
		}
	}
	return sumInto(gin, nil, in.Shape, in.DType)
}

// cumprodGrad is CumProd's backward (tensor.rs:2348-2420), which splits
// each lane at its first zero: before it, reverse_cumsum(grad * output) /
// input; at it, reverse_cumsum(grad * cumprod(input with that zero made
// one)); after it, zero. Each step is rounded to the dtype as the
// backend's ops round theirs.
func cumprodGrad(in *Tensor, a axis, g *Data) *Data {
	d := in.DType
	gin := make([]float64, len(g.F))
	n := a.size
	outputOne := make([]float64, n)
	before := make([]bool, n)
	atFirst := make([]bool, n)
	for o := range a.outer {
		for i := range a.inner {
			zeros := 0
			for k := range n {
				x := in.F[a.pos(o, k, i)]
				if x == 0 {
					zeros++
				}
				before[k] = zeros == 0
				atFirst[k] = x == 0 && zeros == 1
				one := x
				if atFirst[k] {
					one = d.roundFloat(x + 1)
				}
				if k == 0 {
					outputOne[k] = one
				} else {
					outputOne[k] = d.roundFloat(outputOne[k-1] * one)
				}
			}
			// The two reverse cumsums, from the lane's end.
			var classic, omitted float64
			for k := n - 1; k >= 0; k-- {
				p := a.pos(o, k, i)
				x := in.F[p]
				output := pick(before[k], outputOne[k], 0)
				classic = d.roundFloat(classic + d.roundFloat(g.F[p]*output))
				omitted = d.roundFloat(omitted + d.roundFloat(g.F[p]*outputOne[k]))
				safe := x
				if x == 0 {
					safe = 1
				}
				var v float64
				if before[k] {
					v = d.roundFloat(classic / safe)
				}
				if atFirst[k] {
					v = d.roundFloat(v + omitted)
				}
				gin[p] = v
			}
		}
	}
	return sumInto(gin, nil, in.Shape, d)
}

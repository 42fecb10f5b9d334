package tensor

import "math"

// CTC loss as Burn computes it on a backend without a fused kernel
// (burn-flex among them): burn-backend's ctc_loss_default, the alpha
// recursion written as tensor ops (crates/burn-backend/src/backend/ops/
// modules/ctc.rs:24-39, 186-399). burn-autodiff differentiates through
// those ops (crates/burn-autodiff/src/ops/module.rs:1957-1965), so the
// gradient here is the reverse pass of the same recursion, with the local
// derivatives of Burn's log_sum_exp (ctc.rs:487-520): max(a, b) +
// log1p(exp(-|a - b|)), where a -inf operand leaves max alone and |x|
// differentiates to sign(x). That keeps an unreachable target's
// gradient finite, as Burn's is, where the textbook posterior would be
// NaN. The recursion runs once in plain loops: T steps of N x (2S+1)
// states, not T rounds of tensor ops.

// ctcLSE is ctc.rs's log_sum_exp of two values.
func ctcLSE(a, b float64) float64 {
	mx := a
	if a < b {
		mx = b
	}
	if math.IsInf(a, -1) || math.IsInf(b, -1) {
		return mx
	}
	return mx + math.Log1p(math.Exp(-math.Abs(a-b)))
}

// ctcLSEGrad is the derivative of ctcLSE with respect to a and b, as
// burn-autodiff finds it through the decomposition.
func ctcLSEGrad(a, b float64) (float64, float64) {
	da, db := 1.0, 0.0
	if a < b {
		da, db = 0, 1
	}
	if math.IsInf(a, -1) || math.IsInf(b, -1) {
		return da, db
	}
	e := math.Exp(-math.Abs(a - b))
	q := e / (1 + e)
	sign := 0.0
	switch {
	case a > b:
		sign = 1
	case a < b:
		sign = -1
	}
	return da - q*sign, db + q*sign
}

// CTCWork is the state updates a CTC loss of these shapes does:
// T x N x (2S+1), four times over for the loss and its gradient.
func CTCWork(logProbs, targets []int64) (int64, bool) {
	if len(logProbs) != 3 || len(targets) != 2 {
		return 0, false
	}
	return ShapeElements([]int64{logProbs[0], logProbs[1], 2*targets[1] + 1, 4})
}

// CTCLoss is module::ctc_loss(log_probs [T, N, C], targets [N, S],
// input_lengths [N], target_lengths [N], blank): the per-sample loss [N],
// +inf where no alignment reaches the target. ErrIndex stands for inputs
// Burn would leave to the backend's gathers (a label or length out of
// range).
func CTCLoss(logProbs *Tensor, targets, inputLengths, targetLengths *Data, blank int) (*Tensor, error) {
	if !logProbs.DType.IsFloat() || len(logProbs.Shape) != 3 || len(targets.Shape) != 2 ||
		len(inputLengths.Shape) != 1 || len(targetLengths.Shape) != 1 {
		return nil, shapeError("ctc_loss of shapes %v, %v", logProbs.Shape, targets.Shape)
	}
	T, N, C := logProbs.Shape[0], logProbs.Shape[1], logProbs.Shape[2]
	S := targets.Shape[1]
	L := 2*S + 1
	if targets.Shape[0] != N || inputLengths.Shape[0] != N || targetLengths.Shape[0] != N || T == 0 {
		return nil, shapeError("ctc_loss of shapes %v, %v", logProbs.Shape, targets.Shape)
	}
	if blank < 0 || blank >= C {
		return nil, ErrIndex
	}
	// l' (insert_blanks, ctc.rs:403-428), the lengths, the skip mask
	// (create_l_prime_mask, ctc.rs:523-572).
	lp := make([]int, N*L)
	skip := make([]bool, N*L)
	il, tl := make([]int, N), make([]int, N)
	for n := range N {
		il[n], tl[n] = int(inputLengths.Int(n)), int(targetLengths.Int(n))
		if tl[n] < 0 || tl[n] > S {
			return nil, ErrIndex
		}
		for s := range L {
			lp[n*L+s] = blank
			if s%2 == 1 {
				label := int(targets.Int(n*S + s/2))
				if label < 0 || label >= C {
					return nil, ErrIndex
				}
				lp[n*L+s] = label
			}
		}
		for s := 2; s < L; s++ {
			skip[n*L+s] = lp[n*L+s] != blank && lp[n*L+s] != lp[n*L+s-2]
		}
	}
	dt := logProbs.DType
	x := logProbs.F
	at := func(t, n, c int) float64 { return x[(t*N+n)*C+c] }
	active := func(t, n, s int) bool { return il[n] > t && s < 2*tl[n]+1 }
	ninf := math.Inf(-1)
	// alpha[t] is the row after step t, N x L.
	alpha := make([][]float64, T)
	alpha[0] = make([]float64, N*L)
	for i := range alpha[0] {
		alpha[0][i] = ninf
	}
	for n := range N {
		alpha[0][n*L] = dt.roundFloat(at(0, n, blank))
		if L > 1 {
			alpha[0][n*L+1] = dt.roundFloat(at(0, n, lp[n*L+1]))
		}
	}
	combine := func(prev []float64, n, s int) (bar, prev2 float64) {
		left := ninf
		if s >= 1 {
			left = prev[n*L+s-1]
		}
		bar = ctcLSE(prev[n*L+s], left)
		if s >= 2 {
			prev2 = prev[n*L+s-2]
		} else {
			prev2 = ninf
		}
		return bar, prev2
	}
	for t := 1; t < T; t++ {
		prev, row := alpha[t-1], make([]float64, N*L)
		for n := range N {
			for s := range L {
				if !active(t, n, s) {
					row[n*L+s] = prev[n*L+s]
					continue
				}
				bar, prev2 := combine(prev, n, s)
				if skip[n*L+s] {
					bar = ctcLSE(bar, prev2)
				}
				row[n*L+s] = dt.roundFloat(bar + at(t, n, lp[n*L+s]))
			}
		}
		alpha[t] = row
	}
	last := alpha[T-1]
	out := newData(dt, []int{N})
	label := func(n int) float64 {
		if tl[n] == 0 {
			return ninf
		}
		return last[n*L+2*tl[n]-1]
	}
	for n := range N {
		out.F[n] = dt.roundFloat(-ctcLSE(last[n*L+2*tl[n]], label(n)))
	}
	result := track(out, []*Tensor{logProbs}, func(grad *Data, _ []bool) []*Data {
		gx := make([]float64, len(x))
		g := make([]float64, N*L)
		for n := range N {
			db, dl := ctcLSEGrad(last[n*L+2*tl[n]], label(n))
			g[n*L+2*tl[n]] -= grad.F[n] * db
			if tl[n] > 0 {
				g[n*L+2*tl[n]-1] -= grad.F[n] * dl
			}
		}
		for t := T - 1; t >= 1; t-- {
			prev, gp := alpha[t-1], make([]float64, N*L)
			for n := range N {
				for s := range L {
					gs := g[n*L+s]
					if gs == 0 {
						continue
					}
					if !active(t, n, s) {
						gp[n*L+s] += gs
						continue
					}
					gx[(t*N+n)*C+lp[n*L+s]] += gs
					bar, prev2 := combine(prev, n, s)
					gbar := gs
					if skip[n*L+s] {
						dbar, d2 := ctcLSEGrad(bar, prev2)
						gbar = gs * dbar
						gp[n*L+s-2] += gs * d2
					}
					left := ninf
					if s >= 1 {
						left = prev[n*L+s-1]
					}
					dself, dleft := ctcLSEGrad(prev[n*L+s], left)
					gp[n*L+s] += gbar * dself
					if s >= 1 {
						gp[n*L+s-1] += gbar * dleft
					}
				}
			}
			g = gp
		}
		for n := range N {
			gx[n*C+blank] += g[n*L]
			if L > 1 {
				gx[n*C+lp[n*L+1]] += g[n*L+1]
			}
		}
		return []*Data{roundedData(gx, logProbs.Shape, dt)}
	})
	if result.node != nil {
		result.node.work = int64(T) * int64(N) * int64(L) * 2
	}
	return result, nil
}

package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func ctcInputs(t *testing.T, targets []int64, s int, il, tl []int64) (*Data, *Data, *Data) {
	t.Helper()
	n := len(il)
	return &mustInts(t, targets, []int{n, s}, I64).Data, &mustInts(t, il, []int{n}, I64).Data, &mustInts(t, tl, []int{n}, I64).Data
}

func TestCTCLossByHand(t *testing.T) {
	half := math.Log(0.5)
	full := func(T, N, C int, v float64) []float64 {
		out := make([]float64, T*N*C)
		for i := range out {
			out[i] = v
		}
		return out
	}
	cases := []struct {
		name      string
		lp        []float64
		shape     []int
		targets   []int64
		s         int
		il, tl    []int64
		want      float64
		wantGrads []float64 // nil: not checked
	}{
		// Only 1, 0, 1 spells [1, 1] in three steps: (1/2)^3.
		{"repeated label needs a blank", full(3, 1, 2, half), []int{3, 1, 2}, []int64{1, 1}, 2, []int64{3}, []int64{2}, 3 * math.Ln2,
			[]float64{0, -1, -1, 0, 0, -1}},
		// An empty target: all blanks.
		{"empty target", full(3, 1, 2, half), []int{3, 1, 2}, []int64{0}, 1, []int64{3}, []int64{0}, 3 * math.Ln2,
			[]float64{-1, 0, -1, 0, -1, 0}},
		// Target [1] in two steps: 1 1, 0 1, 1 0, of (1/2)^2 each. The
		// posterior at t=0 is 1/3 blank, 2/3 label, but alpha[0] of the two
		// states tie, and Burn's log_sum_exp then sends the whole gradient
		// to its first operand (max picks it, |0| differentiates to 0).
		{"three alignments, a tie", full(2, 1, 2, half), []int{2, 1, 2}, []int64{1}, 1, []int64{2}, []int64{1}, -math.Log(0.75),
			[]float64{0, -1, -1.0 / 3, -2.0 / 3}},
		// input_length 2 of T=3: the last step is not read.
		{"short input", full(3, 1, 2, half), []int{3, 1, 2}, []int64{1}, 1, []int64{2}, []int64{1}, -math.Log(0.75),
			[]float64{0, -1, -1.0 / 3, -2.0 / 3, 0, 0}},
		// Without the tie: P(blank) = 1/4 at t=0, so the paths 1 1, 0 1, 1 0
		// weigh 3/8, 1/8, 3/8 of 7/8: the textbook posterior.
		{"no tie", []float64{math.Log(0.25), math.Log(0.75), half, half}, []int{2, 1, 2}, []int64{1}, 1, []int64{2}, []int64{1}, -math.Log(7.0 / 8),
			[]float64{-1.0 / 7, -6.0 / 7, -3.0 / 7, -4.0 / 7}},
	}
	for _, c := range cases {
		targets, il, tl := ctcInputs(t, c.targets, c.s, c.il, c.tl)
		loss, g := sumGrad(t, c.lp, c.shape, func(x *Tensor) (*Tensor, error) { return CTCLoss(x, targets, il, tl, 0) })
		if math.Abs(loss.F[0]-c.want) > 1e-5 {
			t.Errorf("%s: loss %v, want %v", c.name, loss.F[0], c.want)
		}
		if c.wantGrads != nil && !closeTo(g.F, c.wantGrads, 1e-5) {
			t.Errorf("%s: gradient %v, want %v", c.name, g.F, c.wantGrads)
		}
	}
}

func TestCTCLossUnreachable(t *testing.T) {
	// [1, 1] needs three steps; two give no alignment: +inf, and Burn's
	// decomposition still gives a finite gradient.
	lp := []float64{math.Log(1.0 / 3), math.Log(1.0 / 3), math.Log(1.0 / 3), math.Log(1.0 / 3), math.Log(1.0 / 3), math.Log(1.0 / 3)}
	targets, il, tl := ctcInputs(t, []int64{1, 1}, 2, []int64{2}, []int64{2})
	loss, g := sumGrad(t, lp, []int{2, 1, 3}, func(x *Tensor) (*Tensor, error) { return CTCLoss(x, targets, il, tl, 0) })
	if !math.IsInf(loss.F[0], 1) {
		t.Errorf("loss %v, want +inf", loss.F[0])
	}
	for _, v := range g.F {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("gradient %v is not finite", g.F)
		}
	}
	// A label beyond the classes is the backend's problem: no values.
	bad, _, _ := ctcInputs(t, []int64{5, 1}, 2, []int64{2}, []int64{2})
	if _, err := CTCLoss(mustFloats(t, lp, []int{2, 1, 3}, F32), bad, il, tl, 0); err != ErrIndex {
		t.Errorf("label 5 of 3 classes: %v", err)
	}
}

// bruteCTC enumerates every path of one sample: collapse repeats, drop
// blanks, compare with the target. It returns -log P and the gradient of
// -log P with respect to each log-probability.
func bruteCTC(lp []float64, T, C int, target []int, blank int) (float64, []float64) {
	total := 0.0
	occupancy := make([]float64, T*C)
	path := make([]int, T)
	var walk func(t int, logp float64)
	walk = func(t int, logp float64) {
		if t == T {
			var out []int
			for i, c := range path {
				if c != blank && (i == 0 || path[i-1] != c) {
					out = append(out, c)
				}
			}
			if slices.Equal(out, target) {
				p := math.Exp(logp)
				total += p
				for i, c := range path {
					occupancy[i*C+c] += p
				}
			}
			return
		}
		for c := range C {
			path[t] = c
			walk(t+1, logp+lp[t*C+c])
		}
	}
	walk(0, 0)
	grad := make([]float64, T*C)
	for i := range grad {
		grad[i] = -occupancy[i] / total
	}
	return -math.Log(total), grad
}

func TestCTCLossAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	for trial := range 150 {
		T, C := 1+r.IntN(5), 2+r.IntN(2)
		S := r.IntN(3)
		blank := r.IntN(C)
		L := r.IntN(S + 1)
		target := make([]int64, max(S, 1))
		var want []int
		for i := range target {
			label := r.IntN(C - 1)
			if label >= blank {
				label++
			}
			target[i] = int64(label)
			if i < L {
				want = append(want, label)
			}
		}
		// Softmax-normalized log-probabilities at each step.
		lp := make([]float64, T*C)
		for t := range T {
			z := 0.0
			for c := range C {
				lp[t*C+c] = r.Float64()*3 - 1.5
				z += math.Exp(lp[t*C+c])
			}
			for c := range C {
				lp[t*C+c] -= math.Log(z)
			}
		}
		wantLoss, wantGrad := bruteCTC(lp, T, C, want, blank)
		targets, il, tl := ctcInputs(t, target, max(S, 1), []int64{int64(T)}, []int64{int64(L)})
		x, _ := mustFloats(t, lp, []int{T, 1, C}, F64).RequireGrad()
		loss, err := CTCLoss(x, targets, il, tl, blank)
		if err != nil {
			t.Fatal(err)
		}
		if math.IsInf(wantLoss, 1) {
			if !math.IsInf(loss.F[0], 1) {
				t.Fatalf("trial %d: loss %v, want +inf", trial, loss.F[0])
			}
			continue
		}
		grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		if err != nil {
			t.Fatal(err)
		}
		g, _ := grads.Get(x)
		if math.Abs(loss.F[0]-wantLoss) > 1e-9 || !closeTo(g.F, wantGrad, 1e-9) {
			t.Fatalf("trial %d T=%d C=%d blank=%d target %v:\n loss %v grad %v\nwant %v grad %v", trial, T, C, blank, want, loss.F[0], g.F, wantLoss, wantGrad)
		}
	}
}

// TestCTCLossLongSequence is Burn's test_ctc_loss_long_mixed_input_lengths
// (T=494, N=2, C=36, targets of 64 and 43) run on the kernel directly: the
// loss and its gradient in one pass each, finite and in Burn's plausible
// range, well inside the run's work budget.
func TestCTCLossLongSequence(t *testing.T) {
	const T, N, C, S = 494, 2, 36, 64
	logits := make([]float64, T*N*C)
	for ti := range T {
		for ni := range N {
			for ci := range C {
				logits[(ti*N+ni)*C+ci] = float64(float32(math.Sin(float64(float32(ti*7+ni*13+ci*3) * 0.1))))
			}
		}
	}
	x, _ := mustFloats(t, logits, []int{T, N, C}, F32).RequireGrad()
	// log_softmax over the classes: x - log(sum(exp(x))).
	e, _ := Unary("exp", x)
	s, _ := ReduceDim("sum_dim", e, 2, F32)
	l, _ := Unary("log", s)
	lp, err := Binary("sub", x, l)
	if err != nil {
		t.Fatal(err)
	}
	targets := make([]int64, N*S)
	for si := range S {
		targets[si] = int64(si%35 + 1)
		if si < 43 {
			targets[S+si] = int64(si%35 + 1)
		}
	}
	tg, il, tl := ctcInputs(t, targets, S, []int64{494, 390}, []int64{64, 43})
	work, ok := CTCWork([]int64{T, N, C}, []int64{N, S})
	if !ok || work > DefaultWork/2 {
		t.Fatalf("CTCWork = %d", work)
	}
	loss, err := CTCLoss(lp, tg, il, tl, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range loss.F {
		if math.IsInf(v, 0) || math.IsNaN(v) || v <= 10 || v >= 10000 {
			t.Errorf("sample %d: loss %v outside [10, 10000]", i, v)
		}
	}
	sum, _ := Reduce("sum", loss, BoolNative)
	grads, err := Backward(sum, NewBudget(DefaultBudget, DefaultWork))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := grads.Get(x)
	for _, v := range g.F {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatal("non-finite gradient")
		}
	}
	// Past input_length 390 the second sample's steps get no gradient.
	for ti := 390; ti < T; ti++ {
		for ci := range C {
			if v := g.F[(ti*N+1)*C+ci]; v != 0 {
				t.Fatalf("gradient %v at t=%d beyond the input length", v, ti)
			}
		}
	}
}

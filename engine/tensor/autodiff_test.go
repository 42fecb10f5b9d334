package tensor

import (
	"errors"
	"slices"
	"testing"
)

func TestAutodiffSemantics(t *testing.T) {
	budget := NewBudget(DefaultBudget, DefaultWork)
	x, _ := mustFloats(t, []float64{1, 2}, []int{2}, F32).RequireGrad()
	if again, err := x.RequireGrad(); err != nil || again != x {
		t.Error("require_grad on a leaf that already requires grad returns it")
	}
	y, _ := Binary("mul", x, x)
	if _, err := y.RequireGrad(); !errors.Is(err, ErrNotLeaf) {
		t.Errorf("require_grad on a computed tensor: %v", err)
	}
	untracked := mustFloats(t, []float64{1}, []int{1}, F32)
	if _, err := Backward(untracked, budget); !errors.Is(err, ErrNotTracked) {
		t.Errorf("backward without a graph: %v", err)
	}
	if _, err := mustInts(t, []int64{1}, []int{1}, I32).RequireGrad(); !errors.Is(err, ErrKind) {
		t.Error("require_grad on an int tensor")
	}
	// A result of untracked operations may become a leaf, as in Burn.
	sum, _ := Binary("add", untracked, untracked)
	if leaf, err := sum.RequireGrad(); err != nil || !leaf.IsLeaf() {
		t.Errorf("require_grad on an untracked result: %v", err)
	}

	// A non-scalar root is seeded with ones: y = x * x gives 2x.
	grads, err := Backward(y, budget)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := grads.Get(x)
	if !slices.Equal(g.F, []float64{2, 4}) {
		t.Errorf("d sum(x*x) = %v, want [2 4]", g.F)
	}
	if grads.Len() != 1 {
		t.Errorf("only leaves keep gradients: %d", grads.Len())
	}

	// A leaf that is its own root gets ones.
	grads, _ = Backward(x, budget)
	if g, _ := grads.Get(x); !slices.Equal(g.F, []float64{1, 1}) {
		t.Errorf("x.backward() gives ones: %v", g.F)
	}

	// detach cuts the graph: z = x * detach(x) has gradient detach(x).
	z, _ := Binary("mul", x, x.Detach())
	grads, _ = Backward(z, budget)
	if g, _ := grads.Get(x); !slices.Equal(g.F, []float64{1, 2}) {
		t.Errorf("gradient through detach: %v", g.F)
	}

	// Leaves that did not require grad have none; two leaves each get theirs.
	w, _ := mustFloats(t, []float64{3, 4}, []int{2}, F32).RequireGrad()
	plain := mustFloats(t, []float64{5, 6}, []int{2}, F32)
	xw, _ := Binary("mul", x, w)
	out, _ := Binary("add", xw, plain)
	grads, _ = Backward(out, budget)
	gx, _ := grads.Get(x)
	gw, _ := grads.Get(w)
	if _, ok := grads.Get(plain); ok || !slices.Equal(gx.F, []float64{3, 4}) || !slices.Equal(gw.F, []float64{1, 2}) {
		t.Errorf("gradients %v %v", gx, gw)
	}
	grads.Replace(x, Zeros([]int{2}, F32))
	if g, _ := grads.Get(x); !slices.Equal(g.F, []float64{0, 0}) {
		t.Error("grad_replace")
	}
}

func TestGradientsAccumulateOverUses(t *testing.T) {
	// loss = sum(x) + sum(2x) + sum(x*x) at x = 3: 1 + 2 + 6 = 9.
	_, g := gradOf(t, []float64{3}, F64, func(x *Tensor) *Tensor {
		two, _ := WithScalar("mul_scalar", x, IntScalar(2))
		sq, _ := Binary("mul", x, x)
		a, _ := Binary("add", x, two)
		r, _ := Binary("add", a, sq)
		return r
	})
	if g.F[0] != 9 {
		t.Errorf("gradient %v, want 9", g.F[0])
	}
}

func TestBackwardOfALongChain(t *testing.T) {
	// A snippet's loop can build a deep graph; the walk must not recurse.
	x, _ := Ones([]int{1}, F64).RequireGrad()
	y := x
	for range 100_000 {
		y, _ = WithScalar("mul_scalar", y, IntScalar(1))
	}
	grads, err := Backward(y, NewBudget(DefaultBudget, DefaultWork))
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := grads.Get(x); g.F[0] != 1 {
		t.Errorf("gradient %v", g.F)
	}
}

func TestBackwardPaysFromTheBudget(t *testing.T) {
	x, _ := Ones([]int{10}, F32).RequireGrad()
	y, _ := Unary("exp", x)
	s, _ := Reduce("sum", y, BoolNative)
	// x, exp(x), the flattening inside sum, and the sum: 10+10+10+1.
	b := NewBudget(30, DefaultWork)
	if _, err := Backward(s, b); !errors.Is(err, ErrBudget) {
		t.Errorf("31 gradient elements in a budget of 30: %v", err)
	}
	if !b.Elided() {
		t.Error("the refusal is recorded")
	}
	b = NewBudget(31, DefaultWork)
	if _, err := Backward(s, b); err != nil || b.Used() != 31 {
		t.Errorf("exactly enough: %v, used %d", err, b.Used())
	}
}

func TestToDeviceIsAStepOfTheGraph(t *testing.T) {
	w, _ := mustFloats(t, []float64{2}, []int{1}, F32).RequireGrad()
	moved := w.ToDevice()
	if !moved.Tracked() || moved.IsLeaf() || moved.F[0] != 2 {
		t.Fatal("a moved tracked tensor is a tracked non-leaf with the same values")
	}
	sq, _ := Binary("mul", moved, moved)
	grads, _ := Backward(sq, NewBudget(DefaultBudget, DefaultWork))
	if g, ok := grads.Get(w); !ok || g.F[0] != 4 {
		t.Errorf("the original receives the gradient: %v", g)
	}
	if _, ok := grads.Get(moved); ok {
		t.Error("the moved tensor is not a leaf and keeps no gradient")
	}
	plain := mustFloats(t, []float64{1}, []int{1}, F32)
	if plain.ToDevice().Tracked() {
		t.Error("an untracked tensor moves untracked")
	}
}

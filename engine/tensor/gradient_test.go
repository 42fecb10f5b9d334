package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Gradients of random compositions against central finite differences.
// Every composition keeps its running value x at shape [3, 4] and mixes in
// four leaves: a [3, 4], b [1, 4] (broadcast), m [4, 3] and n [3, 4] (a
// matmul sandwich). The loss is sum(x * w) for fixed weights w, so each
// element's gradient differs. Computed in f64, where central differences
// with h = 1e-6 are accurate to about 1e-9.

type env struct {
	leaves []*Tensor // a, b, m, n
}

// step is one operation of a composition; its random choices are made
// when the composition is built, so every evaluation replays it exactly.
type step struct {
	name string
	run  func(x *Tensor, e env) (*Tensor, error)
}

func unaryStep(method string) step {
	return step{method, func(x *Tensor, _ env) (*Tensor, error) { return Unary(method, x) }}
}

// positive maps x into (0.5, 2.5), for operations defined on positive
// values only.
func positive(x *Tensor) *Tensor {
	s, _ := Unary("tanh", x)
	p, _ := WithScalar("add_scalar", s, FloatScalar(1.5))
	return p
}

func withLeaf(method string, leaf int) step {
	return step{fmt.Sprintf("%s leaf %d", method, leaf), func(x *Tensor, e env) (*Tensor, error) {
		return Binary(method, x, e.leaves[leaf])
	}}
}

// stepMenu lists the operations a composition draws from, each taking and
// returning a [3, 4] tensor.
func stepMenu(r *rand.Rand) []step {
	rows := []int64{int64(r.IntN(3)), int64(r.IntN(3)), int64(r.IntN(3))}
	gatherIdx := make([]int64, 12)
	for i := range gatherIdx {
		gatherIdx[i] = int64(r.IntN(4))
	}
	mask := make([]bool, 12)
	for i := range mask {
		mask[i] = r.IntN(2) == 0
	}
	scatterIdx := make([]int64, 8) // [2, 4] into dim 0 of [3, 4]
	for i := range scatterIdx {
		scatterIdx[i] = int64(r.IntN(3))
	}
	scale := r.Float64() + 0.5
	return []step{
		// sigmoid and silu are left out: Burn computes sigmoid in f32
		// whatever the dtype, too coarse for f64 finite differences
		// (TestActivationGradients checks them).
		unaryStep("tanh"), unaryStep("sin"), unaryStep("cos"),
		unaryStep("neg"), unaryStep("log_sigmoid"), unaryStep("relu"),
		unaryStep("abs"), unaryStep("erf"), unaryStep("mish"),
		{"exp of half", func(x *Tensor, _ env) (*Tensor, error) {
			h, _ := WithScalar("mul_scalar", x, FloatScalar(0.5))
			return Unary("exp", h)
		}},
		{"log of positive", func(x *Tensor, _ env) (*Tensor, error) { return Unary("log", positive(x)) }},
		{"sqrt of positive", func(x *Tensor, _ env) (*Tensor, error) { return Unary("sqrt", positive(x)) }},
		{"recip of positive", func(x *Tensor, _ env) (*Tensor, error) { return Unary("recip", positive(x)) }},
		{"square", func(x *Tensor, _ env) (*Tensor, error) { return WithScalar("powf_scalar", x, FloatScalar(2)) }},
		{"cube", func(x *Tensor, _ env) (*Tensor, error) { return WithScalar("powf_scalar", x, FloatScalar(3)) }},
		{"powf_scalar 1.5 of positive", func(x *Tensor, _ env) (*Tensor, error) {
			return WithScalar("powf_scalar", positive(x), FloatScalar(1.5))
		}},
		{"powi_scalar -2 of positive", func(x *Tensor, _ env) (*Tensor, error) {
			return WithScalar("powi_scalar", positive(x), IntScalar(-2))
		}},
		{"mul_scalar", func(x *Tensor, _ env) (*Tensor, error) { return WithScalar("mul_scalar", x, FloatScalar(scale)) }},
		{"div_scalar", func(x *Tensor, _ env) (*Tensor, error) { return WithScalar("div_scalar", x, FloatScalar(scale)) }},
		{"sub_scalar", func(x *Tensor, _ env) (*Tensor, error) { return WithScalar("sub_scalar", x, FloatScalar(scale)) }},
		{"clamp", func(x *Tensor, _ env) (*Tensor, error) { return Clamp(x, FloatScalar(-0.7), FloatScalar(0.9)) }},
		withLeaf("add", 0), withLeaf("sub", 1), withLeaf("mul", 0), withLeaf("mul", 1),
		withLeaf("max_pair", 0), withLeaf("min_pair", 1), withLeaf("atan2", 0),
		{"div by positive leaf", func(x *Tensor, e env) (*Tensor, error) { return Binary("div", x, positive(e.leaves[1])) }},
		{"powf of positive", func(x *Tensor, e env) (*Tensor, error) { return Binary("powf", positive(x), e.leaves[1]) }},
		{"matmul sandwich", func(x *Tensor, e env) (*Tensor, error) {
			y, err := Matmul(x, e.leaves[2])
			if err != nil {
				return nil, err
			}
			return Matmul(y, e.leaves[3])
		}},
		{"softmax", func(x *Tensor, _ env) (*Tensor, error) { return Softmax(x, 1) }},
		{"log_softmax", func(x *Tensor, _ env) (*Tensor, error) { return LogSoftmax(x, 0) }},
		{"softmin", func(x *Tensor, _ env) (*Tensor, error) { return Softmin(x, 1) }},
		{"leaky_relu", func(x *Tensor, _ env) (*Tensor, error) { return LeakyRelu(x, 0.1), nil }},
		{"x times its row sums", func(x *Tensor, _ env) (*Tensor, error) {
			s, _ := ReduceDim("sum_dim", x, 1, 0)
			return Binary("mul", x, s)
		}},
		{"x minus its column means", func(x *Tensor, _ env) (*Tensor, error) {
			s, _ := ReduceDim("mean_dim", x, 0, 0)
			return Binary("sub", x, s)
		}},
		{"x times its row max", func(x *Tensor, _ env) (*Tensor, error) {
			s, _ := ReduceDim("max_dim", x, 1, 0)
			return Binary("mul", x, s)
		}},
		{"x plus its column min", func(x *Tensor, _ env) (*Tensor, error) {
			s, _ := ReduceDim("min_dim", x, 0, 0)
			return Binary("add", x, s)
		}},
		{"x times its column products", func(x *Tensor, _ env) (*Tensor, error) {
			s, _ := ReduceDim("prod_dim", x, 0, 0)
			return Binary("mul", x, s)
		}},
		{"x plus its mean", func(x *Tensor, _ env) (*Tensor, error) {
			s, _ := Reduce("mean", x, BoolNative)
			s, _ = Reshape(s, []int{1, 1})
			return Binary("add", x, s)
		}},
		{"cumsum", func(x *Tensor, _ env) (*Tensor, error) { return Cumsum(x, 1) }},
		{"transpose there and back with a leaf", func(x *Tensor, e env) (*Tensor, error) {
			tr, _ := Transpose(x)
			y, _ := Binary("mul", tr, e.leaves[2])
			return SwapDims(y, 0, 1)
		}},
		{"permute", func(x *Tensor, _ env) (*Tensor, error) {
			y, _ := Reshape(x, []int{3, 2, 2})
			y, _ = Permute(y, []int{0, 2, 1})
			return Reshape(y, []int{3, 4})
		}},
		{"flip", func(x *Tensor, _ env) (*Tensor, error) { return Flip(x, []int{0, 1}) }},
		{"slice halves swapped", func(x *Tensor, _ env) (*Tensor, error) {
			left, _ := Slice(x, []Range{FullRange(3), {0, 2, 1}})
			right, _ := Slice(x, []Range{FullRange(3), {2, 4, 1}})
			return Cat([]*Tensor{right, left}, 1)
		}},
		{"stepped and reversed slices", func(x *Tensor, e env) (*Tensor, error) {
			even, _ := Slice(x, []Range{FullRange(3), {0, 4, 2}})
			odd, _ := Slice(e.leaves[0], []Range{FullRange(3), {0, 4, -2}})
			return Cat([]*Tensor{even, odd}, 1)
		}},
		{"stack and sum", func(x *Tensor, e env) (*Tensor, error) {
			s, _ := Stack([]*Tensor{x, e.leaves[0], x}, 0)
			s, _ = ReduceDim("sum_dim", s, 0, 0)
			return Reshape(s, []int{3, 4})
		}},
		{"repeat and narrow", func(x *Tensor, _ env) (*Tensor, error) {
			y, _ := RepeatDim(x, 0, 2)
			return Narrow(y, 0, 1, 3)
		}},
		{"expand a leaf", func(x *Tensor, e env) (*Tensor, error) {
			y, _ := Expand(e.leaves[1], []int{3, 4})
			return Binary("mul", x, y)
		}},
		{"select rows", func(x *Tensor, _ env) (*Tensor, error) {
			idx := mustIntsNoTest(rows, []int{3})
			return Select(x, 0, idx)
		}},
		{"gather columns", func(x *Tensor, _ env) (*Tensor, error) {
			return Gather(x, 1, mustIntsNoTest(gatherIdx, []int{3, 4}))
		}},
		{"scatter add a leaf", func(x *Tensor, e env) (*Tensor, error) {
			values, _ := Slice(e.leaves[3], []Range{{0, 2, 1}, FullRange(4)})
			return Scatter(x, 0, mustIntsNoTest(scatterIdx, []int{2, 4}), values, "add")
		}},
		{"mask_where from a leaf", func(x *Tensor, e env) (*Tensor, error) {
			m, _ := FromBools(mask, []int{3, 4}, BoolNative)
			return MaskWhere(x, m, e.leaves[1])
		}},
		{"mask_fill", func(x *Tensor, _ env) (*Tensor, error) {
			m, _ := FromBools(mask, []int{3, 4}, BoolNative)
			return MaskFill(x, m, FloatScalar(0.25))
		}},
		{"f32 round trip", func(x *Tensor, _ env) (*Tensor, error) {
			// Cast keeps the graph; the f64 leaves stay exact enough.
			return Cast(Cast(x, F64), F64), nil
		}},
	}
}

func mustIntsNoTest(values []int64, shape []int) *Tensor {
	x, err := FromInts(values, shape, I64)
	if err != nil {
		panic(err)
	}
	return x
}

type composition struct {
	steps  []step
	weight *Tensor
}

func (c composition) loss(leaves []*Tensor) (*Tensor, error) {
	x := leaves[0]
	for _, s := range c.steps {
		var err error
		if x, err = s.run(x, env{leaves: leaves}); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		if !sameShape(x.Shape, []int{3, 4}) {
			return nil, fmt.Errorf("%s left shape %v", s.name, x.Shape)
		}
	}
	weighted, err := Binary("mul", x, c.weight)
	if err != nil {
		return nil, err
	}
	return Reduce("sum", weighted, BoolNative)
}

func (c composition) describe() string {
	s := ""
	for i, st := range c.steps {
		if i > 0 {
			s += " -> "
		}
		s += st.name
	}
	return s
}

func TestGradientsOfRandomCompositionsMatchFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	shapes := [][]int{{3, 4}, {1, 4}, {4, 3}, {3, 4}}
	used := map[string]bool{}
	for trial := range 20 {
		menu := stepMenu(r)
		c := composition{weight: mustFloats(t, randomValues(r, 12), []int{3, 4}, F64)}
		for range 3 + r.IntN(4) {
			s := menu[r.IntN(len(menu))]
			c.steps = append(c.steps, s)
			used[s.name] = true
		}
		values := make([][]float64, len(shapes))
		leaves := make([]*Tensor, len(shapes))
		for i, shape := range shapes {
			values[i] = randomValues(r, numel(shape))
			leaf, err := mustFloats(t, values[i], shape, F64).RequireGrad()
			if err != nil {
				t.Fatal(err)
			}
			leaves[i] = leaf
		}
		loss, err := c.loss(leaves)
		if err != nil {
			t.Fatalf("trial %d (%s): %v", trial, c.describe(), err)
		}
		grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		if err != nil {
			t.Fatalf("trial %d (%s): %v", trial, c.describe(), err)
		}
		// Central differences lose about 1e-10 of the largest terms of the
		// loss to rounding; the largest gradient stands in for their size.
		analytic := make([][]float64, len(shapes))
		largest := 1.0
		for li, shape := range shapes {
			analytic[li] = make([]float64, numel(shape))
			if g, ok := grads.Get(leaves[li]); ok {
				analytic[li] = g.F
			}
			for _, v := range analytic[li] {
				largest = math.Max(largest, math.Abs(v))
			}
		}
		for li, shape := range shapes {
			for i := range numel(shape) {
				fd := centralDifference(t, c, shapes, values, li, i)
				got := analytic[li][i]
				if math.Abs(got-fd) > 1e-3*math.Max(math.Abs(got), math.Abs(fd))+1e-7*largest {
					t.Errorf("trial %d (%s): d loss / d leaf%d[%d] = %v, finite difference %v",
						trial, c.describe(), li, i, got, fd)
				}
			}
		}
	}
	t.Logf("%d distinct operations exercised", len(used))
}

func centralDifference(t *testing.T, c composition, shapes [][]int, values [][]float64, leaf, i int) float64 {
	const h = 1e-6
	eval := func(delta float64) float64 {
		leaves := make([]*Tensor, len(shapes))
		for k, shape := range shapes {
			v := append([]float64(nil), values[k]...)
			if k == leaf {
				v[i] += delta
			}
			leaves[k] = mustFloats(t, v, shape, F64)
		}
		loss, err := c.loss(leaves)
		if err != nil {
			t.Fatal(err)
		}
		return loss.F[0]
	}
	return (eval(h) - eval(-h)) / (2 * h)
}

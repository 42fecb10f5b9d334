package tensor

import (
	"fmt"
	"math"
)

// Element-wise operations, keyed by the Burn method that performs them.
// Each float result is rounded to the dtype, as a backend computing in
// that dtype stores it; derivatives follow burn-autodiff's backward steps
// (crates/burn-autodiff/src/ops/tensor.rs).

// unaryKernel is one element-wise method of one input.
type unaryKernel struct {
	float func(x float64) float64
	// int is the Int tensor form; nil when the method is float-only.
	int func(x int64) int64
	// deriv is d out / d x given the input and the result; nil where the
	// derivative is zero everywhere (round, floor, sign, ...).
	deriv func(x, y float64) float64
}

var unaryKernels = map[string]unaryKernel{
	"neg": {float: func(x float64) float64 { return -x }, int: func(x int64) int64 { return -x },
		deriv: func(float64, float64) float64 { return -1 }},
	"abs":   {float: math.Abs, int: absInt, deriv: func(x, _ float64) float64 { return signFloat(x) }},
	"sign":  {float: signFloat, int: signInt},
	"sqrt":  {float: math.Sqrt, deriv: func(_, y float64) float64 { return 0.5 / y }},
	"exp":   {float: math.Exp, deriv: func(_, y float64) float64 { return y }},
	"log":   {float: math.Log, deriv: func(x, _ float64) float64 { return 1 / x }},
	"log1p": {float: math.Log1p, deriv: func(x, _ float64) float64 { return 1 / (1 + x) }},
	"sin":   {float: math.Sin, deriv: func(x, _ float64) float64 { return math.Cos(x) }},
	"cos":   {float: math.Cos, deriv: func(x, _ float64) float64 { return -math.Sin(x) }},
	"tan":   {float: math.Tan, deriv: func(_, y float64) float64 { return 1 + y*y }},
	"tanh":  {float: math.Tanh, deriv: func(_, y float64) float64 { return 1 - y*y }},
	"sinh":  {float: math.Sinh, deriv: func(x, _ float64) float64 { return math.Cosh(x) }},
	"cosh":  {float: math.Cosh, deriv: func(x, _ float64) float64 { return math.Sinh(x) }},
	"erf": {float: math.Erf, deriv: func(x, _ float64) float64 {
		return 2 / math.SqrtPi * math.Exp(-x*x)
	}},
	"recip": {float: func(x float64) float64 { return 1 / x }, deriv: func(x, _ float64) float64 { return -1 / (x * x) }},
	// Burn rounds half to even, as PyTorch does.
	"round": {float: math.RoundToEven},
	"floor": {float: math.Floor},
	"ceil":  {float: math.Ceil},
	"trunc": {float: math.Trunc},
}

func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// signFloat is Flex's float_sign (burn-flex/src/ops/float.rs:569): NaN
// stays NaN and either zero is +0.0.
func signFloat(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case x == 0:
		return 0
	}
	return x
}

func signInt(x int64) int64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Unary applies the element-wise method named method (neg, abs, sign,
// square, sqrt, exp, log, log1p, sin, cos, tan, tanh, sinh, cosh, erf, recip,
// round, floor, ceil, trunc) and the activations relu, sigmoid,
// log_sigmoid, gelu, silu and mish.
func Unary(method string, t *Tensor) (*Tensor, error) {
	if act, ok := activation(method); ok {
		if !t.DType.IsFloat() {
			return nil, kindError("%s of a %s tensor", method, t.DType.Kind())
		}
		return act(t), nil
	}
	if method == "square" {
		// Tensor::square is powi_scalar(2) on floats, int_square on ints.
		if t.DType.IsBool() {
			return nil, kindError("square of a Bool tensor")
		}
		return WithScalar("powi_scalar", t, IntScalar(2))
	}
	k, ok := unaryKernels[method]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	switch {
	case t.DType.IsFloat():
		return unaryFloat(t, k.float, k.deriv), nil
	case t.DType.IsInt() && k.int != nil:
		f := k.int
		if t.DType.unsigned() && (method == "abs" || method == "sign") {
			// An unsigned value is never negative, whatever its bit pattern
			// reads as in int64.
			f = func(x int64) int64 { return pick(method == "abs", x, pick(x != 0, int64(1), 0)) }
		}
		out := newData(t.DType, t.Shape)
		for i, v := range t.I {
			out.I[i] = t.DType.wrapInt(f(v))
		}
		return &Tensor{Data: *out}, nil
	}
	return nil, kindError("%s of a %s tensor", method, t.DType.Kind())
}

// unaryFloat computes f element-wise; deriv nil means a zero gradient.
func unaryFloat(t *Tensor, f func(float64) float64, deriv func(x, y float64) float64) *Tensor {
	out := newData(t.DType, t.Shape)
	for i, x := range t.F {
		out.F[i] = t.DType.roundFloat(f(x))
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		gin := make([]float64, len(g.F))
		if deriv != nil {
			for i, v := range g.F {
				gin[i] = v * deriv(t.F[i], out.F[i])
			}
		}
		return []*Data{sumInto(gin, nil, t.Shape, t.DType)}
	})
}

// binaryKernel is one element-wise method of two same-kind inputs.
type binaryKernel struct {
	float func(a, b float64) float64
	int   func(a, b int64) (int64, error)
	// da and db are the partial derivatives given the inputs and result.
	da, db func(a, b, y float64) float64
}

func one(float64, float64, float64) float64 { return 1 }

var binaryKernels = map[string]binaryKernel{
	// prelu(x, alpha): x where x >= 0, alpha·x elsewhere (Flex's prelu,
	// burn-flex/src/ops/activation.rs:48-56).
	"prelu": {float: func(x, a float64) float64 {
		if x >= 0 {
			return x
		}
		return a * x
	}, da: func(x, a, _ float64) float64 {
		if x >= 0 {
			return 1
		}
		return a
	}, db: func(x, _, _ float64) float64 {
		if x >= 0 {
			return 0
		}
		return x
	}},
	"add": {float: func(a, b float64) float64 { return a + b },
		int: func(a, b int64) (int64, error) { return a + b, nil }, da: one, db: one},
	"sub": {float: func(a, b float64) float64 { return a - b },
		int: func(a, b int64) (int64, error) { return a - b, nil }, da: one,
		db: func(float64, float64, float64) float64 { return -1 }},
	"mul": {float: func(a, b float64) float64 { return a * b },
		int: func(a, b int64) (int64, error) { return a * b, nil },
		da:  func(_, b, _ float64) float64 { return b }, db: func(a, _, _ float64) float64 { return a }},
	"div": {float: func(a, b float64) float64 { return a / b }, int: divInt,
		da: func(_, b, _ float64) float64 { return 1 / b },
		db: func(a, b, _ float64) float64 { return -a / (b * b) }},
	"remainder": {float: remFloat, int: remInt, da: one,
		db: func(a, b, _ float64) float64 { return -math.Floor(a / b) }},
	"powf": {float: math.Pow, int: powInt,
		da: func(a, b, _ float64) float64 { return b * math.Pow(a, b-1) },
		db: func(a, _, y float64) float64 { return y * math.Log(a) }},
	"atan2": {float: math.Atan2,
		da: func(a, b, _ float64) float64 { return b / (a*a + b*b) },
		db: func(a, b, _ float64) float64 { return -a / (a*a + b*b) }},
	// max_pair and min_pair are mask_where(lower/greater) in burn-tensor
	// (orderable.rs:708-724): the gradient follows the element chosen.
	"max_pair": {float: func(a, b float64) float64 { return pick(a < b, b, a) },
		int: func(a, b int64) (int64, error) { return pick(a < b, b, a), nil },
		da:  func(a, b, _ float64) float64 { return pick(a < b, 0.0, 1) },
		db:  func(a, b, _ float64) float64 { return pick(a < b, 1.0, 0) }},
	"min_pair": {float: func(a, b float64) float64 { return pick(a > b, b, a) },
		int: func(a, b int64) (int64, error) { return pick(a > b, b, a), nil },
		da:  func(a, b, _ float64) float64 { return pick(a > b, 0.0, 1) },
		db:  func(a, b, _ float64) float64 { return pick(a > b, 1.0, 0) }},
}

func pick[T any](cond bool, yes, no T) T {
	if cond {
		return yes
	}
	return no
}

// remFloat is Burn's remainder: the result takes the divisor's sign,
// x - floor(x / y) * y, as Python's % does.
func remFloat(a, b float64) float64 {
	r := math.Mod(a, b)
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

func divInt(a, b int64) (int64, error) {
	if b == 0 {
		return 0, ErrIntDivideByZero
	}
	if b == -1 {
		return -a, nil // MinInt64 / -1 wraps instead of trapping
	}
	return a / b, nil
}

func remInt(a, b int64) (int64, error) {
	if b == 0 {
		return 0, ErrIntDivideByZero
	}
	if b == -1 {
		return 0, nil
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r, nil
}

// powInt is int_powi: Burn raises ints through the float path
// (int_powi_scalar_impl converts to float and back).
func powInt(a, b int64) (int64, error) {
	return I64.floatToInt(math.Pow(float64(a), float64(b))), nil
}

// Binary applies the element-wise method of two same-kind tensors with
// broadcasting: add, sub, mul, div, remainder, powf (powi is powf on
// floats and int_powi on ints), atan2, max_pair, min_pair; and bool_and,
// bool_or, bool_xor on bools. The result has the left operand's dtype.
func Binary(method string, a, b *Tensor) (*Tensor, error) {
	if method == "powi" {
		method = "powf"
	}
	if op, ok := boolBinary[method]; ok {
		return boolOp(a, b, op)
	}
	k, ok := binaryKernels[method]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	if a.DType.Kind() != b.DType.Kind() {
		return nil, kindError("%s of %s and %s tensors", method, a.DType.Kind(), b.DType.Kind())
	}
	shape, err := broadcastShape(a.Shape, b.Shape)
	if err != nil {
		return nil, err
	}
	ia, ib := broadcastIndex(a.Shape, shape), broadcastIndex(b.Shape, shape)
	switch {
	case a.DType.IsFloat():
		return binaryFloat(a, b, shape, ia, ib, k), nil
	case a.DType.IsInt() && k.int != nil:
		out := newData(a.DType, shape)
		for i := range out.I {
			v, err := k.int(a.I[at(ia, i)], b.I[at(ib, i)])
			if err != nil {
				return nil, err
			}
			out.I[i] = a.DType.wrapInt(v)
		}
		return &Tensor{Data: *out}, nil
	}
	return nil, kindError("%s of %s tensors", method, a.DType.Kind())
}

func binaryFloat(a, b *Tensor, shape, ia, ib []int, k binaryKernel) *Tensor {
	out := newData(a.DType, shape)
	for i := range out.F {
		out.F[i] = a.DType.roundFloat(k.float(a.F[at(ia, i)], b.F[at(ib, i)]))
	}
	return track(out, []*Tensor{a, b}, func(g *Data, need []bool) []*Data {
		grads := make([]*Data, 2)
		for side, partial := range []func(a, b, y float64) float64{k.da, k.db} {
			if !need[side] {
				continue
			}
			gin := make([]float64, len(g.F))
			for i, v := range g.F {
				gin[i] = v * partial(a.F[at(ia, i)], b.F[at(ib, i)], out.F[i])
			}
			operand, index := a, ia
			if side == 1 {
				operand, index = b, ib
			}
			grads[side] = sumInto(gin, index, operand.Shape, operand.DType)
		}
		return grads
	})
}

var boolBinary = map[string]func(a, b bool) bool{
	"bool_and": func(a, b bool) bool { return a && b },
	"bool_or":  func(a, b bool) bool { return a || b },
	"bool_xor": func(a, b bool) bool { return a != b },
}

func boolOp(a, b *Tensor, op func(a, b bool) bool) (*Tensor, error) {
	if !a.DType.IsBool() || !b.DType.IsBool() {
		return nil, kindError("bool op on %s and %s tensors", a.DType.Kind(), b.DType.Kind())
	}
	shape, err := broadcastShape(a.Shape, b.Shape)
	if err != nil {
		return nil, err
	}
	ia, ib := broadcastIndex(a.Shape, shape), broadcastIndex(b.Shape, shape)
	out := newData(a.DType, shape)
	for i := range out.B {
		out.B[i] = op(a.B[at(ia, i)], b.B[at(ib, i)])
	}
	return &Tensor{Data: *out}, nil
}

// Not is bool_not / not().
func Not(t *Tensor) (*Tensor, error) {
	if !t.DType.IsBool() {
		return nil, kindError("not of a %s tensor", t.DType.Kind())
	}
	out := newData(t.DType, t.Shape)
	for i, v := range t.B {
		out.B[i] = !v
	}
	return &Tensor{Data: *out}, nil
}

// scalarMethods maps each scalar method to the binary kernel it applies
// with the scalar as the right operand.
var scalarMethods = map[string]string{
	"add_scalar": "add", "sub_scalar": "sub", "mul_scalar": "mul", "div_scalar": "div",
	"remainder_scalar": "remainder", "powf_scalar": "powf", "powi_scalar": "powf",
	"clamp_min": "max_pair", "clamp_max": "min_pair",
}

// WithScalar applies a method whose second operand is a scalar:
// add_scalar, sub_scalar, mul_scalar, div_scalar, remainder_scalar,
// powf_scalar, powi_scalar, clamp_min and clamp_max. The scalar is first
// converted to the tensor's dtype, as Scalar::elem converts it in the
// backend.
func WithScalar(method string, t *Tensor, s Scalar) (*Tensor, error) {
	name, ok := scalarMethods[method]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	if t.DType.IsBool() {
		return nil, kindError("%s of a Bool tensor", method)
	}
	if t.DType.IsFloat() && (method == "powf_scalar" || method == "powi_scalar") {
		return powScalar(t, s), nil
	}
	if t.DType.IsInt() && name == "powf" {
		if e, ok := s.integer(); ok && e == 2 {
			return Binary("mul", t, t)
		}
	}
	return scalarOp(t, s, binaryKernels[name])
}

// scalarOp applies a binary kernel with a constant right operand. The
// derivative for the clamps is the one mask_fill gives burn-autodiff's
// default clamp_min/clamp_max: zero where the value was replaced.
func scalarOp(t *Tensor, s Scalar, k binaryKernel) (*Tensor, error) {
	if t.DType.IsInt() {
		v := s.asInt(t.DType)
		out := newData(t.DType, t.Shape)
		for i, x := range t.I {
			r, err := k.int(x, v)
			if err != nil {
				return nil, err
			}
			out.I[i] = t.DType.wrapInt(r)
		}
		return &Tensor{Data: *out}, nil
	}
	v := s.asFloat(t.DType)
	return unaryFloat(t, func(x float64) float64 { return k.float(x, v) },
		func(x, y float64) float64 { return k.da(x, v, y) }), nil
}

// powScalar is float_powf_scalar: an integral exponent goes through
// float_powi_scalar, whose small cases burn-backend rewrites
// (crates/burn-backend/src/backend/ops/tensor.rs:1095-1151); the graph
// those rewrites build is what autodiff differentiates.
func powScalar(t *Tensor, s Scalar) *Tensor {
	e, integral := s.integer()
	if integral {
		switch e {
		case 0:
			return Ones(t.Shape, t.DType) // a fresh tensor: no gradient flows
		case 1:
			return t
		case 2:
			r, _ := Binary("mul", t, t)
			return r
		case -1:
			r, _ := Unary("recip", t)
			return r
		case -2:
			sq, _ := Binary("mul", t, t)
			r, _ := Unary("recip", sq)
			return r
		}
	}
	v := s.F
	if s.IsInt {
		v = float64(s.I)
	}
	return unaryFloat(t, func(x float64) float64 { return math.Pow(x, v) },
		func(x, _ float64) float64 {
			// burn-autodiff's PowfScalar: powf_scalar(x, v - 1) * v, each
			// step a backend op in the dtype.
			return t.DType.roundFloat(t.DType.roundFloat(math.Pow(x, v-1)) * v)
		})
}

// Clamp is clamp(min, max): clamp_max then clamp_min, as burn-backend's
// default float_clamp composes them.
func Clamp(t *Tensor, min, max Scalar) (*Tensor, error) {
	upper, err := WithScalar("clamp_max", t, max)
	if err != nil {
		return nil, err
	}
	return WithScalar("clamp_min", upper, min)
}

// comparisons are the order and equality tests, on floats and ints.
var comparisons = map[string]func(c int) bool{
	"equal":         func(c int) bool { return c == 0 },
	"not_equal":     func(c int) bool { return c != 0 },
	"greater":       func(c int) bool { return c > 0 },
	"greater_equal": func(c int) bool { return c >= 0 },
	"lower":         func(c int) bool { return c < 0 },
	"lower_equal":   func(c int) bool { return c <= 0 },
}

// unordered marks a comparison with NaN: every test but not_equal fails.
const unordered = 2

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	return unordered
}

func compareInt(d DType, a, b int64) int {
	if d == U64 {
		ua, ub := uint64(a), uint64(b)
		return pick(ua < ub, -1, pick(ua > ub, 1, 0))
	}
	return pick(a < b, -1, pick(a > b, 1, 0))
}

func testFor(method string) (func(int) bool, bool) {
	test, ok := comparisons[method]
	if !ok {
		return nil, false
	}
	if method == "not_equal" {
		return func(c int) bool { return c != 0 }, true
	}
	return func(c int) bool { return c != unordered && test(c) }, true
}

// Compare applies equal, not_equal, greater, greater_equal, lower or
// lower_equal to two tensors of one kind with broadcasting; bools support
// equal and not_equal. The result has boolDType, the device's bool store.
func Compare(method string, a, b *Tensor, boolDType DType) (*Tensor, error) {
	test, ok := testFor(method)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	if a.DType.Kind() != b.DType.Kind() {
		return nil, kindError("%s of %s and %s tensors", method, a.DType.Kind(), b.DType.Kind())
	}
	if a.DType.IsBool() && method != "equal" && method != "not_equal" {
		return nil, kindError("%s of Bool tensors", method)
	}
	shape, err := broadcastShape(a.Shape, b.Shape)
	if err != nil {
		return nil, err
	}
	ia, ib := broadcastIndex(a.Shape, shape), broadcastIndex(b.Shape, shape)
	out := newData(boolDType, shape)
	for i := range out.B {
		x, y := at(ia, i), at(ib, i)
		var c int
		switch {
		case a.DType.IsFloat():
			c = compareFloat(a.F[x], b.F[y])
		case a.DType.IsInt():
			c = compareInt(a.DType, a.I[x], b.I[y])
		default:
			c = pick(a.B[x] == b.B[y], 0, 1)
		}
		out.B[i] = test(c)
	}
	return &Tensor{Data: *out}, nil
}

// elemMethods maps the scalar comparisons (equal_elem, greater_scalar,
// ...) to the test they apply.
var elemMethods = map[string]string{
	"equal_elem": "equal", "not_equal_elem": "not_equal",
	"greater_elem": "greater", "greater_equal_elem": "greater_equal",
	"lower_elem": "lower", "lower_equal_elem": "lower_equal",
	"equal_scalar": "equal", "not_equal_scalar": "not_equal",
	"greater_scalar": "greater", "greater_equal_scalar": "greater_equal",
	"lower_scalar": "lower", "lower_equal_scalar": "lower_equal",
}

// CompareScalar applies a comparison with a scalar (equal_elem,
// not_equal_elem, greater_elem, greater_equal_elem, lower_elem,
// lower_equal_elem and their *_scalar names), the scalar converted to the
// tensor's dtype first.
func CompareScalar(method string, t *Tensor, s Scalar, boolDType DType) (*Tensor, error) {
	name, ok := elemMethods[method]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	var other *Tensor
	switch {
	case t.DType.IsBool() && name != "equal" && name != "not_equal":
		return nil, kindError("%s of a Bool tensor", method)
	default:
		// A Bool tensor's equal_elem compares with the scalar as a bool,
		// non-zero being true (Flex's bool_equal_elem, burn-flex/src/ops/
		// bool.rs:293); Full makes that bool.
		other = Full(ones(len(t.Shape)), t.DType, s)
	}
	return Compare(name, t, other, boolDType)
}

// ones is a shape of rank dims, all 1: a scalar broadcast to any shape.
func ones(rank int) []int {
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1
	}
	return shape
}

// Cast converts to another dtype: float() of an int or bool tensor,
// int() of a float or bool one, bool() (not_equal_elem(0)), and
// float-to-float casts. Only a float-to-float cast keeps the graph
// (burn-autodiff's float_cast); int and bool have none to keep, and
// package dispatch starts fresh leaves for their float() results.
func Cast(t *Tensor, to DType) *Tensor {
	out := t.Data.Cast(to)
	if !t.DType.IsFloat() || !to.IsFloat() {
		return &Tensor{Data: *out}
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		return []*Data{g.Cast(t.DType)}
	})
}

package rstd

import (
	"math"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// f32 and f64. A Float holds an f32 as the float64 of its f32 value; every
// operation on f32 is rounded back to f32, as Rust computes it (for +, -,
// * and / the float64 result rounded once is the f32 result exactly).

func round(v float64, suffix string) dispatch.Float {
	if suffix == "f32" {
		v = float64(float32(v))
	}
	return dispatch.Float{V: v, Suffix: suffix}
}

// FloatBinary computes op on two floats of one type.
func FloatBinary(op string, a, b float64, suffix string) (Value, bool) {
	if suffix == "f32" {
		// An operand typed by its context (an unsuffixed literal) is
		// an f32 too.
		a, b = float64(float32(a)), float64(float32(b))
	}
	switch op {
	case "+":
		return round(a+b, suffix), true
	case "-":
		return round(a-b, suffix), true
	case "*":
		return round(a*b, suffix), true
	case "/":
		return round(a/b, suffix), true
	case "%":
		return round(math.Mod(a, b), suffix), true
	case "==":
		return dispatch.Bool(a == b), true
	case "!=":
		return dispatch.Bool(a != b), true
	case "<":
		return dispatch.Bool(a < b), true
	case "<=":
		return dispatch.Bool(a <= b), true
	case ">":
		return dispatch.Bool(a > b), true
	case ">=":
		return dispatch.Bool(a >= b), true
	}
	return nil, false
}

var floatUnary = map[string]func(float64) float64{
	"sqrt": math.Sqrt, "cbrt": math.Cbrt, "exp": math.Exp, "exp2": math.Exp2, "exp_m1": math.Expm1,
	"ln": math.Log, "log10": math.Log10, "log2": math.Log2, "ln_1p": math.Log1p,
	"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "asin": math.Asin, "acos": math.Acos, "atan": math.Atan,
	"sinh": math.Sinh, "cosh": math.Cosh, "tanh": math.Tanh, "asinh": math.Asinh, "acosh": math.Acosh, "atanh": math.Atanh,
	"abs": math.Abs, "floor": math.Floor, "ceil": math.Ceil, "round": math.Round, "trunc": math.Trunc,
	"fract":      func(x float64) float64 { return x - math.Trunc(x) },
	"recip":      func(x float64) float64 { return 1 / x },
	"to_degrees": func(x float64) float64 { return x * (180 / math.Pi) },
	"to_radians": func(x float64) float64 { return x * (math.Pi / 180) },
	"signum": func(x float64) float64 {
		switch {
		case math.IsNaN(x):
			return x
		case math.Signbit(x):
			return -1
		}
		return 1
	},
	"round_ties_even": math.RoundToEven,
}

var floatBinaryMethods = map[string]func(a, b float64) float64{
	"powf": math.Pow, "atan2": math.Atan2, "hypot": math.Hypot, "log": func(a, b float64) float64 { return math.Log(a) / math.Log(b) },
	"copysign": math.Copysign, "rem_euclid": func(a, b float64) float64 {
		r := math.Mod(a, b)
		if r < 0 {
			r += math.Abs(b)
		}
		return r
	},
	"div_euclid": func(a, b float64) float64 {
		q := math.Trunc(a / b)
		if math.Mod(a, b) < 0 {
			if b > 0 {
				q--
			} else {
				q++
			}
		}
		return q
	},
	// Rust's min and max ignore a NaN operand.
	"min": func(a, b float64) float64 {
		if math.IsNaN(a) {
			return b
		}
		if math.IsNaN(b) {
			return a
		}
		return math.Min(a, b)
	},
	"max": func(a, b float64) float64 {
		if math.IsNaN(a) {
			return b
		}
		if math.IsNaN(b) {
			return a
		}
		return math.Max(a, b)
	},
}

func floatArg(args []Value, i int) (float64, bool) {
	if i >= len(args) {
		return 0, false
	}
	switch x := dispatch.Deref(args[i]).(type) {
	case dispatch.Float:
		return x.V, true
	case dispatch.Int:
		return float64(x.V), true
	}
	return 0, false
}

func floatMethod(x dispatch.Float, call Call) (Value, bool, error) {
	name, args, v := call.Name, call.Args, x.V
	if x.Suffix == "" && len(args) > 0 {
		x.Suffix = suffixOf(args[0])
	}
	if f, isUnary := floatUnary[name]; isUnary && len(args) == 0 {
		if x.Suffix == "f32" {
			v = float64(float32(v))
		}
		return round(f(v), x.Suffix), true, nil
	}
	if f, isBinary := floatBinaryMethods[name]; isBinary && len(args) == 1 {
		b, isNum := floatArg(args, 0)
		if !isNum {
			return nil, false, nil
		}
		return round(f(v, b), x.Suffix), true, nil
	}
	switch name {
	case "powi":
		n, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		return round(math.Pow(v, float64(n)), x.Suffix), true, nil
	case "mul_add":
		a, ok1 := floatArg(args, 0)
		b, ok2 := floatArg(args, 1)
		if !ok1 || !ok2 {
			return nil, false, nil
		}
		return round(math.FMA(v, a, b), x.Suffix), true, nil
	case "clamp":
		lo, ok1 := floatArg(args, 0)
		hi, ok2 := floatArg(args, 1)
		if !ok1 || !ok2 {
			return nil, false, nil
		}
		if !(lo <= hi) {
			return nil, true, panicf("min > max, or either was NaN. min = " + FloatDebug(round(lo, x.Suffix)) + ", max = " + FloatDebug(round(hi, x.Suffix)))
		}
		return round(math.Max(lo, math.Min(hi, v)), x.Suffix), true, nil
	case "is_nan":
		return dispatch.Bool(math.IsNaN(v)), true, nil
	case "is_finite":
		return dispatch.Bool(!math.IsNaN(v) && !math.IsInf(v, 0)), true, nil
	case "is_infinite":
		return dispatch.Bool(math.IsInf(v, 0)), true, nil
	case "is_sign_positive":
		return dispatch.Bool(!math.Signbit(v)), true, nil
	case "is_sign_negative":
		return dispatch.Bool(math.Signbit(v)), true, nil
	case "is_normal":
		return dispatch.Bool(v != 0 && !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) >= minNormal(x.Suffix)), true, nil
	case "total_cmp", "partial_cmp":
		b, isNum := floatArg(args, 0)
		if !isNum {
			return nil, false, nil
		}
		o := ordering(compareFloat(v, b))
		if name == "partial_cmp" {
			if math.IsNaN(v) || math.IsNaN(b) {
				return none(), true, nil
			}
			return some(o), true, nil
		}
		return o, true, nil
	case "to_string":
		return dispatch.Str(Display(x)), true, nil
	case "clone", "to_owned", "into", "from":
		return x, true, nil
	case "to_bits":
		if x.Suffix == "f32" {
			return dispatch.Int{V: int64(math.Float32bits(float32(v))), Suffix: "u32"}, true, nil
		}
		return dispatch.Int{V: int64(math.Float64bits(v)), Suffix: "u64"}, true, nil
	}
	if p, isPtr := pointerMethod(x, name, args); isPtr {
		return p, true, nil
	}
	return nil, false, nil
}

func minNormal(suffix string) float64 {
	if suffix == "f32" {
		return 1.1754943508222875e-38
	}
	return 2.2250738585072014e-308
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	// total_cmp puts NaN above everything.
	if math.IsNaN(a) && !math.IsNaN(b) {
		return 1
	}
	if math.IsNaN(b) && !math.IsNaN(a) {
		return -1
	}
	return 0
}

func ordering(c int) Value {
	v := "Equal"
	if c < 0 {
		v = "Less"
	} else if c > 0 {
		v = "Greater"
	}
	return &dispatch.Enum{Type: "Ordering", Variant: v}
}

var floatConsts = map[string]float64{
	"PI": math.Pi, "E": math.E, "TAU": 2 * math.Pi, "SQRT_2": math.Sqrt2, "LN_2": math.Ln2, "LN_10": math.Ln10,
	"LOG2_E": math.Log2E, "LOG10_E": math.Log10E, "LOG2_10": math.Log2(10), "LOG10_2": math.Log10(2),
	"FRAC_PI_2": math.Pi / 2, "FRAC_PI_3": math.Pi / 3, "FRAC_PI_4": math.Pi / 4, "FRAC_PI_6": math.Pi / 6, "FRAC_PI_8": math.Pi / 8,
	"FRAC_1_PI": 1 / math.Pi, "FRAC_2_PI": 2 / math.Pi, "FRAC_2_SQRT_PI": 2 / math.Sqrt(math.Pi), "FRAC_1_SQRT_2": 1 / math.Sqrt2,
}

// FloatConst is `f32::MAX`, `f64::EPSILON`, `std::f32::consts::PI` (typ
// is "f32" or "f64", name the last segment).
func FloatConst(typ, name string, consts bool) (Value, bool) {
	if typ != "f32" && typ != "f64" {
		return nil, false
	}
	if consts {
		c, ok := floatConsts[name]
		return round(c, typ), ok
	}
	f32 := typ == "f32"
	var v float64
	switch name {
	case "MAX":
		v = math.MaxFloat64
		if f32 {
			v = math.MaxFloat32
		}
	case "MIN":
		v = -math.MaxFloat64
		if f32 {
			v = -math.MaxFloat32
		}
	case "MIN_POSITIVE":
		v = minNormal(typ)
	case "EPSILON":
		v = 2.220446049250313e-16
		if f32 {
			v = 1.1920929e-07
		}
	case "INFINITY":
		v = math.Inf(1)
	case "NEG_INFINITY":
		v = math.Inf(-1)
	case "NAN":
		v = math.NaN()
	default:
		return nil, false
	}
	return dispatch.Float{V: v, Suffix: typ}, true
}

// Const is a path to a constant of a primitive type: `u64::MAX`,
// `f32::EPSILON`, `std::f64::consts::PI`, `core::i32::MIN`.
func Const(path []string) (Value, bool) {
	n := len(path)
	if n < 2 {
		return nil, false
	}
	name := path[n-1]
	if n >= 3 && path[n-2] == "consts" {
		return FloatConst(path[n-3], name, true)
	}
	if v, ok := IntConst(path[n-2], name); ok {
		return v, true
	}
	return FloatConst(path[n-2], name, false)
}

func boolMethod(c Caller, x dispatch.Bool, call Call) (Value, bool, error) {
	switch call.Name {
	case "then":
		if len(call.Args) != 1 {
			return nil, false, nil
		}
		if !x {
			return none(), true, nil
		}
		v, err := c.Call(call.Args[0], nil)
		if err != nil {
			return nil, true, err
		}
		return some(v), true, nil
	case "clone", "to_owned", "into":
		return x, true, nil
	case "to_string":
		return dispatch.Str(Display(x)), true, nil
	case "then_some":
		if len(call.Args) == 1 {
			return option(call.Args[0], bool(x)), true, nil
		}
	}
	return nil, false, nil
}

// WithType gives a number the type its context names: an unsuffixed
// literal in `let x: f32 = 0.1;` is the f32 nearest 0.1.
func WithType(v Value, typ string) Value { return withType(v, typ) }

// ElemType is the element type of a declared array, slice or Vec type
// (`Vec<f32>`, `[u8; 4]`, `&[i64]`).
func ElemType(declared string) (string, bool) {
	t := strings.TrimSpace(declared)
	t = strings.TrimPrefix(t, "&")
	t = strings.TrimSpace(strings.TrimPrefix(t, "mut "))
	switch {
	case strings.HasPrefix(t, "Vec<") && strings.HasSuffix(t, ">"):
		return strings.TrimSpace(t[4 : len(t)-1]), true
	case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]"):
		inner := t[1 : len(t)-1]
		if i := strings.LastIndex(inner, ";"); i >= 0 {
			inner = inner[:i]
		}
		return strings.TrimSpace(inner), true
	}
	return "", false
}

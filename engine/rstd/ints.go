package rstd

import (
	"cmp"
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Rust's integer types. An Int holds every value of a type up to 64 bits
// (a u64 or usize as its bit pattern in V); an i128 or u128 value outside
// int64 is a Big.

// IntType is one of Rust's integer types.
type IntType struct {
	Name   string
	Bits   uint
	Signed bool
}

var intTypes = map[string]IntType{}

func init() {
	for _, t := range []IntType{
		{"i8", 8, true}, {"i16", 16, true}, {"i32", 32, true}, {"i64", 64, true}, {"i128", 128, true}, {"isize", 64, true},
		{"u8", 8, false}, {"u16", 16, false}, {"u32", 32, false}, {"u64", 64, false}, {"u128", 128, false}, {"usize", 64, false},
	} {
		intTypes[t.Name] = t
	}
}

// IsIntType reports whether name is one of Rust's integer types.
func IsIntType(name string) bool { _, ok := intTypes[name]; return ok }

// intType is the type of a suffix; an unsuffixed integer is an i32, as
// rustc defaults it.
func intType(suffix string) IntType {
	if t, ok := intTypes[suffix]; ok {
		return t
	}
	return IntType{"i32", 32, true}
}

// Big is an i128 or u128 value that does not fit an int64.
type Big struct {
	V      *big.Int
	Suffix string
}

func (b *Big) TypeName() string { return b.Suffix }

// min and max of the type, exact.
func (t IntType) min() *big.Int {
	if !t.Signed {
		return new(big.Int)
	}
	return new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), t.Bits-1))
}

func (t IntType) max() *big.Int {
	n := t.Bits
	if t.Signed {
		n--
	}
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), n), big.NewInt(1))
}

// toBig is the exact value of an Int or Big.
func toBig(v Value) (*big.Int, IntType, bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		t := intType(x.Suffix)
		if !t.Signed && t.Bits == 64 {
			return new(big.Int).SetUint64(uint64(x.V)), t, true
		}
		return big.NewInt(x.V), t, true
	case *Big:
		return new(big.Int).Set(x.V), intType(x.Suffix), true
	}
	return nil, IntType{}, false
}

// fromBig is the value n of type t, which n must fit.
func fromBig(n *big.Int, t IntType, suffix string) Value {
	switch {
	case t.Bits == 64 && !t.Signed:
		return dispatch.Int{V: int64(n.Uint64()), Suffix: suffix}
	case n.IsInt64():
		return dispatch.Int{V: n.Int64(), Suffix: suffix}
	}
	return &Big{V: n, Suffix: suffix}
}

func fits(n *big.Int, t IntType) bool { return n.Cmp(t.min()) >= 0 && n.Cmp(t.max()) <= 0 }

// wrapBig reduces n modulo 2^bits into t's range, as wrapping_ ops and
// `as` do.
func wrapBig(n *big.Int, t IntType) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), t.Bits)
	r := new(big.Int).Mod(n, m)
	if t.Signed && r.Cmp(t.max()) > 0 {
		r.Sub(r, m)
	}
	return r
}

// truncate wraps a 64-bit pattern to a type of at most 64 bits.
func truncate(raw int64, t IntType) int64 {
	if t.Bits >= 64 {
		return raw
	}
	shift := 64 - t.Bits
	if t.Signed {
		return raw << shift >> shift
	}
	return int64(uint64(raw) << shift >> shift)
}

var overflowVerb = map[string]string{"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "calculate the remainder",
	"<<": "shift left", ">>": "shift right"}

func overflow(op string) error { return panicf("attempt to " + overflowVerb[op] + " with overflow") }

func divZero(op string) error {
	if op == "/" {
		return panicf("attempt to divide by zero")
	}
	return panicf("attempt to calculate the remainder with a divisor of zero")
}

// IntBinary computes op on two integers of one type, with a debug build's
// panics. suffix is the result's type ("" for an unsuffixed literal, an
// i32). ok is false for an operator integers do not have.
func IntBinary(op string, x, y Value, suffix string) (v Value, ok bool, err error) {
	a, aok := dispatch.Deref(x).(dispatch.Int)
	b, bok := dispatch.Deref(y).(dispatch.Int)
	t := intType(suffix)
	if suffix == "" {
		// Neither operand names its type. rustc would infer one from
		// later uses (`sum += i * i` with a u64 sum), which the engine
		// does not follow; it checks against i64's range, so that it
		// never panics where the program's real type would not.
		t = intTypes["i64"]
	}
	if aok && bok && t.Bits <= 64 {
		if t.Signed {
			v, err := signedBinary(op, a.V, b.V, t, suffix)
			return v, v != nil || err != nil, err
		}
		v, err := unsignedBinary(op, uint64(a.V), b.V, t, suffix)
		return v, v != nil || err != nil, err
	}
	return bigBinary(op, x, y, t, suffix)
}

func signedBinary(op string, a, b int64, t IntType, suffix string) (Value, error) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if t.Bits < 64 {
		hi = 1<<(t.Bits-1) - 1
		lo = -hi - 1
	}
	mk := func(r int64, over bool) (Value, error) {
		if over || r < lo || r > hi {
			return nil, overflow(op)
		}
		return dispatch.Int{V: r, Suffix: suffix}, nil
	}
	switch op {
	case "+":
		r := a + b
		return mk(r, (b > 0 && r < a) || (b < 0 && r > a))
	case "-":
		r := a - b
		return mk(r, (b > 0 && r > a) || (b < 0 && r < a))
	case "*":
		r := a * b
		return mk(r, a != 0 && (r/a != b || (a == -1 && b == math.MinInt64)))
	case "/", "%":
		if b == 0 {
			return nil, divZero(op)
		}
		if a == lo && b == -1 {
			return nil, overflow(op)
		}
		if op == "/" {
			return dispatch.Int{V: a / b, Suffix: suffix}, nil
		}
		return dispatch.Int{V: a % b, Suffix: suffix}, nil
	case "&":
		return dispatch.Int{V: a & b, Suffix: suffix}, nil
	case "|":
		return dispatch.Int{V: a | b, Suffix: suffix}, nil
	case "^":
		return dispatch.Int{V: a ^ b, Suffix: suffix}, nil
	case "<<", ">>":
		if b < 0 || uint64(b) >= uint64(t.Bits) {
			return nil, overflow(op)
		}
		if op == "<<" {
			return dispatch.Int{V: truncate(a<<uint(b), t), Suffix: suffix}, nil
		}
		return dispatch.Int{V: a >> uint(b), Suffix: suffix}, nil
	}
	if v, ok := compareOp(op, cmp.Compare(a, b)); ok {
		return v, nil
	}
	return nil, nil
}

func unsignedBinary(op string, a uint64, braw int64, t IntType, suffix string) (Value, error) {
	b := uint64(braw)
	hi := uint64(math.MaxUint64)
	if t.Bits < 64 {
		hi = 1<<t.Bits - 1
	}
	mk := func(r uint64, over bool) (Value, error) {
		if over || r > hi {
			return nil, overflow(op)
		}
		return dispatch.Int{V: int64(r), Suffix: suffix}, nil
	}
	switch op {
	case "+":
		r, carry := bits.Add64(a, b, 0)
		return mk(r, carry != 0)
	case "-":
		r, borrow := bits.Sub64(a, b, 0)
		return mk(r, borrow != 0)
	case "*":
		h, r := bits.Mul64(a, b)
		return mk(r, h != 0)
	case "/", "%":
		if b == 0 {
			return nil, divZero(op)
		}
		if op == "/" {
			return mk(a/b, false)
		}
		return mk(a%b, false)
	case "&":
		return mk(a&b, false)
	case "|":
		return mk(a|b, false)
	case "^":
		return mk(a^b, false)
	case "<<", ">>":
		// The shift amount is its own type; a negative one overflows.
		if braw < 0 || b >= uint64(t.Bits) {
			return nil, overflow(op)
		}
		if op == "<<" {
			return mk((a<<b)&hi, false)
		}
		return mk(a>>b, false)
	}
	if v, ok := compareOp(op, cmp.Compare(a, b)); ok {
		return v, nil
	}
	return nil, nil
}

// bigBinary is IntBinary for i128 and u128 (and a Big operand).
func bigBinary(op string, x, y Value, t IntType, suffix string) (Value, bool, error) {
	a, _, aok := toBig(x)
	b, _, bok := toBig(y)
	if !aok || !bok {
		return nil, false, nil
	}
	if c, isCmp := compareOp(op, a.Cmp(b)); isCmp {
		return c, true, nil
	}
	r, err := bigArith(op, a, b, t)
	if err != nil {
		return nil, true, err
	}
	if r == nil {
		return nil, false, nil
	}
	if !fits(r, t) {
		return nil, true, overflow(op)
	}
	return fromBig(r, t, suffix), true, nil
}

// bigArith is the exact result of op, before any range check; shifts
// wrap to the type as Rust's do.
func bigArith(op string, a, b *big.Int, t IntType) (*big.Int, error) {
	r := new(big.Int)
	switch op {
	case "+":
		return r.Add(a, b), nil
	case "-":
		return r.Sub(a, b), nil
	case "*":
		return r.Mul(a, b), nil
	case "/", "%":
		if b.Sign() == 0 {
			return nil, divZero(op)
		}
		if op == "/" {
			return r.Quo(a, b), nil
		}
		return r.Rem(a, b), nil
	case "&":
		return r.And(a, b), nil
	case "|":
		return r.Or(a, b), nil
	case "^":
		return r.Xor(a, b), nil
	case "<<", ">>":
		if b.Sign() < 0 || b.Cmp(big.NewInt(int64(t.Bits))) >= 0 {
			return nil, overflow(op)
		}
		if op == "<<" {
			return wrapBig(r.Lsh(a, uint(b.Int64())), t), nil
		}
		return r.Rsh(a, uint(b.Int64())), nil
	}
	return nil, nil
}

func compareOp(op string, c int) (Value, bool) {
	switch op {
	case "==":
		return dispatch.Bool(c == 0), true
	case "!=":
		return dispatch.Bool(c != 0), true
	case "<":
		return dispatch.Bool(c < 0), true
	case "<=":
		return dispatch.Bool(c <= 0), true
	case ">":
		return dispatch.Bool(c > 0), true
	case ">=":
		return dispatch.Bool(c >= 0), true
	}
	return nil, false
}

// Neg is unary minus on an integer.
func Neg(v Value) (Value, error) {
	n, t, _ := toBig(v)
	n.Neg(n)
	if !fits(n, t) {
		return nil, panicf("attempt to negate with overflow")
	}
	return fromBig(n, t, suffixOf(v)), nil
}

// Not is `!` on an integer: its bits flipped within its width.
func Not(v Value) Value {
	if i, ok := dispatch.Deref(v).(dispatch.Int); ok && intType(i.Suffix).Bits <= 64 {
		return dispatch.Int{V: truncate(^i.V, intType(i.Suffix)), Suffix: i.Suffix}
	}
	n, t, _ := toBig(v)
	return fromBig(wrapBig(n.Not(n), t), t, suffixOf(v))
}

func suffixOf(v Value) string {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		return x.Suffix
	case *Big:
		return x.Suffix
	case dispatch.Float:
		return x.Suffix
	}
	return ""
}

// IntText is an integer's decimal digits.
func IntText(v Value) string {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		if t := intType(x.Suffix); !t.Signed && t.Bits == 64 {
			return strconv.FormatUint(uint64(x.V), 10)
		}
		return strconv.FormatInt(x.V, 10)
	case *Big:
		return x.V.String()
	}
	return ""
}

// IntConst is `i32::MAX`, `u64::MIN`, `u8::BITS`.
func IntConst(typ, name string) (Value, bool) {
	t, ok := intTypes[typ]
	if !ok {
		return nil, false
	}
	switch name {
	case "MAX":
		return fromBig(t.max(), t, typ), true
	case "MIN":
		return fromBig(t.min(), t, typ), true
	case "BITS":
		return dispatch.Int{V: int64(t.Bits), Suffix: "u32"}, true
	}
	return nil, false
}

// Cast is `v as typ` with Rust's rules: integers wrap to the target's
// width, floats saturate into an integer type (NaN is 0), an integer
// rounds to the nearest float. ok is false for a target std does not own.
func Cast(v Value, typ string) (Value, bool) {
	if t, isInt := intTypes[typ]; isInt {
		switch x := dispatch.Deref(v).(type) {
		case dispatch.Int:
			if t.Bits <= 64 {
				return dispatch.Int{V: truncate(x.V, t), Suffix: typ}, true
			}
			n, _, _ := toBig(x)
			return fromBig(wrapBig(n, t), t, typ), true
		case *Big:
			return fromBig(wrapBig(new(big.Int).Set(x.V), t), t, typ), true
		case dispatch.Float:
			return floatToInt(x.V, t), true
		case dispatch.Bool:
			if x {
				return dispatch.Int{V: 1, Suffix: typ}, true
			}
			return dispatch.Int{V: 0, Suffix: typ}, true
		case Char:
			return Cast(dispatch.Int{V: int64(x), Suffix: "u32"}, typ)
		case dispatch.Str:
			if r := []rune(string(x)); len(r) == 1 {
				return Cast(dispatch.Int{V: int64(r[0]), Suffix: "u32"}, typ)
			}
		}
		return nil, false
	}
	switch typ {
	case "f32", "f64":
		var f float64
		switch x := dispatch.Deref(v).(type) {
		case dispatch.Float:
			f = x.V
		case dispatch.Int, *Big:
			n, _, _ := toBig(x)
			if n.IsInt64() && math.Abs(float64(n.Int64())) < 1<<53 {
				f = float64(n.Int64())
			} else if typ == "f32" {
				f32, _ := new(big.Float).SetInt(n).Float32()
				f = float64(f32)
			} else {
				f, _ = new(big.Float).SetInt(n).Float64()
			}
		default:
			return nil, false
		}
		if typ == "f32" {
			f = float64(float32(f))
		}
		return dispatch.Float{V: f, Suffix: typ}, true
	case "char":
		if i, isInt := dispatch.Deref(v).(dispatch.Int); isInt {
			return Char(rune(uint8(i.V))), true
		}
		if c, isChar := dispatch.Deref(v).(Char); isChar {
			return c, true
		}
	}
	return nil, false
}

func floatToInt(f float64, t IntType) Value {
	if math.IsNaN(f) {
		return dispatch.Int{V: 0, Suffix: t.Name}
	}
	f = math.Trunc(f)
	bf := new(big.Float).SetFloat64(0)
	if math.IsInf(f, 1) {
		return fromBig(t.max(), t, t.Name)
	}
	if math.IsInf(f, -1) {
		return fromBig(t.min(), t, t.Name)
	}
	bf.SetFloat64(f)
	n, _ := bf.Int(nil)
	if n.Cmp(t.max()) > 0 {
		n = t.max()
	}
	if n.Cmp(t.min()) < 0 {
		n = t.min()
	}
	return fromBig(n, t, t.Name)
}

// intMethod runs the methods of the integer types.
func intMethod(x dispatch.Int, call Call) (Value, bool, error) {
	return integerMethod(x, call)
}

func bigMethod(x *Big, call Call) (Value, bool, error) { return integerMethod(x, call) }

var opOfMethod = map[string]string{"add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%", "shl": "<<", "shr": ">>", "pow": "pow", "neg": "neg", "abs": "abs"}

func integerMethod(x Value, call Call) (Value, bool, error) {
	name, args := call.Name, call.Args
	n, t, _ := toBig(x)
	suffix := suffixOf(x)
	if suffix == "" && len(args) == 1 {
		suffix = suffixOf(args[0])
		t = intType(suffix)
	}
	arg := func(i int) (*big.Int, bool) {
		if i >= len(args) {
			return nil, false
		}
		a, _, ok := toBig(args[i])
		return a, ok
	}
	mk := func(r *big.Int) Value { return fromBig(r, t, suffix) }
	for _, prefix := range []string{"checked_", "wrapping_", "saturating_", "overflowing_"} {
		if len(name) <= len(prefix) || name[:len(prefix)] != prefix {
			continue
		}
		op, known := opOfMethod[name[len(prefix):]]
		if !known {
			return nil, false, nil
		}
		var b *big.Int
		if op != "neg" && op != "abs" {
			var isInt bool
			if b, isInt = arg(0); !isInt {
				return nil, false, nil
			}
		}
		shiftOK := true
		if op == "<<" || op == ">>" {
			// The amount wraps to the width (wrapping_shl); out of
			// range, checked_shl is None and overflowing_shl says so.
			shiftOK = b.Sign() >= 0 && b.Cmp(big.NewInt(int64(t.Bits))) < 0
			b = new(big.Int).Mod(b, big.NewInt(int64(t.Bits)))
		}
		r, err := exactOp(op, n, b, t)
		if err != nil { // division by zero
			if prefix == "checked_" {
				return none(), true, nil
			}
			return nil, true, err
		}
		inRange := fits(r, t)
		if op == "<<" || op == ">>" {
			inRange = shiftOK
		}
		switch prefix {
		case "checked_":
			if !inRange {
				return none(), true, nil
			}
			return some(mk(wrapBig(r, t))), true, nil
		case "wrapping_":
			return mk(wrapBig(r, t)), true, nil
		case "saturating_":
			if r.Cmp(t.max()) > 0 {
				r = t.max()
			} else if r.Cmp(t.min()) < 0 {
				r = t.min()
			}
			return mk(r), true, nil
		default:
			return dispatch.Tuple{mk(wrapBig(r, t)), dispatch.Bool(!inRange)}, true, nil
		}
	}
	switch name {
	case "clone", "to_owned", "into", "from", "try_into":
		if name == "try_into" {
			return ok(x), true, nil
		}
		return x, true, nil
	case "to_string":
		return dispatch.Str(IntText(x)), true, nil
	case "abs", "pow":
		var b *big.Int
		if name == "pow" {
			var isInt bool
			if b, isInt = arg(0); !isInt {
				return nil, false, nil
			}
		}
		r, err := exactOp(opOfMethod[name], n, b, t)
		if err != nil {
			return nil, true, err
		}
		if !fits(r, t) {
			if name == "abs" {
				return nil, true, panicf("attempt to negate with overflow")
			}
			return nil, true, overflow("*")
		}
		return mk(r), true, nil
	case "min", "max":
		b, isInt := arg(0)
		if !isInt {
			return nil, false, nil
		}
		if (name == "min") == (b.Cmp(n) < 0) {
			return mk(b), true, nil
		}
		return mk(n), true, nil
	case "clamp":
		lo, ok1 := arg(0)
		hi, ok2 := arg(1)
		if !ok1 || !ok2 {
			return nil, false, nil
		}
		if lo.Cmp(hi) > 0 {
			return nil, true, panicf("assertion failed: min <= max")
		}
		if n.Cmp(lo) < 0 {
			return mk(lo), true, nil
		}
		if n.Cmp(hi) > 0 {
			return mk(hi), true, nil
		}
		return mk(n), true, nil
	case "signum":
		return mk(big.NewInt(int64(n.Sign()))), true, nil
	case "is_positive":
		return dispatch.Bool(n.Sign() > 0), true, nil
	case "is_negative":
		return dispatch.Bool(n.Sign() < 0), true, nil
	case "is_power_of_two":
		return dispatch.Bool(n.Sign() > 0 && new(big.Int).And(n, new(big.Int).Sub(n, big.NewInt(1))).Sign() == 0), true, nil
	case "abs_diff":
		b, isInt := arg(0)
		if !isInt {
			return nil, false, nil
		}
		d := new(big.Int).Abs(new(big.Int).Sub(n, b))
		ut := t
		ut.Signed = false
		ut.Name = "u" + t.Name[1:]
		return fromBig(d, ut, ut.Name), true, nil
	case "rem_euclid", "div_euclid":
		b, isInt := arg(0)
		if !isInt {
			return nil, false, nil
		}
		if b.Sign() == 0 {
			if name == "div_euclid" {
				return nil, true, divZero("/")
			}
			return nil, true, divZero("%")
		}
		q, m := new(big.Int).DivMod(n, b, new(big.Int))
		if name == "rem_euclid" {
			return mk(m), true, nil
		}
		if !fits(q, t) {
			return nil, true, overflow("/")
		}
		return mk(q), true, nil
	case "count_ones", "count_zeros", "leading_zeros", "trailing_zeros", "leading_ones", "trailing_ones":
		u := wrapBig(n, IntType{Bits: t.Bits}) // the bit pattern, unsigned
		ones := 0
		for _, w := range u.Bits() {
			ones += bits.OnesCount64(uint64(w))
		}
		var r int
		switch name {
		case "count_ones":
			r = ones
		case "count_zeros":
			r = int(t.Bits) - ones
		case "leading_zeros":
			r = int(t.Bits) - u.BitLen()
		case "trailing_zeros":
			r = int(t.Bits)
			if u.Sign() != 0 {
				r = int(u.TrailingZeroBits())
			}
		case "leading_ones":
			inv := wrapBig(new(big.Int).Not(u), IntType{Bits: t.Bits})
			r = int(t.Bits) - inv.BitLen()
		case "trailing_ones":
			r = 0
			for r < int(t.Bits) && u.Bit(r) == 1 {
				r++
			}
		}
		return dispatch.Int{V: int64(r), Suffix: "u32"}, true, nil
	case "is_some", "unwrap":
		return nil, false, nil
	}
	if v, isPtr := pointerMethod(x, name, args); isPtr {
		return v, true, nil
	}
	return nil, false, nil
}

// exactOp is the exact (unbounded) result of an integer op; err is set
// only for a division by zero.
func exactOp(op string, a, b *big.Int, t IntType) (*big.Int, error) {
	switch op {
	case "neg":
		return new(big.Int).Neg(a), nil
	case "abs":
		return new(big.Int).Abs(a), nil
	case "pow":
		// Square and multiply, stopping once the result is past any
		// 128-bit value: the rest cannot come back into range.
		r, base, e := big.NewInt(1), new(big.Int).Set(a), new(big.Int).Set(b)
		limit := 130
		for e.Sign() > 0 {
			if e.Bit(0) == 1 {
				r.Mul(r, base)
				if r.BitLen() > limit {
					return r, nil
				}
			}
			e.Rsh(e, 1)
			if e.Sign() > 0 {
				base.Mul(base, base)
				if base.BitLen() > limit {
					if r.Sign() == 0 {
						return r, nil
					}
					return new(big.Int).Lsh(big.NewInt(1), uint(limit+1)), nil
				}
			}
		}
		return r, nil
	case "<<":
		return new(big.Int).Lsh(a, uint(b.Int64())), nil
	case ">>":
		return new(big.Int).Rsh(a, uint(b.Int64())), nil
	}
	r, err := bigArith(op, a, b, t)
	if err != nil && op != "<<" && op != ">>" {
		if _, isPanic := AsPanic(err); isPanic && b.Sign() == 0 {
			return nil, err
		}
	}
	if op == "/" && a.Cmp(t.min()) == 0 && b.Cmp(big.NewInt(-1)) == 0 && t.Signed {
		return new(big.Int).Neg(a), nil
	}
	return r, nil
}

package rstd

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// TestF32ArithmeticMatchesFloat32 checks f32 arithmetic against Go's
// float32 on random operands: every operation rounds to f32.
func TestF32ArithmeticMatchesFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		a := float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10)))
		b := float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10)))
		for _, op := range []string{"+", "-", "*", "/"} {
			var want float32
			switch op {
			case "+":
				want = a + b
			case "-":
				want = a - b
			case "*":
				want = a * b
			case "/":
				want = a / b
			}
			v, _, _ := Binary(op, dispatch.Float{V: float64(a), Suffix: "f32"}, dispatch.Float{V: float64(b), Suffix: "f32"})
			got := v.(dispatch.Float).V
			if got != float64(want) && !(math.IsNaN(got) && want != want) {
				t.Fatalf("%v %s %v = %v, float32 gives %v", a, op, b, got, want)
			}
		}
	}
}

// TestIntArithmeticMatchesBig checks every integer type's + - * / % << >>
// against math/big on random operands: the exact result when it fits the
// type, else std's overflow panic.
func TestIntArithmeticMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize"}
	random := func(ty IntType) *big.Int {
		// Often near the edges, where overflow happens.
		bitsz := r.IntN(int(ty.Bits)) + 1
		n := new(big.Int).SetUint64(r.Uint64())
		n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(r.Uint64()))
		n.Rsh(n, uint(128-bitsz))
		if ty.Signed && r.IntN(2) == 0 {
			n.Neg(n)
		}
		switch r.IntN(8) {
		case 0:
			n = ty.max()
		case 1:
			n = ty.min()
		}
		if !fits(n, ty) {
			n = wrapBig(n, ty)
		}
		return n
	}
	for range 20000 {
		name := names[r.IntN(len(names))]
		ty := intTypes[name]
		a, b := random(ty), random(ty)
		op := []string{"+", "-", "*", "/", "%", "<<", ">>"}[r.IntN(7)]
		if op == "<<" || op == ">>" {
			b = big.NewInt(int64(r.IntN(int(ty.Bits) + 4)))
		}
		x, y := fromBig(a, ty, name), fromBig(b, ty, name)
		if op == "<<" || op == ">>" {
			y = fromBig(b, intTypes["u32"], "u32")
		}
		got, _, err := IntBinary(op, x, y, name)
		var want *big.Int
		panics := ""
		switch op {
		case "+":
			want = new(big.Int).Add(a, b)
		case "-":
			want = new(big.Int).Sub(a, b)
		case "*":
			want = new(big.Int).Mul(a, b)
		case "/", "%":
			if b.Sign() == 0 {
				panics = "zero"
				break
			}
			if op == "/" {
				want = new(big.Int).Quo(a, b)
			} else {
				want = new(big.Int).Rem(a, b)
				if a.Cmp(ty.min()) == 0 && b.Cmp(big.NewInt(-1)) == 0 && ty.Signed {
					panics = "overflow"
				}
			}
		case "<<":
			if b.Int64() >= int64(ty.Bits) {
				panics = "overflow"
				break
			}
			want = wrapBig(new(big.Int).Lsh(a, uint(b.Int64())), ty)
		case ">>":
			if b.Int64() >= int64(ty.Bits) {
				panics = "overflow"
				break
			}
			want = new(big.Int).Rsh(a, uint(b.Int64()))
		}
		if want != nil && !fits(want, ty) {
			panics = "overflow"
		}
		switch {
		case panics != "":
			if err == nil {
				t.Fatalf("%s %s %s (%s) = %s, want a panic (%s)", a, op, b, name, Display(got), panics)
			}
		case err != nil:
			t.Fatalf("%s %s %s (%s) panicked %q, want %s", a, op, b, name, err, want)
		default:
			n, _, _ := toBig(got)
			if n.Cmp(want) != 0 || got.TypeName() != name {
				t.Fatalf("%s %s %s (%s) = %s (%s), want %s", a, op, b, name, n, got.TypeName(), want)
			}
		}
	}
}

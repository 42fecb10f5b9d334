package dispatch

import "github.com/dispatch-playground/playground/engine/tensor"

// FloatRange is a range of floats, `low..high` or `low..=high` of f32 or
// f64: not an iterator in Rust, but a value Burn's API takes
// (TensorData::assert_within_range) and `contains` reads.
type FloatRange struct {
	Lo, Hi    Float
	Inclusive bool
}

func (r *FloatRange) TypeName() string {
	elem := r.Lo.Suffix
	if elem == "" {
		elem = "f64"
	}
	if r.Inclusive {
		return "RangeInclusive<" + elem + ">"
	}
	return "Range<" + elem + ">"
}

func (r *FloatRange) debug() string {
	op := ".."
	if r.Inclusive {
		op = "..="
	}
	return floatDebug(r.Lo) + op + floatDebug(r.Hi)
}

// Contains is `range.contains(&x)`.
func (r *FloatRange) Contains(x float64) bool {
	if r.Inclusive {
		return r.Lo.V <= x && x <= r.Hi.V
	}
	return r.Lo.V <= x && x < r.Hi.V
}

// assertWithinRange is TensorData::assert_within_range(_inclusive): every
// element read as the range's element type lies in the range, or the
// panic of the first that does not (burn-std/src/data/compare.rs:371,
// :388). Elements read as an f32 keep f32's precision in the message.
func assertWithinRange(d *tensor.Data, r *FloatRange) *Panic {
	elem := r.Lo.Suffix
	if elem == "" {
		elem = "f64"
	}
	line := 374
	if r.Inclusive {
		line = 397
	}
	for i := 0; i < d.NumElements(); i++ {
		x := d.Float(i)
		if elem == "f32" {
			x = float64(float32(x))
		}
		if !r.Contains(x) {
			p := newPanic("std-data-not-within-range", at(locDataCompare, line),
				"Element ("+floatDebug(Float{V: x, Suffix: elem})+") is not within range "+r.debug())
			p.TrackCaller = false
			return p.on(0)
		}
	}
	return nil
}

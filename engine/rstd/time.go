package rstd

import (
	"math"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Duration is std::time::Duration: a span of time, which a program can
// build and print though it has no clock to measure one with (Instant and
// SystemTime are outside the playground's world).
type Duration struct {
	Nanos uint64
}

func (Duration) TypeName() string { return "Duration" }

// durationFunction is an associated function or constant of Duration.
func durationFunction(name string, args []Value) (Value, bool, error) {
	u := func(i int) (uint64, bool) {
		if i >= len(args) {
			return 0, false
		}
		n, ok := dispatch.Deref(args[i]).(dispatch.Int)
		return uint64(n.V), ok && n.V >= 0
	}
	f := func() (float64, bool) {
		if len(args) != 1 {
			return 0, false
		}
		x, ok := dispatch.Deref(args[0]).(dispatch.Float)
		return x.V, ok
	}
	scale := map[string]uint64{"from_secs": 1e9, "from_millis": 1e6, "from_micros": 1e3, "from_nanos": 1}
	switch name {
	case "from_secs", "from_millis", "from_micros", "from_nanos":
		n, ok := u(0)
		if !ok || len(args) != 1 {
			return nil, false, nil
		}
		if n > math.MaxUint64/scale[name] {
			return nil, true, panicf("overflow in Duration::" + name)
		}
		return Duration{n * scale[name]}, true, nil
	case "new":
		secs, ok1 := u(0)
		nanos, ok2 := u(1)
		if !ok1 || !ok2 || len(args) != 2 {
			return nil, false, nil
		}
		if secs > (math.MaxUint64-nanos)/1e9 {
			return nil, true, panicf("overflow in Duration::new")
		}
		return Duration{secs*1e9 + nanos}, true, nil
	case "from_secs_f32", "from_secs_f64":
		x, ok := f()
		if !ok {
			return nil, false, nil
		}
		switch {
		case x < 0:
			return nil, true, panicf("cannot convert float seconds to Duration: value is negative")
		case math.IsNaN(x) || x*1e9 >= math.MaxUint64:
			return nil, true, panicf("cannot convert float seconds to Duration: value is either too big or NaN")
		}
		return Duration{uint64(math.Round(x * 1e9))}, true, nil
	case "ZERO", "default":
		return Duration{}, true, nil
	}
	return nil, false, nil
}

func durationMethod(d Duration, call Call) (Value, bool, error) {
	if len(call.Args) != 0 {
		if other, ok := dispatch.Deref(call.Args[0]).(Duration); ok && len(call.Args) == 1 {
			switch call.Name {
			case "saturating_sub":
				if other.Nanos > d.Nanos {
					return Duration{}, true, nil
				}
				return Duration{d.Nanos - other.Nanos}, true, nil
			case "checked_sub":
				if other.Nanos > d.Nanos {
					return none(), true, nil
				}
				return some(Duration{d.Nanos - other.Nanos}), true, nil
			case "checked_add":
				if d.Nanos > math.MaxUint64-other.Nanos {
					return none(), true, nil
				}
				return some(Duration{d.Nanos + other.Nanos}), true, nil
			}
		}
		return nil, false, nil
	}
	n := d.Nanos
	switch call.Name {
	case "as_secs":
		return dispatch.Int{V: int64(n / 1e9), Suffix: "u64"}, true, nil
	case "as_millis", "as_micros", "as_nanos":
		div := map[string]uint64{"as_millis": 1e6, "as_micros": 1e3, "as_nanos": 1}[call.Name]
		return dispatch.Int{V: int64(n / div), Suffix: "u128"}, true, nil
	case "subsec_millis", "subsec_micros", "subsec_nanos":
		div := map[string]uint64{"subsec_millis": 1e6, "subsec_micros": 1e3, "subsec_nanos": 1}[call.Name]
		return dispatch.Int{V: int64(n % 1e9 / div), Suffix: "u32"}, true, nil
	case "as_secs_f64":
		return dispatch.Float{V: float64(n/1e9) + float64(n%1e9)/1e9, Suffix: "f64"}, true, nil
	case "as_secs_f32":
		return WithType(dispatch.Float{V: float64(n/1e9) + float64(n%1e9)/1e9}, "f32"), true, nil
	case "is_zero":
		return dispatch.Bool(n == 0), true, nil
	case "clone":
		return d, true, nil
	}
	return nil, false, nil
}

// durationDebug is Duration's Debug: the value in the largest unit it
// reaches (s, ms, µs or ns), with the fraction it needs and no more.
func durationDebug(d Duration) string {
	n := d.Nanos
	unit, div := "ns", uint64(1)
	switch {
	case n >= 1e9:
		unit, div = "s", 1e9
	case n >= 1e6:
		unit, div = "ms", 1e6
	case n >= 1e3:
		unit, div = "µs", 1e3
	}
	s := strconv.FormatUint(n/div, 10)
	if frac := n % div; frac > 0 {
		digits := len(strconv.FormatUint(div, 10)) - 1
		f := strconv.FormatUint(frac, 10)
		s += "." + strings.TrimRight(strings.Repeat("0", digits-len(f))+f, "0")
	}
	return s + unit
}

package nn

import (
	"fmt"
	"math"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// PositionalEncoding (crates/burn-nn/src/modules/pos_encoding.rs) and
// RotaryEncoding (rope_encoding.rs).

func init() {
	register(&configDesc{name: "PositionalEncodingConfig", device: true, fields: []field{
		{name: "max_sequence_size", typ: "usize", def: usize(5000)},
		{name: "d_model", typ: "usize"},
		{name: "max_timescale", typ: "usize", def: usize(10000)},
	}, init: initPositionalEncoding})
	register(&configDesc{name: "RotaryEncodingConfig", device: true, fields: []field{
		{name: "max_sequence_length", typ: "usize"}, {name: "d_model", typ: "usize"},
		{name: "theta", typ: "f32", def: F32(10000)},
	}, init: initRotaryEncoding})
}

func rng(lo, hi int64) dispatch.Value {
	return &dispatch.Range{Lo: &lo, Hi: &hi, Suffix: "usize"}
}

// sinusoids is generate_sinusoids (pos_encoding.rs:140) computed in f32
// as Rust does: -ln(max_timescale) / d_model, then sin and cos of
// exp(k * increment) * i for each even k.
func sinusoids(length, dModel, maxTimescale int64) []float64 {
	f32 := func(v float64) float32 { return float32(v) }
	inc := -f32(math.Log(float64(float32(maxTimescale)))) / float32(dModel)
	out := make([]float64, 0, length*dModel)
	for i := int64(0); i < length; i++ {
		for k := int64(0); k < dModel; k += 2 {
			div := f32(math.Exp(float64(float32(k) * inc)))
			x := div * float32(i)
			out = append(out, float64(f32(math.Sin(float64(x)))), float64(f32(math.Cos(float64(x)))))
		}
	}
	return out
}

// initPositionalEncoding is PositionalEncodingConfig::init (pos_encoding.rs:73):
// generate_sinusoids's asserts (:146, :147), Tensor::<2>::from_data and
// unsqueeze::<3>.
func initPositionalEncoding(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	length, dm, ts := c.intField("max_sequence_size"), c.intField("d_model"), c.intField("max_timescale")
	if dm%2 != 0 {
		return nil, burnPanic("nn-pos-encoding-even", "d_model must be even", "crates/burn-nn/src/modules/pos_encoding.rs:146")
	}
	if ts < length {
		return nil, burnPanic("nn-pos-encoding-timescale", "max_timescale must be greater than or equal to length", "crates/burn-nn/src/modules/pos_encoding.rs:147")
	}
	var values []float64
	if n, ok := mulFits(length, dm); ok && n <= 1<<22 {
		values = sinusoids(length, dm, ts)
	}
	s, err := tensorFn(w, 2, "from_data", dispatch.F32Data(values, []int64{length, dm}), deviceRef(d))
	if err != nil {
		return nil, err
	}
	s3, err := w.Call(dispatch.Call{Recv: s, Method: "unsqueeze", Generics: [][]string{{"3"}}})
	if err != nil {
		return nil, err
	}
	return &Module{Type: "PositionalEncoding", Fields: []string{"sinusoids", "max_sequence_size", "max_timescale"},
		Values: map[string]dispatch.Value{"sinusoids": s3, "max_sequence_size": c.Values["max_sequence_size"], "max_timescale": c.Values["max_timescale"]},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			sh := m.Values["sinusoids"].(*dispatch.Tensor).Shape()
			return []attr{{"d_model", fmt.Sprint(sh[2])}, {"max_sequence_size", fmt.Sprint(int64(num(m.Values["max_sequence_size"])))},
				{"max_timescale", fmt.Sprint(int64(num(m.Values["max_timescale"])))}}, nil
		},
		forward: forwardPositionalEncoding}, nil
}

func mulFits(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	n := a * b
	return n, n/b == a && n > 0
}

// forwardPositionalEncoding is PositionalEncoding::forward (pos_encoding.rs:103):
// the two asserts, then input + sinusoids[0..b, 0..seq, 0..d].
func forwardPositionalEncoding(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, err := rankedInput(c, 3)
	if err != nil {
		return nil, err
	}
	in := x.Shape()
	s := m.Values["sinusoids"].(*dispatch.Tensor)
	sh := s.Shape()
	if sh[1] < in[1] {
		return nil, burnPanic("nn-pos-encoding-length", fmt.Sprintf("max_sequence_size(%d) must be greater or equal than length(%d)", sh[1], in[1]),
			"crates/burn-nn/src/modules/pos_encoding.rs:108")
	}
	if in[2] != sh[2] {
		return nil, burnPanic("nn-pos-encoding-d-model", fmt.Sprintf("d_model(%d) of the input must be equal to d_model of encoding(%d)", in[2], sh[2]),
			"crates/burn-nn/src/modules/pos_encoding.rs:113")
	}
	part, err := method(w, s, "slice", &dispatch.Array{Elems: []dispatch.Value{rng(0, sh[0]), rng(0, in[1]), rng(0, sh[2])}})
	if err != nil {
		return nil, err
	}
	return method(w, x, "add", part)
}

// ---- RotaryEncoding (rope_encoding.rs) ----

// initRotaryEncoding is RotaryEncodingConfig::init (rope_encoding.rs:35,
// initialize, :60): its asserts, theta = 1 / exp(arange_step(0..d, 2) / d *
// ln(theta)), and the frequencies of positions 0..max_sequence_length.
func initRotaryEncoding(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	dm, maxLen := c.intField("d_model"), c.intField("max_sequence_length")
	theta := float32(c.floatField("theta"))
	if dm%2 != 0 {
		return nil, burnPanic("nn-rope-even", fmt.Sprintf("assertion `left == right` failed: The input embedding dimension must be even\n  left: %d\n right: 0", dm%2),
			"crates/burn-nn/src/modules/rope_encoding.rs:65")
	}
	if !(theta > 0) {
		return nil, burnPanic("nn-rope-theta", "Theta parameter must be positive (default: 10000).", "crates/burn-nn/src/modules/rope_encoding.rs:70")
	}
	lo, hi := int64(0), dm
	exp, err := w.Call(dispatch.Call{Path: []string{"Tensor", "arange_step"}, Generics: [][]string{{"1", "Int"}, nil},
		Args: []dispatch.Value{&dispatch.Range{Lo: &lo, Hi: &hi, Suffix: "i64"}, usizeVal(2), deviceRef(d)}})
	if err != nil {
		return nil, err
	}
	lnTheta := float32(math.Log(float64(theta)))
	th, err := chain(w, exp, call(w, "float"), call(w, "div_scalar", f32Val(float64(float32(dm)))),
		call(w, "mul_scalar", f32Val(float64(lnTheta))), call(w, "exp"), call(w, "recip"))
	if err != nil {
		return nil, err
	}
	freq, err := rotaryFrequencies(w, 0, maxLen, th.(*dispatch.Tensor))
	if err != nil {
		return nil, err
	}
	return &Module{Type: "RotaryEncoding", Fields: []string{"freq_complex", "theta", "start_offset"},
		Values: map[string]dispatch.Value{"freq_complex": freq, "theta": th, "start_offset": usizeVal(0)},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			sh := m.Values["freq_complex"].(*dispatch.Tensor).Shape()
			return []attr{{"d_model", fmt.Sprint(sh[1])}, {"max_sequence_length", fmt.Sprint(sh[0])}}, nil
		},
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			return rotaryApply(w, m, c.Args[0], 0)
		},
		methods: map[string]extraMethod{"apply": {2, func(w *dispatch.World, m *Module, args []dispatch.Value) (dispatch.Value, error) {
			return rotaryApply(w, m, args[0], int64(num(args[1])))
		}}}}, nil
}

// rotaryFrequencies is compute_rotary_frequencies (rope_encoding.rs:256).
func rotaryFrequencies(w *dispatch.World, start, end int64, theta *dispatch.Tensor) (dispatch.Value, error) {
	half := theta.Shape()[0]
	n := end - start
	pos, err := w.Call(dispatch.Call{Path: []string{"Tensor", "arange"}, Generics: [][]string{{"1", "Int"}, nil},
		Args: []dispatch.Value{&dispatch.Range{Lo: &start, Hi: &end, Suffix: "i64"}, deviceRef(theta.Device())}})
	if err != nil {
		return nil, err
	}
	gen := func(n string) func(dispatch.Value) (dispatch.Value, error) {
		return func(v dispatch.Value) (dispatch.Value, error) {
			return w.Call(dispatch.Call{Recv: v, Method: "unsqueeze", Generics: [][]string{{n}}})
		}
	}
	th2, err := gen("2")(theta)
	if err != nil {
		return nil, err
	}
	freqs, err := chain(w, pos, call(w, "float"), gen("2"), call(w, "transpose"), call(w, "repeat_dim", usizeVal(1), usizeVal(half)), call(w, "mul", th2))
	if err != nil {
		return nil, err
	}
	cos, err := method(w, freqs, "cos")
	if err != nil {
		return nil, err
	}
	sin, err := method(w, freqs, "sin")
	if err != nil {
		return nil, err
	}
	cat, err := w.Call(dispatch.Call{Path: []string{"Tensor", "cat"}, Args: []dispatch.Value{&dispatch.Array{Vec: true, Elems: []dispatch.Value{cos, sin}}, usizeVal(1)}})
	if err != nil {
		return nil, err
	}
	return chain(w, cat, call(w, "reshape", ints(n, 2, half)), call(w, "transpose"),
		func(v dispatch.Value) (dispatch.Value, error) {
			return w.Call(dispatch.Call{Recv: v, Method: "unsqueeze_dim", Generics: [][]string{{"4"}}, Args: []dispatch.Value{usizeVal(2)}})
		},
		call(w, "repeat_dim", usizeVal(2), usizeVal(2)), call(w, "reshape", ints(n, 2*half, 2)))
}

// rotaryApply is RotaryEncoding::apply (rope_encoding.rs:164): pairs of the
// last dim rotated by the frequencies of positions start..start+seq.
func rotaryApply(w *dispatch.World, m *Module, xv dispatch.Value, start int64) (dispatch.Value, error) {
	x, ok := dispatch.Deref(xv).(*dispatch.Tensor)
	if !ok || x.Kind() != dispatch.KindFloat {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<D>`, found `" + xv.TypeName() + "`"}
	}
	D := x.Rank()
	if D < 2 {
		return nil, burnPanic("nn-rope-rank", "Input tensor must have at least 2 dimensions for sequence length and hidden dimension",
			"crates/burn-nn/src/modules/rope_encoding.rs:165")
	}
	shape := x.Shape()
	seq, dm := shape[D-2], shape[D-1]
	total := int64(1)
	for _, s := range shape {
		total *= s
	}
	dummy := int64(0)
	if seq*dm != 0 {
		dummy = total / (seq * dm)
	} else {
		return nil, burnPanic("rust-divide-by-zero", "attempt to divide by zero", "crates/burn-nn/src/modules/rope_encoding.rs:176")
	}
	sign, err := tensorFn(w, 2, "from_floats", &dispatch.Array{Elems: []dispatch.Value{
		&dispatch.Array{Elems: []dispatch.Value{dispatch.Float{V: 1}, dispatch.Float{V: 0}, dispatch.Float{V: 0}, dispatch.Float{V: 1}}},
		&dispatch.Array{Elems: []dispatch.Value{dispatch.Float{V: 0}, dispatch.Float{V: -1}, dispatch.Float{V: 1}, dispatch.Float{V: 0}}}}}, deviceRef(x.Device()))
	if err != nil {
		return nil, err
	}
	sign4, err := w.Call(dispatch.Call{Recv: sign, Method: "unsqueeze", Generics: [][]string{{"4"}}})
	if err != nil {
		return nil, err
	}
	rot, err := chain(w, x, call(w, "reshape", ints(dummy, seq, dm/2, 2)), call(w, "matmul", sign4), call(w, "reshape", ints(dummy, seq, dm, 2)))
	if err != nil {
		return nil, err
	}
	freq, err := method(w, m.Values["freq_complex"], "slice", &dispatch.Array{Elems: []dispatch.Value{rng(start, start+seq)}})
	if err != nil {
		return nil, err
	}
	if freq, err = w.Call(dispatch.Call{Recv: freq, Method: "unsqueeze", Generics: [][]string{{"4"}}}); err != nil {
		return nil, err
	}
	out, err := method(w, rot, "mul", freq)
	if err != nil {
		return nil, err
	}
	return chain(w, out, call(w, "sum_dim", dispatch.Int{V: -1, Suffix: "isize"}), call(w, "reshape", ints(shape...)))
}

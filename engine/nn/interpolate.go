package nn

import (
	"fmt"
	"math"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Interpolate1d and Interpolate2d (crates/burn-nn/src/modules/interpolate)
// and Unfold4d (unfold.rs): module wrappers of burn::tensor::module's
// interpolate and unfold4d.

func init() {
	mode := unit("InterpolateMode", "Nearest")
	noneDef := func() dispatch.Value { return none() }
	register(&configDesc{name: "Interpolate1dConfig", fields: []field{
		{name: "output_size", typ: "Option<usize>", def: noneDef},
		{name: "scale_factor", typ: "Option<f32>", def: noneDef},
		{name: "mode", typ: "InterpolateMode", def: mode},
		{name: "align_corners", typ: "bool", def: boolean(true)},
	}, init: initInterpolate(1)})
	register(&configDesc{name: "Interpolate2dConfig", fields: []field{
		{name: "output_size", typ: "Option<[usize; 2]>", def: noneDef},
		{name: "scale_factor", typ: "Option<[f32; 2]>", def: noneDef},
		{name: "mode", typ: "InterpolateMode", def: mode},
		{name: "align_corners", typ: "bool", def: boolean(true)},
	}, init: initInterpolate(2)})
	register(&configDesc{name: "Unfold4dConfig", fields: []field{
		{name: "kernel_size", typ: "[usize; 2]"},
		{name: "stride", typ: "[usize; 2]", def: pair(1, 1)},
		{name: "dilation", typ: "[usize; 2]", def: pair(1, 1)},
		{name: "padding", typ: "[usize; 2]", def: pair(0, 0)},
	}, init: initUnfold4d})
}

// opsMode is From<InterpolateMode> for the tensor ops' InterpolateMode
// (interpolate/mod.rs).
var opsMode = map[string]string{"Nearest": "Nearest", "NearestExact": "NearestExact", "Linear": "Bilinear", "Cubic": "Bicubic", "Lanczos": "Lanczos3"}

func optionInner(v dispatch.Value) (dispatch.Value, bool) {
	en, ok := dispatch.Deref(v).(*dispatch.Enum)
	if ok && en.Type == "Option" && en.Variant == "Some" && len(en.Fields) == 1 {
		return en.Fields[0], true
	}
	return nil, false
}

// scaled is `(size as f64) * (scale as f64)` cast `as usize`, which
// saturates (interpolate1d.rs calculate_output_size).
func scaled(size int64, scale float64) int64 {
	v := float64(size) * float64(float32(scale))
	switch {
	case math.IsNaN(v) || v <= 0:
		return 0
	case v >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(v)
}

func floatsOf(v dispatch.Value) []float64 {
	a, _ := dispatch.Deref(v).(*dispatch.Array)
	if a == nil {
		return nil
	}
	out := make([]float64, len(a.Elems))
	for i, e := range a.Elems {
		out[i] = num(e)
	}
	return out
}

func initInterpolate(n int) func(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	typ := fmt.Sprintf("Interpolate%dd", n)
	file := fmt.Sprintf("crates/burn-nn/src/modules/interpolate/interpolate%dd.rs", n)
	return func(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
		m := &Module{Type: typ, Fields: []string{"output_size", "scale_factor", "mode", "align_corners"}, Values: map[string]dispatch.Value{}}
		for _, f := range m.Fields {
			m.Values[f] = c.Values[f]
		}
		m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
			mode := "_"
			if en, ok := dispatch.Deref(m.Values["mode"]).(*dispatch.Enum); ok {
				mode = en.Variant
			}
			size := "None"
			if v, ok := optionInner(m.Values["output_size"]); ok {
				size = "Some(" + showDims(v) + ")"
			}
			scale := "None"
			if v, ok := optionInner(m.Values["scale_factor"]); ok {
				if n == 1 {
					scale = rustF32(num(v))
				} else {
					fs := floatsOf(v)
					scale = "["
					for i, f := range fs {
						if i > 0 {
							scale += ", "
						}
						scale += rustF32Debug(f)
					}
					scale += "]"
				}
			}
			return []attr{{"mode", mode}, {"output_size", size}, {"scale_factor", scale}}, nil
		}
		// forward (interpolate{1,2}d.rs): calculate_output_size, then
		// interpolate with InterpolateOptions::new(mode).with_align_corners;
		// the 1d input goes through unsqueeze_dim(2) and squeeze_dims(&[2]).
		m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			x, err := rankedInput(c, n+2)
			if err != nil {
				return nil, err
			}
			shape := x.Shape()
			size, hasSize := optionInner(m.Values["output_size"])
			scale, hasScale := optionInner(m.Values["scale_factor"])
			var out []int64
			switch {
			case hasSize && !hasScale:
				if n == 1 {
					out = []int64{int64(num(size))}
				} else {
					out = pairOf(size)
				}
			case !hasSize && hasScale:
				// `new_dim > usize::MAX as f64` panics (interpolate1d.rs:155,
				// interpolate2d.rs:148, 154).
				fs := []float64{num(scale)}
				if n == 2 {
					fs = floatsOf(scale)
				}
				for i, f := range fs {
					if float64(shape[2+i])*float64(float32(f)) > math.MaxUint64 {
						msg, line := "Scale factor is too large", ":155"
						if n == 2 {
							msg, line = []string{"Scale factor for height is too large", "Scale factor for width is too large"}[i], []string{":148", ":154"}[i]
						}
						return nil, burnPanic(fmt.Sprintf("nn-interpolate%dd-scale-%d", n, i), msg, file+line)
					}
				}
				if n == 1 {
					out = []int64{scaled(shape[2], num(scale))}
				} else {
					out = []int64{scaled(shape[2], fs[0]), scaled(shape[3], fs[1])}
				}
			default:
				return nil, burnPanic(fmt.Sprintf("nn-interpolate%dd-size", n), "Either output_size or scale_factor must be provided", file+map[int]string{1: ":160", 2: ":159"}[n])
			}
			mode, _ := dispatch.Deref(m.Values["mode"]).(*dispatch.Enum)
			opts, err := w.Call(dispatch.Call{Path: []string{"InterpolateOptions", "new"}, Args: []dispatch.Value{&dispatch.Enum{Type: "InterpolateMode", Variant: opsMode[mode.Variant]}}})
			if err != nil {
				return nil, err
			}
			if opts, err = method(w, opts, "with_align_corners", m.Values["align_corners"]); err != nil {
				return nil, err
			}
			var in dispatch.Value = x
			if n == 1 {
				if in, err = w.Call(dispatch.Call{Recv: x, Method: "unsqueeze_dim", Generics: [][]string{{"4"}}, Args: []dispatch.Value{usizeVal(2)}}); err != nil {
					return nil, err
				}
				out = []int64{1, out[0]}
			}
			y, err := w.Call(dispatch.Call{Path: []string{"interpolate"}, Args: []dispatch.Value{in, ints(out...), opts}})
			if err != nil || n == 2 {
				return y, err
			}
			return w.Call(dispatch.Call{Recv: y, Method: "squeeze_dims", Generics: [][]string{{"3"}}, Args: []dispatch.Value{&dispatch.Ref{V: &dispatch.Array{Elems: []dispatch.Value{dispatch.Int{V: 2}}}}}})
		}
		return m, nil
	}
}

// rustF32Debug is `{:?}` of an f32 (2.0, 0.5).
func rustF32Debug(v float64) string {
	s := rustF32(v)
	for _, r := range s {
		if r == '.' || r == 'e' || r == 'N' || r == 'i' {
			return s
		}
	}
	return s + ".0"
}

// initUnfold4d is Unfold4dConfig::init (unfold.rs); forward is
// unfold4d(input, kernel_size, UnfoldOptions::new(stride, padding, dilation)).
func initUnfold4d(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	m := &Module{Type: "Unfold4d", Fields: []string{"kernel_size", "stride", "dilation", "padding"}, Values: map[string]dispatch.Value{}}
	for _, f := range m.Fields {
		m.Values[f] = c.Values[f]
	}
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		var out []attr
		for _, f := range m.Fields {
			out = append(out, attr{f, dims(pairOf(m.Values[f]))})
		}
		return out, nil
	}
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		opts, err := w.Call(dispatch.Call{Path: []string{"UnfoldOptions", "new"}, Args: []dispatch.Value{m.Values["stride"], m.Values["padding"], m.Values["dilation"]}})
		if err != nil {
			return nil, err
		}
		return w.Call(dispatch.Call{Path: []string{"unfold4d"}, Args: []dispatch.Value{c.Args[0], m.Values["kernel_size"], opts}})
	}
	return m, nil
}

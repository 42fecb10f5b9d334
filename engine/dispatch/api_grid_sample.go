package dispatch

import (
	"math"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// GridSampleOptions (crates/burn-std/src/ops.rs:273-318): the interpolation
// mode, the padding mode (Zeros, Border, Reflection) and align_corners;
// the default is Bilinear, Zeros, false, and new(mode) keeps the others.
type GridSampleOptions struct {
	mode, padding string
	alignCorners  bool
}

func (o *GridSampleOptions) TypeName() string { return "GridSampleOptions" }

var gridSamplePaddings = map[string]bool{"Zeros": true, "Border": true, "Reflection": true}

func gridSampleOptionsFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "default":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &GridSampleOptions{mode: "Bilinear", padding: "Zeros"}, nil, nil
	case "new":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		mode, ok := a.get(0).(*Enum)
		if !ok || mode.Type != "InterpolateMode" || !interpolateModes[mode.Variant] || len(mode.Fields) != 0 {
			return nil, errArgType(1, "InterpolateMode", c.Args[0]), nil
		}
		return &GridSampleOptions{mode: mode.Variant, padding: "Zeros"}, nil, nil
	}
	return nil, errUnknownFunction("struct `GridSampleOptions`", name), nil
}

// gridSampleOptionsMethod is with_padding_mode and with_align_corners
// (ops.rs:307-317).
func gridSampleOptionsMethod(o *GridSampleOptions, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	out := *o
	switch c.Method {
	case "with_padding_mode":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		p, ok := a.get(0).(*Enum)
		if !ok || p.Type != "GridSamplePaddingMode" || !gridSamplePaddings[p.Variant] {
			return nil, errArgType(1, "GridSamplePaddingMode", c.Args[0]), nil
		}
		out.padding = p.Variant
		return &out, nil, nil
	case "with_align_corners":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		b, ue := a.boolean(0)
		if ue != nil {
			return nil, ue, nil
		}
		out.alignCorners = b
		return &out, nil, nil
	case "clone":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &out, nil, nil
	}
	return nil, errUnknownMethod("struct `GridSampleOptions`", c.Method), nil
}

// gridSampleOptionsOf reads `impl Into<GridSampleOptions>`: the options or
// an InterpolateMode (From<InterpolateMode> is new(mode), ops.rs:290-294).
func gridSampleOptionsOf(v Value) (*GridSampleOptions, bool) {
	switch o := Deref(v).(type) {
	case *GridSampleOptions:
		return o, true
	case *Enum:
		if o.Type == "InterpolateMode" && interpolateModes[o.Variant] && len(o.Fields) == 0 {
			return &GridSampleOptions{mode: o.Variant, padding: "Zeros"}, true
		}
	}
	return nil, false
}

// gridSample2d is Tensor::grid_sample_2d(grid, options) (float.rs:640-650):
// Dispatch's float_grid_sample_2d, which Flex computes in f64
// (burn-flex/src/ops/grid_sample.rs:24-238). Flex's panics (a mode other
// than Bilinear and Nearest, ranks other than 4, a grid whose last dim is
// not 2, batch sizes that differ) and the gradient are not modelled: those
// calls stay unknown.
func (w *World) gridSample2d(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if t.kind != KindFloat {
		return nil, errTraitBounds("grid_sample_2d", t), nil
	}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	grid, ue := sameTensorArg(a, 0, t)
	if ue != nil {
		return nil, ue, nil
	}
	opts, ok := gridSampleOptionsOf(a.get(1))
	if !ok {
		return nil, errArgType(2, "impl Into<GridSampleOptions>", a.c.Args[1]), nil
	}
	ts, gs := t.shape, grid.shape
	if (opts.mode != "Bilinear" && opts.mode != "Nearest") || len(ts) != 4 || len(gs) != 4 || gs[3] != 2 || ts[0] != gs[0] ||
		t.tracked || grid.tracked {
		return nil, errUnsupported("Tensor::grid_sample_2d with these arguments"), nil
	}
	pl, p := w.routeBinaryFloat(t, grid)
	if p != nil {
		return nil, nil, w.failOp("float_grid_sample_2d", t, p)
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	out := w.output(pl, KindFloat, []int64{ts[0], ts[1], gs[1], gs[2]}, t.dtype)
	w.recordOp("float_grid_sample_2d", pl, out)
	w.compute(out, []*Tensor{t, grid}, func() (*tensor.Tensor, error) {
		dt, ok := valueDType(out.dtype)
		if !ok {
			return nil, tensor.ErrKind
		}
		return tensor.FromFloats(gridSampleValues(t.vals(), grid.vals(), opts), intDims(out.shape), dt)
	})
	return out, nil, nil
}

// gridSampleValues is Flex's grid_sample_2d_impl, in f64.
func gridSampleValues(x, grid *tensor.Tensor, o *GridSampleOptions) []float64 {
	n, c, hIn, wIn := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	hOut, wOut := grid.Shape[1], grid.Shape[2]
	out := make([]float64, n*c*hOut*wOut)
	read := func(base, xi, yi int) float64 {
		if o.padding == "Zeros" {
			if xi >= 0 && xi < wIn && yi >= 0 && yi < hIn {
				return x.Data.Float(base + yi*wIn + xi)
			}
			return 0
		}
		xi, yi = min(max(xi, 0), wIn-1), min(max(yi, 0), hIn-1)
		return x.Data.Float(base + yi*wIn + xi)
	}
	for b := range n {
		for y := range hOut {
			for xo := range wOut {
				g := ((b*hOut+y)*wOut + xo) * 2
				sx, sy := grid.Data.Float(g), grid.Data.Float(g+1)
				var px, py float64
				if o.alignCorners {
					px = (sx + 1) * float64(wIn-1) / 2
					py = (sy + 1) * float64(hIn-1) / 2
				} else {
					px = (sx+1)*float64(wIn)/2 - 0.5
					py = (sy+1)*float64(hIn)/2 - 0.5
				}
				px, py = gridPadding(px, py, wIn, hIn, o)
				for ch := range c {
					base := (b*c + ch) * hIn * wIn
					var v float64
					if o.mode == "Nearest" {
						v = read(base, rustInt(math.Round(px)), rustInt(math.Round(py)))
					} else {
						x0, y0 := rustInt(math.Floor(px)), rustInt(math.Floor(py))
						fx, fy := px-math.Floor(px), py-math.Floor(py)
						v = read(base, x0, y0)*(1-fx)*(1-fy) + read(base, x0, y0+1)*(1-fx)*fy +
							read(base, x0+1, y0)*fx*(1-fy) + read(base, x0+1, y0+1)*fx*fy
					}
					out[((b*c+ch)*hOut+y)*wOut+xo] = v
				}
			}
		}
	}
	return out
}

// gridPadding is Flex's apply_padding (grid_sample.rs:188-218).
func gridPadding(px, py float64, w, h int, o *GridSampleOptions) (float64, float64) {
	if math.IsNaN(px) || math.IsInf(px, 0) || math.IsNaN(py) || math.IsInf(py, 0) {
		if o.padding == "Border" {
			cx := math.Min(math.Max(float64(w-1)/2, 0), float64(w-1))
			cy := math.Min(math.Max(float64(h-1)/2, 0), float64(h-1))
			return cx, cy
		}
		return px, py
	}
	switch o.padding {
	case "Border":
		return math.Min(math.Max(px, 0), float64(w-1)), math.Min(math.Max(py, 0), float64(h-1))
	case "Reflection":
		return reflectCoordinate(px, w, o.alignCorners), reflectCoordinate(py, h, o.alignCorners)
	}
	return px, py
}

// reflectCoordinate is Flex's reflect_coordinate (grid_sample.rs:220-236).
func reflectCoordinate(coord float64, size int, align bool) float64 {
	lo, hi := -0.5, float64(size)-0.5
	if align {
		lo, hi = 0, float64(size)-1
	}
	span := hi - lo
	if span <= 0 {
		return lo
	}
	period := 2 * span
	x := math.Abs(coord - lo)
	xm := x - math.Floor(x/period)*period
	return span - math.Abs(xm-span) + lo
}

// rustInt is `f as i64` in Rust: NaN is 0 and the rest saturates (kept
// within int32 here, far outside any index).
func rustInt(f float64) int {
	switch {
	case math.IsNaN(f):
		return 0
	case f > math.MaxInt32:
		return math.MaxInt32
	case f < math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}

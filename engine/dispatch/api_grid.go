package dispatch

// grid::affine_grid_2d(transform, [batch, channels, height, width])
// (crates/burn-tensor/src/tensor/grid/affine_grid.rs:22-60): the
// normalized x and y coordinates of a height x width grid, each an arange
// reshaped, expanded, made float, divided by (size - 1) / 2 and shifted
// by -1 (all in f32), then the 2x3 transform of each batch applied, and
// the two planes stacked along dim 3.
func (w *World) affineGrid2d(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	transform, ue := a.tensor(0)
	if ue != nil || transform.kind != KindFloat || transform.Rank() != 3 {
		return nil, errArgType(1, "Tensor<3>", c.Args[0]), nil
	}
	dims, ue := shapeArg(a, 1)
	if ue != nil || len(dims) != 4 {
		return nil, errArgType(2, "[usize; 4]", c.Args[1]), nil
	}
	batch, height, width := dims[0], dims[2], dims[3]
	device := transform.Device()
	ac := actComposer{w: w}
	coords := func(n int64, shape []int64) *Tensor {
		r, ue, p := w.arange(n, ref2(device))
		if ue != nil || p != nil {
			ac.ue, ac.p = ue, p
			return nil
		}
		t := ac.method(ac.method(r, "reshape", usizeDims(shape)), "expand", usizeDims([]int64{height, width}))
		t = ac.method(t, "float")
		t = ac.method(t, "div_scalar", Float{V: float64(float32(n-1) / 2), Suffix: "f32"})
		t = ac.method(t, "sub_scalar", Float{V: 1, Suffix: "f32"})
		t = ac.method(t, "unsqueeze_dim", Int{V: 0})
		return ac.method(t, "expand", usizeDims([]int64{batch, height, width}))
	}
	x := coords(width, []int64{1, width})
	y := coords(height, []int64{height, 1})
	at := func(row, col int64) *Tensor {
		return ac.method(transform, "slice", &Array{Elems: []Value{&Range{}, Int{V: row}, Int{V: col}}})
	}
	a11, a12, tx := at(0, 0), at(0, 1), at(0, 2)
	a21, a22, ty := at(1, 0), at(1, 1), at(1, 2)
	gx := ac.method(ac.method(ac.method(a11, "mul", x), "add", ac.method(a12, "mul", y)), "add", tx)
	gy := ac.method(ac.method(ac.method(a21, "mul", x), "add", ac.method(a22, "mul", y)), "add", ty)
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	return w.tensorFunction("stack", Call{Path: []string{"Tensor", "stack"}, Generics: [][]string{{"4"}, nil},
		Args: []Value{&Array{Elems: []Value{gx, gy}, Vec: true}, Int{V: 3, Suffix: "usize"}}})
}

func ref2(d *Device) Value { return &Ref{V: d} }

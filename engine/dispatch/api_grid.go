package dispatch

import "fmt"

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

// gridOptions is a GridOptions value (grid/mod.rs:33-40): its indexing
// and sparsity variants.
func gridOptions(indexing, sparsity string) *Enum {
	return &Enum{Type: "GridOptions", Variant: "GridOptions", Named: map[string]Value{
		"indexing": &Enum{Type: "GridIndexing", Variant: indexing},
		"sparsity": &Enum{Type: "GridSparsity", Variant: sparsity}}}
}

// gridOptionsFunction is GridOptions::default() (Matrix, Dense, the
// enums' defaults) and GridOptions::new(indexing, sparsity) (derive new).
func gridOptionsFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "default":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return gridOptions("Matrix", "Dense"), nil, nil
	case "new":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		ix, ok1 := a.get(0).(*Enum)
		sp, ok2 := a.get(1).(*Enum)
		if !ok1 || ix.Type != "GridIndexing" || (ix.Variant != "Matrix" && ix.Variant != "Cartesian") {
			return nil, errArgType(1, "GridIndexing", c.Args[0]), nil
		}
		if !ok2 || sp.Type != "GridSparsity" || (sp.Variant != "Dense" && sp.Variant != "Sparse") {
			return nil, errArgType(2, "GridSparsity", c.Args[1]), nil
		}
		return gridOptions(ix.Variant, sp.Variant), nil, nil
	}
	return nil, errUnknownFunction("struct `GridOptions`", name), nil
}

// gridOptionsOf reads `impl Into<GridOptions>`: GridOptions (built or a
// struct literal), a GridIndexing or a GridSparsity (the other field its
// default, grid/mod.rs:42-57), or Default::default().
func gridOptionsOf(v Value) (indexing, sparsity string, ok bool) {
	indexing, sparsity = "Matrix", "Dense"
	if isDefaultMarker(v) {
		return indexing, sparsity, true
	}
	e, isEnum := Deref(v).(*Enum)
	if !isEnum {
		return "", "", false
	}
	switch {
	case e.Type == "GridIndexing" && (e.Variant == "Matrix" || e.Variant == "Cartesian"):
		return e.Variant, sparsity, true
	case e.Type == "GridSparsity" && (e.Variant == "Dense" || e.Variant == "Sparse"):
		return indexing, e.Variant, true
	case e.Variant == "GridOptions" && len(e.Named) == 2:
		ix, ok1 := Deref(e.Named["indexing"]).(*Enum)
		sp, ok2 := Deref(e.Named["sparsity"]).(*Enum)
		if !ok1 || !ok2 || ix.Type != "GridIndexing" || sp.Type != "GridSparsity" {
			return "", "", false
		}
		return ix.Variant, sp.Variant, true
	}
	return "", "", false
}

// meshgrid is grid::meshgrid(&[Tensor<1, K>; N], options) (grid/
// meshgrid.rs:45-84): each tensor reshaped to its own axis of the grid,
// expanded to the whole grid when dense, and its first two dims swapped
// for Cartesian indexing with N > 1. meshgrid_stack(tensors, index_pos)
// (meshgrid.rs:104-122) stacks the dense Matrix grids at dim 0 (First) or
// N (Last).
func (w *World) meshgrid(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	list, ok := a.get(0).(*Array)
	if !ok || len(list.Elems) == 0 {
		return nil, errArgType(1, "&[Tensor<1, K>; N]", c.Args[0]), nil
	}
	var ts []*Tensor
	for _, e := range list.Elems {
		t, ok := Deref(e).(*Tensor)
		if !ok || t.Rank() != 1 || (len(ts) > 0 && t.kind != ts[0].kind) {
			return nil, errArgType(1, "&[Tensor<1, K>; N]", c.Args[0]), nil
		}
		ts = append(ts, t)
	}
	indexing, sparsity, dim := "Matrix", "Dense", 0
	if name == "meshgrid" {
		if indexing, sparsity, ok = gridOptionsOf(a.get(1)); !ok {
			return nil, errArgType(2, "impl Into<GridOptions>", c.Args[1]), nil
		}
	} else {
		pos, ok := a.get(1).(*Enum)
		if !ok || pos.Type != "IndexPos" || (pos.Variant != "First" && pos.Variant != "Last") {
			return nil, errArgType(2, "IndexPos", c.Args[1]), nil
		}
		if pos.Variant == "Last" {
			dim = len(ts)
		}
	}
	n := len(ts)
	grid := make([]int64, n)
	for i, t := range ts {
		grid[i] = t.shape[0]
	}
	ac := actComposer{w: w}
	out := &Array{}
	for i, t := range ts {
		shape := make([]int64, n)
		for k := range shape {
			shape[k] = 1
		}
		shape[i] = grid[i]
		g := ac.method(t, "reshape", usizeDims(shape))
		if sparsity == "Dense" {
			g = ac.method(g, "expand", usizeDims(grid))
		}
		if indexing == "Cartesian" && n > 1 {
			g = ac.method(g, "swap_dims", Int{V: 0}, Int{V: 1})
		}
		out.Elems = append(out.Elems, g)
	}
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	if name == "meshgrid" {
		return out, nil, nil
	}
	out.Vec = true
	return w.tensorFunction("stack", Call{Path: []string{"Tensor", "stack"}, Generics: [][]string{{fmt.Sprint(n + 1)}, nil},
		Args: []Value{out, Int{V: int64(dim), Suffix: "usize"}}})
}

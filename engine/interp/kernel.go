package interp

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Custom GPU kernels behind a backend extension (engine/cubecl): the
// program's `impl Trait for CubeBackend<R>` (or for
// `burn_fusion::Fusion<CubeBackend<R>>`) runs when a concrete route
// reaches a cubecl backend, with CubeTensors for its tensor inputs; a
// `#[cube(launch)]` function's `launch` is a boundary that leaves the
// tensors it writes with unknown values; the names of cubecl's prelude
// that a glob import brings in are cubecl's.

// extensionImpl is the ExtensionImpl of the ops of trait: the program's
// method of its impl for the route's backend type, called with the
// route's inputs.
func (in *interp) extensionImpl(trait, op string) dispatch.ExtensionImpl {
	return func(route dispatch.ImplRoute, inputs []dispatch.Value) (*dispatch.Callback, bool) {
		if route.Autodiff {
			if in.autodiffImplMethod(trait, op) == nil {
				return nil, false
			}
			if len(in.sites) > 0 {
				in.boundary(CodeUnmodelled, in.sites[len(in.sites)-1],
					fmt.Sprintf("`%s` routes to `Autodiff<%s, C>`, whose impl of `%s` uses burn-autodiff's custom backward API (Backward, prepare, OpsKind, finish), which the playground does not model yet", op, route.Selector, trait),
					"Burn defines it at crates/burn-autodiff/src/ops/backward.rs:34 and base.rs:149-213; the op's output and the gradients through it are unknown")
			}
			return nil, true
		}
		m := in.cubeImplMethod(trait, op, route)
		if m == nil {
			return nil, false
		}
		return &dispatch.Callback{Fn: &fnValue{decl: m}, Args: inputs}, true
	}
}

// cubeImplMethod is the method op of the program's impl of trait for the
// backend type route names, nil when it has none of its own (a default
// body on primitives is left to the signature's model).
func (in *interp) cubeImplMethod(trait, op string, route dispatch.ImplRoute) *syntax.FnDecl {
	for _, im := range in.impls {
		if im.Trait == nil || lastSeg(im.Trait) != trait || !in.implForRoute(im, route) {
			continue
		}
		for _, m := range im.Methods {
			if m.Name == op && m.Body != nil {
				return m
			}
		}
	}
	return nil
}

// autodiffImplMethod is the method op of the program's impl of trait for
// burn's Autodiff<B, C>, nil when it has none of its own.
func (in *interp) autodiffImplMethod(trait, op string) *syntax.FnDecl {
	for _, im := range in.impls {
		if im.Trait == nil || lastSeg(im.Trait) != trait || lastSeg(im.For) != "Autodiff" {
			continue
		}
		for _, m := range im.Methods {
			if m.Name == op && m.Body != nil {
				return m
			}
		}
	}
	return nil
}

// implForRoute reports whether an impl's self type is the backend type of
// the route: `Sel` itself, `CubeBackend<R>` without fusion,
// `Fusion<CubeBackend<R>>` with it (crates/burn-wgpu/src/lib.rs:34-38),
// R a type parameter of the impl or the backend's runtime.
func (in *interp) implForRoute(im *syntax.ImplDecl, route dispatch.ImplRoute) bool {
	t := im.For
	if t == nil || t.Kind != syntax.TypePath || len(t.Path) == 0 {
		return false
	}
	if lastSeg(t) == route.Selector {
		return true
	}
	if route.Fusion {
		if lastSeg(t) != "Fusion" {
			return false
		}
		t = firstGeneric(t)
		if t == nil {
			return false
		}
	}
	if lastSeg(t) != "CubeBackend" {
		return false
	}
	rt := firstGeneric(t)
	if rt == nil {
		return false
	}
	name := lastSeg(rt)
	for _, g := range im.Generics {
		if g.Name == name {
			return true
		}
	}
	switch name {
	case "WgpuRuntime":
		return route.Backend == dispatch.Wgpu || route.Backend == dispatch.WebGpu || route.Backend == dispatch.Metal || route.Backend == dispatch.Vulkan
	case "CudaRuntime":
		return route.Backend == dispatch.Cuda
	case "HipRuntime", "RocmRuntime", "AmdRuntime":
		return route.Backend == dispatch.Rocm
	case "CpuRuntime":
		return route.Backend == dispatch.Cpu
	}
	return false
}

func firstGeneric(t *syntax.Type) *syntax.Type {
	last := t.Path[len(t.Path)-1]
	for _, g := range last.Generics {
		if g.Type != nil {
			return g.Type
		}
	}
	return nil
}

// cubeImplemented reports an impl of trait for the backend type the
// selector names when it is a cubecl backend: what rustc needs for the
// generated `<Sel as Trait>::op` to compile.
func (in *interp) cubeImplemented(trait, selector string) bool {
	b, ok := dispatch.SelectorBackend(selector)
	if !ok || !b.IsCube() {
		return false
	}
	route := dispatch.ImplRoute{Selector: selector, Backend: b, Fusion: in.world.CubeFusion(b)}
	for _, im := range in.impls {
		if im.Trait != nil && lastSeg(im.Trait) == trait && in.implForRoute(im, route) {
			return true
		}
	}
	return false
}

// cubeKernel reports a `#[cube(launch)]` or `#[cube(launch_unchecked)]`
// function: cubecl's macro gives it a module of that name whose `launch`
// (or `launch_unchecked`) function launches it.
func cubeKernel(fn *syntax.FnDecl, method string) bool {
	for _, a := range fn.Attrs {
		if a.Path != "cube" && !strings.HasSuffix(a.Path, "::cube") {
			continue
		}
		for _, t := range a.Args {
			if t.Kind == syntax.Ident && t.Text == method && (method == "launch" || method == "launch_unchecked") {
				return true
			}
		}
	}
	return false
}

// kernelLaunch is `kernel::launch(client, cube_count, cube_dim, args..)`:
// the kernel is not run. The tensor arguments of its `&mut` parameters
// hold unknown values from now on; when the arguments do not line up
// with the parameters, every tensor argument does.
func (in *interp) kernelLaunch(fn *syntax.FnDecl, method string, args []value, e *syntax.CallExpr) (value, *signal) {
	name := fn.Name + "::" + method
	if len(args) < 3 {
		in.report(diagWrongArgs(e, 3+len(fn.Params), len(args)))
		return unknown, nil
	}
	k := dispatch.Kernel{Name: name}
	aligned := len(args)-3 == len(fn.Params)
	for i, a := range args[3:] {
		k.Tensors = append(k.Tensors, a)
		written := true
		if aligned {
			t := fn.Params[i].Type
			written = t != nil && t.Kind == syntax.TypeRef && t.Mut
		}
		k.Written = append(k.Written, written)
	}
	if in.uncalled {
		return dispatch.Unit{}, nil
	}
	// An unknown launch setting (a cube count computed from an unknown
	// value) still launches the kernel: the tensors it writes are marked.
	in.world.SetSite(len(in.sites))
	in.sites = append(in.sites, e.Range)
	in.world.LaunchKernel(k)
	in.boundary(CodeUnmodelled, e.Fun.Span(), fmt.Sprintf("`%s` launches a GPU kernel: the playground does not run it", name),
		"the tensors the kernel writes (its `&mut` parameters) hold unknown values from here on, so what is read from them is not checked; their shape, dtype and device are what the program built")
	return dispatch.Unit{}, nil
}

func diagWrongArgs(e *syntax.CallExpr, want, got int) diag.Diagnostic {
	return diag.Diagnostic{Code: "wrong-arguments", Severity: diag.Error, File: diag.MainRS, Range: e.Range,
		Message: fmt.Sprintf("this function takes %d %s but %d %s supplied", want, plural(want, "argument"), got, wasWere(got))}
}

// foreignGlob is the crate of a glob import of m (or of the modules its
// block is in) from a crate the package depends on that the engine does
// not model, such as `use cubecl::prelude::*;`: a name nothing else
// declares may come from it. "" when there is none, or more than one.
func (in *interp) foreignGlob(m *module) string {
	found := ""
	for ; m != nil; m = m.parent {
		for _, g := range m.globs {
			if len(g) > 0 && in.otherCrate(g[0]) {
				if found != "" && found != g[0] {
					return ""
				}
				found = g[0]
			}
		}
		if !m.block {
			break
		}
	}
	return found
}

// backwardMethod is a method burn-autodiff's Backward trait gives a type
// of the program that implements it (`prepare`), which the playground does
// not model: a boundary with an unknown result, so the custom op's forward
// through Autodiff<B, C> and the gradients it registers are not checked.
func (in *interp) backwardMethod(recv value, e *syntax.MethodCallExpr) (value, bool) {
	en, ok := dispatch.Deref(recv).(*dispatch.Enum)
	if !ok || e.Name != "prepare" || in.traits["Backward"] != nil {
		return nil, false
	}
	for _, im := range in.impls {
		if im.Trait != nil && lastSeg(im.Trait) == "Backward" && im.For != nil && lastSeg(im.For) == en.Type {
			in.boundary(CodeUnmodelled, e.NameSpan, fmt.Sprintf("`Backward::%s` of burn-autodiff's custom backward API is Burn's, but the playground does not model it yet", e.Name),
				"Burn defines it at crates/burn-autodiff/src/ops/backward.rs:34")
			return unknown, true
		}
	}
	return nil, false
}

// cubeclModelled reports a path into the cubecl crate that engine/cubecl
// models, which is then not the boundary of a crate the engine does not
// model.
func cubeclModelled(path []string) bool {
	if len(path) == 2 && path[0] == "bytemuck" && path[1] == "cast_slice" {
		// The info buffer of a source kernel (the WGSL example).
		return true
	}
	if len(path) < 3 || path[0] != "cubecl" {
		return false
	}
	typ, name := path[len(path)-2], path[len(path)-1]
	switch typ {
	case "CubeDim":
		return name == "new_3d" || name == "new_2d" || name == "new_1d" || name == "new_single"
	case "CubeCount":
		return name == "Static"
	case "KernelArguments", "KernelId":
		return name == "new"
	}
	return false
}

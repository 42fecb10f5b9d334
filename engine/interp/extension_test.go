package interp

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// extensionOptions is a build with burn's extension feature and the
// Flex, NdArray and autodiff backends, as Cargo would propagate them.
// extensionOptions builds a crate whose own features forward to burn's of
// the same names (`flex = ["burn/flex"]`), all of them on.
func extensionOptions(burnFeatures ...string) Options {
	on := map[string]bool{}
	features := append([]string{"extension", "flex", "ndarray", "autodiff"}, burnFeatures...)
	for _, f := range features {
		on["burn/"+f] = true
		on["burn-core/"+f] = true
		on["burn-tensor/"+f] = true
		on["burn-dispatch/"+f] = true
	}
	return Options{Config: dispatch.Config{Features: on}, Features: features}
}

const extensionPrelude = `use burn::backend::{backend_extension, tensor::{FloatTensor, IntTensor}, Backend, Dispatch, Flex, NdArray};
use burn::tensor::{Device, Int, Tensor};
`

// TestExtensionCompileErrors: the macro's first error per trait, with the
// span it points at, and rustc's errors on the expansion.
func TestExtensionCompileErrors(t *testing.T) {
	cases := []struct {
		name, trait, code, msg, at string
	}{
		{"unsupported selector", "#[backend_extension(Flex, Fusion)]\ntrait T: Backend { fn f(x: FloatTensor<Self>) -> FloatTensor<Self>; }",
			"unsupported-backend", "Unsupported backend `Fusion`", "Fusion"},
		{"missing comma", "#[backend_extension(Flex NdArray)]\ntrait T: Backend { fn f(x: FloatTensor<Self>) -> FloatTensor<Self>; }",
			"syntax-error", "expected `,`", "NdArray"},
		{"const fn", "#[backend_extension(Flex)]\ntrait T: Backend { const fn f(x: FloatTensor<Self>) -> FloatTensor<Self>; }",
			"const-backend-extension-operations-aren-t-supporte", "const backend extension operations aren't supported", "f"},
		{"receiver", "#[backend_extension(Flex)]\ntrait T: Backend { fn f(&self, x: FloatTensor<Self>) -> FloatTensor<Self>; }",
			"backend-extension-operations-can-t-take-a-receiver", "backend extension operations can't take a receiver", "&self"},
		{"ref pattern", "#[backend_extension(Flex)]\ntrait T: Backend { fn f(ref x: FloatTensor<Self>) -> FloatTensor<Self>; }",
			"unsupported-pattern", "Unsupported pattern", "ref x"},
		{"mutable tensor", "#[backend_extension(Flex)]\ntrait T: Backend { fn f(x: &mut FloatTensor<Self>) -> FloatTensor<Self>; }",
			"mutable-tensor-references-aren-t-supported-by-back", "mutable tensor references aren't supported by backend extensions", "&mut FloatTensor<Self>"},
		{"generic not Self", "#[derive(ExtensionType)]\nstruct Boxes<B: Backend> { c: FloatTensor<B> }\n#[backend_extension(Flex)]\ntrait T: Backend { fn f(#[extension_type] b: Boxes<B>) -> FloatTensor<Self>; }",
			"extension-type-requires-exactly-one-generic-argume", "`#[extension_type]` requires exactly one generic argument and it must be `Self`, e.g. `MyType<Self>`.", "Boxes<B>"},
		{"no return", "#[backend_extension(Flex)]\ntrait T: Backend { fn f(x: FloatTensor<Self>); }",
			"operations-must-return-a-value", "Operations must return a value", "f"},
		{"missing impl", "#[backend_extension(Flex, NdArray)]\ntrait T: Backend { fn f(x: FloatTensor<Self>) -> FloatTensor<Self> { x } }\nimpl T for Flex {}",
			"trait-not-implemented", "the trait bound `NdArray: T` is not satisfied", "NdArray"},
		{"no derive", "struct Boxes<B: Backend> { c: FloatTensor<B> }\n#[backend_extension(Flex)]\ntrait T: Backend { fn f(#[extension_type] b: Boxes<Self>) -> FloatTensor<Self>; }\nimpl T for Flex {}",
			"trait-not-implemented", "the trait bound `Boxes<Dispatch>: ExtensionType<Dispatch>` is not satisfied", "Boxes<Self>"},
		{"selector feature off", "#[backend_extension(Flex, Cuda)]\ntrait T: Backend { fn f(x: FloatTensor<Self>) -> FloatTensor<Self> { x } }\nimpl<B: Backend> T for B {}",
			"feature-not-enabled", "failed to resolve: could not find `Cuda` in `backend`", "Cuda"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := extensionPrelude + c.trait + "\nfn main() {}\n"
			out := eval(t, Check, src, extensionOptions())
			if len(out.Diags) != 1 {
				t.Fatalf("want one diagnostic, got %+v", out.Diags)
			}
			d := out.Diags[0]
			if d.Code != c.code || d.Message != c.msg {
				t.Errorf("got %s %q\nwant %s %q", d.Code, d.Message, c.code, c.msg)
			}
			if got := src[d.Range.Start:d.Range.End]; got != c.at {
				t.Errorf("points at %q, want %q", got, c.at)
			}
		})
	}
}

// TestExtensionCall: the op's parameter names as written, the argument
// span of the panic, the location at the attribute and cfg-gated arms.
func TestExtensionCall(t *testing.T) {
	trait := `
#[backend_extension(NdArray, Flex: cfg(feature = "flex"))]
pub trait Ext: Backend {
    fn add2(r#in: FloatTensor<Self>, mut rhs: FloatTensor<Self>) -> FloatTensor<Self> { rhs }
}
impl Ext for NdArray {}
impl Ext for Flex {}
`
	call := `
fn main() {
    let a = Tensor::<1>::from_floats([1.0], &Device::ndarray());
    let b = Tensor::<1>::from_floats([2.0], &Device::flex());
    let c = Dispatch::add2(b.into_dispatch(), a.into_dispatch());
}
`
	src := extensionPrelude + trait + call
	out := eval(t, Run, src, extensionOptions())
	if out.Panic == nil || out.Panic.Message != "input tensor `rhs` is on the wrong backend" {
		t.Fatalf("run: %+v %+v", out.Panic, out.Diags)
	}
	if got := src[out.Panic.Range.Start:out.Panic.Range.End]; got != "a.into_dispatch()" {
		t.Errorf("panic span %q, want the argument", got)
	}
	if out.Panic.Location != "src/main.rs:4:1" {
		t.Errorf("location %q, want the attribute's", out.Panic.Location)
	}
	d := out.Diags[len(out.Diags)-1]
	if len(d.Fixes) == 0 || d.Fixes[0].Edits[0].NewText != "a.to_device(&Device::flex()).into_dispatch()" {
		t.Errorf("fixes %+v", d.Fixes)
	}

	// The first parameter is named as written, raw identifier included.
	swapped := strings.Replace(src, "b.into_dispatch(), a.into_dispatch()", "a.into_dispatch(), b.into_dispatch()", 1)
	swapped = strings.Replace(swapped, "NdArray, Flex:", "Flex, NdArray:", 1)
	swapped = strings.Replace(swapped, `cfg(feature = "flex")`, `cfg(feature = "ndarray")`, 1)
	if out := eval(t, Run, swapped, extensionOptions()); out.Panic == nil || out.Panic.Message != "input tensor `rhs` is on the wrong backend" {
		t.Errorf("swapped: %+v", out.Panic)
	}

	// Without the crate's feature, Flex's arm is compiled out: a Flex
	// routing tensor has no route.
	gated := strings.Replace(src, `cfg(feature = "flex")`, `cfg(feature = "wgpu")`, 1)
	out = eval(t, Run, gated, extensionOptions())
	if out.Panic == nil || out.Panic.Message != "not implemented: Backend not supported for custom op `add2`" {
		t.Errorf("cfg-gated Flex arm: %+v %+v", out.Panic, out.Diags)
	}
	raw := strings.Replace(gated, "Dispatch::add2(b.into_dispatch(), a.into_dispatch())", "Dispatch::add2(a.into_dispatch(), b.into_dispatch())", 1)
	out = eval(t, Run, raw, extensionOptions())
	if out.Panic == nil || out.Panic.Message != "input tensor `rhs` is on the wrong backend" {
		t.Errorf("NdArray routes, Flex is refused: %+v", out.Panic)
	}
	first := strings.Replace(raw, "fn add2(r#in: FloatTensor<Self>, mut rhs: FloatTensor<Self>)", "fn add2(r#in: IntTensor<Self>, mut rhs: FloatTensor<Self>)", 1)
	first = strings.Replace(first, "Dispatch::add2(a.into_dispatch(), b.into_dispatch())", "Dispatch::add2(b.into_dispatch(), a.into_dispatch())", 1)
	out = eval(t, Run, first, extensionOptions())
	if out.Panic == nil || out.Panic.Message != "input tensor `r#in` is on the wrong backend" {
		t.Errorf("raw identifier: %+v", out.Panic)
	}
}

// TestExtensionCallErrors are the calls rustc rejects.
func TestExtensionCallErrors(t *testing.T) {
	trait := "#[backend_extension(Flex)]\npub trait Ext: Backend { fn f(x: FloatTensor<Self>) -> FloatTensor<Self> { x } }\nimpl Ext for Flex {}\n"
	cases := []struct{ name, body, code, msg, at string }{
		{"trait path", "let y = Ext::f(x.into_dispatch());", "ambiguous-trait-call",
			"cannot call associated function on trait without specifying the corresponding `impl` type", "Ext::f"},
		{"plain tensor", "let y = Dispatch::f(x);", "wrong-arguments",
			"mismatched types: expected `DispatchTensor`, found `Tensor<1>`", "x"},
		{"unknown op", "let y = Dispatch::g(x.into_dispatch());", "unknown-function",
			"no function or associated item named `g` found for struct `Dispatch` in the current scope", "Dispatch::g"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := extensionPrelude + trait + "fn main() {\n    let x = Tensor::<1>::ones([2], &Device::flex());\n    " + c.body + "\n}\n"
			out := eval(t, Check, src, extensionOptions())
			if len(out.Diags) != 1 {
				t.Fatalf("want one diagnostic, got %+v", out.Diags)
			}
			d := out.Diags[0]
			if d.Code != c.code || d.Message != c.msg || src[d.Range.Start:d.Range.End] != c.at {
				t.Errorf("got %s %q at %q", d.Code, d.Message, src[d.Range.Start:d.Range.End])
			}
		})
	}
}

func TestExtensionWithoutFeature(t *testing.T) {
	src := extensionPrelude + "#[backend_extension(Flex)]\npub trait Ext: Backend { fn f(x: FloatTensor<Self>) -> FloatTensor<Self> { x } }\nfn main() {}\n"
	opts := extensionOptions()
	delete(opts.Config.Features, "burn-core/extension")
	out := eval(t, Check, src, opts)
	if len(out.Diags) != 1 || out.Diags[0].Code != "feature-not-enabled" {
		t.Errorf("diagnostics %+v", out.Diags)
	}
}

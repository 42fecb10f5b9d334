package dispatch

import (
	"fmt"
	"strings"
)

// Backend extensions: the `impl Trait for burn::backend::Dispatch` that
// `#[backend_extension(...)]` generates for a user's trait, and the two
// conversions user code crosses the boundary with, `Tensor::into_dispatch`
// and `Tensor::from_dispatch` (crates/burn-tensor/src/tensor/api/extension.rs:54-69).
//
// The generated routing is the post-snapshot design (routing.rs@409ec94 and
// extension.rs@547e348, shared/burn/extensions.md §2-§3): it is the design
// whose message "input tensor `NAME` is on the wrong backend" users meet,
// and the catalog's seed record describes it. The snapshot's own routing
// (ext/src/lib.rs@2c06be35, spec §6.2) raised other texts for the same
// mistakes; the records document both.
//
// The model decides everything from the op's declaration and its inputs'
// kinds, backends and autodiff contexts, as the generated code does: it
// never compares devices, and it does not run the user's impl bodies. An
// op's outputs are modelled from its signature (see extensionOutput).

// extensionSelectors are the selector names `#[backend_extension]` accepts
// and the DispatchTensorKind variant each one names. The playground takes
// the per-runtime names of the modelled commit (ext/src/lib.rs@2c06be35:103-123),
// the ones Burn's book and examples write (`Wgpu`, `Cuda`, `NdArray`,
// `Flex`, ...). The later catalog (catalog.rs@e0a26ae: Cube, Flex, NdArray,
// LibTorch, Remote, Capture) would reject `Wgpu` and `Cuda`; with the
// snapshot's list `Cube`, `Fusion` and `Capture` are the unsupported names.
var extensionSelectors = map[string]Backend{
	"Cpu": Cpu, "Cuda": Cuda, "Wgpu": Wgpu, "WebGpu": WebGpu, "Metal": Metal, "Rocm": Rocm,
	"Vulkan": Vulkan, "Flex": Flex, "NdArray": NdArray, "LibTorch": LibTorch, "Remote": Remote,
}

// AutodiffSelector is the selector that is not a backend: it adds the
// autodiff routes (extensions.md §2.10).
const AutodiffSelector = "Autodiff"

// SelectorBackend returns the backend a concrete selector names; ok is
// false for a name the macro rejects with "Unsupported backend `NAME`".
func SelectorBackend(name string) (b Backend, ok bool) {
	b, ok = extensionSelectors[name]
	return b, ok
}

// SelectorCompiled reports whether burn::backend::<Sel> exists in this
// build: the generated code names it, so a selector whose backend feature
// is off does not compile. The feature is what burn's Cargo.toml calls it.
func (w *World) SelectorCompiled(b Backend) (ok bool, feature string) {
	return w.compiled(b), b.Feature()
}

// AutodiffCompiled reports whether burn::backend::Autodiff exists, which
// the routes of an `Autodiff` selector name.
func (w *World) AutodiffCompiled() bool { return w.autodiffCompiled() }

// ExtensionCompiled reports burn's `extension` feature, which compiles
// the burn::backend module and the #[backend_extension] macro
// (crates/burn-core/src/lib.rs:35-37).
func (w *World) ExtensionCompiled() bool { return w.cfg.Enabled("burn-core", "extension") }

// DispatchTensor is what Tensor::into_dispatch returns and extension ops
// take and return. Inside `impl Trait for Dispatch` every tensor type
// (FloatTensor<Self>, IntTensor<Self>, ...) is this one type, so kinds are
// not checked where an op is called.
type DispatchTensor struct{ t *Tensor }

func (*DispatchTensor) TypeName() string { return "DispatchTensor" }

// Tensor is the tensor behind the handle.
func (d *DispatchTensor) Tensor() *Tensor { return d.t }

// ParamKind classifies a parameter of an extension op, or a field of an
// ExtensionType, the way the macro does (extensions.md §1.3): by the last
// path segment of its type.
type ParamKind int

const (
	// ParamOther is passed through untouched: scalars, Vec<usize>, and
	// also Option<FloatTensor<Self>> and Vec<FloatTensor<Self>>.
	ParamOther ParamKind = iota
	ParamFloat
	ParamInt
	ParamBool
	ParamQuantized
	// ParamExtension is an `#[extension_type]` argument (or a nested
	// `#[extension_type]` field): a derived ExtensionType struct or enum.
	ParamExtension
)

func (k ParamKind) isTensor() bool { return k >= ParamFloat && k <= ParamQuantized }

// accessor is the BackendTensor accessor the generated code calls for
// the kind: float(), int(), bool() or quantized().
func (k ParamKind) accessor() string {
	return [...]string{"", "float", "int", "bool", "quantized", ""}[k]
}

func (k ParamKind) tensorKind() Kind {
	switch k {
	case ParamInt:
		return KindInt
	case ParamBool:
		return KindBool
	case ParamQuantized:
		return KindQFloat
	}
	return KindFloat
}

// ExtensionOp is one method of a #[backend_extension] trait, as the
// generated `impl Trait for Dispatch` routes it.
type ExtensionOp struct {
	Trait string
	Name  string // the method's identifier as written (a raw identifier keeps its r#)
	// Selectors are the concrete selectors in listing order; a selector's
	// position is its routing tag.
	Selectors []ExtSelector
	// Autodiff is set when `Autodiff` is listed; AutodiffOff when its
	// `: cfg(...)` does not hold.
	Autodiff    bool
	AutodiffOff bool
	Params      []ExtParam
	Output      ExtOutput
	// Location is where Rust reports the panics of the generated code:
	// its tokens carry the span of the attribute that generated them, so
	// a panic there prints the user's file ("src/main.rs:12:1"), not a
	// file of Burn.
	Location string
	// Impl runs the program's impl on a route the playground runs it on
	// (extension_impl.go); nil leaves every route to the signature.
	Impl ExtensionImpl
}

// ExtSelector is one concrete selector of the attribute. Off is set when
// its `: cfg(...)` does not hold in the user's crate.
type ExtSelector struct {
	Name    string
	Backend Backend
	Off     bool
}

// ExtParam is one parameter of an op.
type ExtParam struct {
	Name     string
	Kind     ParamKind
	Borrowed bool     // `&FloatTensor<Self>`
	Type     *ExtType // the ExtensionType of a ParamExtension
}

// ExtType is the layout of a #[derive(ExtensionType)] struct or enum: the
// tensor fields the derived impl maps, in declaration order. A struct has
// one variant named after it.
type ExtType struct {
	Name     string
	Enum     bool
	Variants []ExtVariant
}

// ExtVariant is a struct's fields or one enum variant's.
type ExtVariant struct {
	Name   string
	Named  bool // fields written `{ name: T }`; tuple fields are named "0", "1", ...
	Fields []ExtField
}

// ExtField is one field; Type is set for a nested `#[extension_type]` field.
type ExtField struct {
	Name string
	Kind ParamKind
	Type *ExtType
}

// OutputShape tells the output trees of an op apart (ir.rs@547e348:138-156).
type OutputShape int

const (
	OutPlain OutputShape = iota // a type without Self: returned as the impl returns it
	OutTensor
	OutOption
	OutVec
	OutTuple
	OutExtension // a derived ExtensionType mentioning Self
)

// ExtOutput is an op's return type.
type ExtOutput struct {
	Shape OutputShape
	Kind  ParamKind   // OutTensor
	Elems []ExtOutput // OutOption and OutVec: one; OutTuple: each
	Type  *ExtType    // OutExtension, nil when the type is not a known ExtensionType
}

func (*ExtensionOp) TypeName() string { return "Dispatch" }

// hasTensorInput is the generated code's test for a routed op: a bare
// tensor parameter or an `#[extension_type]` one (extension.rs@547e348:301-335).
func (op *ExtensionOp) hasTensorInput() bool {
	for _, p := range op.Params {
		if p.Kind.isTensor() || p.Kind == ParamExtension {
			return true
		}
	}
	return false
}

// ExtensionAPI runs the calls only Burn's `extension` feature provides:
// an extension op (Call.Recv is the *ExtensionOp, Call.Args its arguments),
// Tensor::into_dispatch, Tensor::from_dispatch and methods on a
// DispatchTensor. handled is false for every other call, which Call runs.
func (w *World) ExtensionAPI(c Call) (v Value, handled bool, err error) {
	if len(c.Path) > 0 {
		path := normalizePath(c.Path)
		if n := len(path); n >= 2 && path[n-2] == "Tensor" {
			switch path[n-1] {
			case "from_dispatch":
				v, err = result(w.fromDispatch(c))
				return v, true, err
			case "from_bridge":
				v, err = result(w.fromBridge(c))
				return v, true, err
			case "from_primitive":
				v, err = result(w.fromPrimitive(c))
				return v, true, err
			}
		}
		return nil, false, nil
	}
	switch r := Deref(c.Recv).(type) {
	case *ExtensionOp:
		v, err = w.CallExtension(r, c.Args)
		return v, true, err
	case *DispatchTensor:
		v, err = result(w.dispatchTensorMethod(r, c))
		return v, true, err
	case *BridgeTensor:
		v, err = result(w.bridgeTensorMethod(r, c))
		return v, true, err
	case *Tensor:
		switch c.Method {
		case "into_dispatch":
			v, err = result(w.intoDispatch(r, c))
			return v, true, err
		case "into_bridge":
			v, err = result(w.intoBridge(r, c))
			return v, true, err
		case "try_into_primitive":
			v, err = result(w.tryIntoPrimitive(r, c))
			return v, true, err
		}
	}
	return nil, false, nil
}

// intoDispatch is Tensor::into_dispatch (extension.rs:67-69): the handle
// as it is, with no backend or device check.
func (w *World) intoDispatch(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("extension") {
		return nil, errGatedMethod(tensorStruct, "into_dispatch", "extension"), nil
	}
	if ue := (argList{c: c, method: true}).want(0); ue != nil {
		return nil, ue, nil
	}
	out := *t
	return &DispatchTensor{t: &out}, nil, nil
}

// fromDispatch is Tensor::<D, K>::from_dispatch (extension.rs:54-64): it
// checks the dtype against K and nothing else. A quantized handle counts
// as Float. D is not checked: the handle keeps its shape.
func (w *World) fromDispatch(c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("extension") {
		return nil, errGatedFunction(tensorStruct, "from_dispatch", "extension"), nil
	}
	a := argList{c: c}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	d, ok := c.Args[0].(*DispatchTensor)
	if !ok {
		return nil, errMismatch(1, "DispatchTensor", c.Args[0]), nil
	}
	want := parseTensorType(c.Generics, c.Expect).kind
	t := d.t
	fits := false
	switch want {
	case KindFloat:
		fits = t.kind == KindQFloat || t.dtype.IsFloat()
	case KindInt:
		fits = t.dtype.IsInt()
	case KindBool:
		fits = t.dtype.IsBool()
	}
	if !fits {
		return nil, nil, panicFromDispatchKind(want, t.dtype)
	}
	out := *t
	return &out, nil, nil
}

// BridgeTensor is what Tensor::into_bridge returns: the tensor's
// type-erased primitive, tagged with its kind (Float, Int, Bool or QFloat).
type BridgeTensor struct{ t *Tensor }

func (*BridgeTensor) TypeName() string { return "BridgeTensor" }

// Tensor is the tensor behind the primitive.
func (b *BridgeTensor) Tensor() *Tensor { return b.t }

// intoBridge is Tensor::into_bridge (extension.rs:23-25).
func (w *World) intoBridge(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("extension") {
		return nil, errGatedMethod(tensorStruct, "into_bridge", "extension"), nil
	}
	if ue := (argList{c: c, method: true}).want(0); ue != nil {
		return nil, ue, nil
	}
	out := *t
	return &BridgeTensor{t: &out}, nil, nil
}

// fromBridge is Tensor::<D, K>::from_bridge (extension.rs:36-48): the
// bridge's kind must be K's (a QFloat bridge counts as Float) and its
// dtype must fit that kind.
func (w *World) fromBridge(c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("extension") {
		return nil, errGatedFunction(tensorStruct, "from_bridge", "extension"), nil
	}
	if ue := (argList{c: c}).want(1); ue != nil {
		return nil, ue, nil
	}
	b, ok := c.Args[0].(*BridgeTensor)
	if !ok {
		return nil, errMismatch(1, "BridgeTensor", c.Args[0]), nil
	}
	want := parseTensorType(c.Generics, c.Expect).kind
	t := b.t
	fits := false
	switch t.kind {
	case KindBool:
		fits = want == KindBool && t.dtype.IsBool()
	case KindInt:
		fits = want == KindInt && t.dtype.IsInt()
	case KindFloat:
		fits = want == KindFloat && t.dtype.IsFloat()
	case KindQFloat:
		fits = want == KindFloat
	}
	if !fits {
		return nil, nil, newPanic("bt-ext-from-bridge-kind", fmt.Sprintf("%s:%d", locExtensionAPI, 46),
			fmt.Sprintf("Expected kind %s, got dtype %s", want, t.dtype)).on(1)
	}
	out := *t
	return &out, nil, nil
}

func (w *World) bridgeTensorMethod(b *BridgeTensor, c Call) (Value, *UsageError, *Panic) {
	if c.Method == "clone" {
		if ue := (argList{c: c, method: true}).want(0); ue != nil {
			return nil, ue, nil
		}
		out := *b.t
		return &BridgeTensor{t: &out}, nil, nil
	}
	return nil, errUnknownMethod("enum `BridgeTensor`", c.Method), nil
}

// Primitive is a concrete backend's tensor primitive, as
// Tensor::try_into_primitive::<B>() returns it: B is a backend type
// (`Flex`) or its autodiff wrapper (`Autodiff<Flex>`).
type Primitive struct {
	t        *Tensor
	backend  Backend
	autodiff bool
}

func (p *Primitive) TypeName() string {
	b := p.backend.String()
	if p.autodiff {
		b = "Autodiff<" + b + ">"
	}
	return fmt.Sprintf("<%s as Backend>::%sTensorPrimitive", b, map[Kind]string{KindFloat: "Float", KindInt: "Int", KindBool: "Bool", KindQFloat: "Float"}[p.t.kind])
}

// primitiveBackend reads the B of try_into_primitive::<B> and
// from_primitive::<B>: a backend type of burn::backend, bare or in
// Autodiff<..>.
func (w *World) primitiveBackend(generic string) (b Backend, autodiff bool, ue *UsageError) {
	name := strings.TrimSpace(generic)
	if inner, ok := strings.CutPrefix(name, "Autodiff<"); ok {
		autodiff = true
		name = strings.TrimSpace(strings.TrimRight(strings.SplitN(inner, ",", 2)[0], ">"))
		if !w.autodiffCompiled() {
			return 0, false, errGatedPath("burn::backend::Autodiff", "Autodiff", "backend", "autodiff")
		}
	}
	b, ok := extensionSelectors[name]
	if name == "Capture" {
		b, ok = Capture, true
	}
	if !ok {
		return 0, false, &UsageError{Code: "unknown-function", Arg: -1, Message: fmt.Sprintf("cannot find type `%s` in this scope", name)}
	}
	if !w.compiled(b) {
		return 0, false, errGatedPath("burn::backend::"+name, name, "backend", b.Feature())
	}
	return b, autodiff, nil
}

// tryIntoPrimitive is Tensor::try_into_primitive::<B>() (extension.rs:81-96,
// burn-dispatch tensor.rs:495-608): the handle's backend variant, then its
// kind, must be B's; otherwise an Err(PrimitiveConversionError) with
// Burn's text, which `.unwrap()` prints.
func (w *World) tryIntoPrimitive(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("extension") {
		return nil, errGatedMethod(tensorStruct, "try_into_primitive", "extension"), nil
	}
	if ue := (argList{c: c, method: true}).want(0); ue != nil {
		return nil, ue, nil
	}
	if len(c.Generics) == 0 || len(c.Generics[0]) != 1 {
		return nil, &UsageError{Code: "wrong-arguments", Arg: -1, Message: "type annotations needed",
			Help: []string{"name the backend: `try_into_primitive::<Flex>()`"}}, nil
	}
	b, autodiff, ue := w.primitiveBackend(c.Generics[0][0])
	if ue != nil {
		return nil, ue, nil
	}
	// Each error names its row, so unwrapping it panics with that row.
	fail := func(row, variant, format string, args ...any) Value {
		err := &Enum{Type: "PrimitiveConversionError", Variant: variant, Fields: []Value{Str(fmt.Sprintf(format, args...))}, ErrorRow: row}
		return &Enum{Type: "Result", Variant: "Err", Fields: []Value{err}}
	}
	switch {
	case autodiff && !t.tracked:
		return fail("disp-conv-ad-expected", "BackendMismatch", "Expected Autodiff tensor, got backend: %s", t.on.backend), nil, nil
	case autodiff && t.on.backend != b:
		return fail("disp-conv-ad-backend", "BackendMismatch", "Expected Autodiff %s tensor, got Autodiff variant: %s", b, t.on.backend), nil, nil
	case !autodiff && t.tracked:
		return fail("disp-conv-expected-backend", "BackendMismatch", "Expected %s tensor, got variant: Autodiff", b), nil, nil
	case !autodiff && t.on.backend != b:
		return fail("disp-conv-expected-backend", "BackendMismatch", "Expected %s tensor, got variant: %s", b, t.on.backend), nil, nil
	case t.kind == KindQFloat:
		// BackendPrimitive is implemented for Float, not for QFloat.
		return fail("bt-ext-kind-mismatch-float", "KindMismatch", "Expected Float primitive, got variant: Quantized"), nil, nil
	}
	out := *t
	return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{&Primitive{t: &out, backend: b, autodiff: autodiff}}}, nil, nil
}

// fromPrimitive is Tensor::<D, K>::from_primitive::<B>(p) (extension.rs:103-111):
// the primitive goes back through from_dispatch.
func (w *World) fromPrimitive(c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("extension") {
		return nil, errGatedFunction(tensorStruct, "from_primitive", "extension"), nil
	}
	if ue := (argList{c: c}).want(1); ue != nil {
		return nil, ue, nil
	}
	p, ok := c.Args[0].(*Primitive)
	if !ok {
		return nil, errMismatch(1, "<B as Backend>::FloatTensorPrimitive", c.Args[0]), nil
	}
	// Tensor::<D, K>::from_primitive::<B>: B is the last segment's generic.
	strategy := Disabled
	if len(c.Generics) >= 2 {
		if g := c.Generics[len(c.Generics)-1]; len(g) == 1 {
			b, autodiff, ue := w.primitiveBackend(g[0])
			if ue != nil {
				return nil, ue, nil
			}
			if b != p.backend || autodiff != p.autodiff {
				want := (&Primitive{t: p.t, backend: b, autodiff: autodiff}).TypeName()
				return nil, errMismatch(1, want, p), nil
			}
			if strings.Contains(g[0], "BalancedCheckpointing") {
				strategy = Balanced
			}
		}
	}
	// from_backend: a concrete backend's tensor has no autodiff context;
	// Autodiff<B, C>'s takes C's strategy (burn-dispatch tensor.rs:530-535, 564-591).
	t := *p.t
	t.ckp = nil
	if p.autodiff {
		t.ckp = strategyPtr(strategy)
	}
	d := &DispatchTensor{t: &t}
	return w.fromDispatch(Call{Path: c.Path, Generics: c.Generics[:min(len(c.Generics), 1)], Expect: c.Expect, Args: []Value{d}})
}

// dispatchTensorMethod is a method on a DispatchTensor: Clone is derived;
// TensorMetadata's accessors exist but return dispatch-level types the
// playground does not model.
func (w *World) dispatchTensorMethod(d *DispatchTensor, c Call) (Value, *UsageError, *Panic) {
	switch c.Method {
	case "clone":
		if ue := (argList{c: c, method: true}).want(0); ue != nil {
			return nil, ue, nil
		}
		out := *d.t
		return &DispatchTensor{t: &out}, nil, nil
	case "dtype", "shape", "device", "rank":
		return nil, errUnsupported("DispatchTensor::" + c.Method), nil
	}
	return nil, errUnknownMethod("struct `DispatchTensor`", c.Method), nil
}

// context is DispatchAutodiffContext: a tensor is Enabled when it belongs
// to an autodiff graph. The model's tensors carry the snapshot's
// `checkpointing: Option<Strategy>`, which maps onto it one to one: Some(s)
// is Enabled(s).
type context struct {
	enabled  bool
	strategy Strategy
}

func contextOf(t *Tensor) context {
	switch {
	case t.ckp != nil:
		return context{enabled: true, strategy: *t.ckp}
	case t.tracked:
		return context{enabled: true}
	}
	return context{}
}

// route is where the generated match sends a call (routing.rs:1011-1101).
type route int

const (
	routeConcreteDisabled route = iota
	routeConcreteEnabled        // concrete backend; float outputs lifted into the routing tensor's graph
	routeAutodiff               // Autodiff<B, C>
)

// extensionCall holds one call while it is routed.
type extensionCall struct {
	w    *World
	op   *ExtensionOp
	args []Value

	routing  *Tensor
	byName   string // the parameter the routing tensor came from
	isFloat  bool
	selector ExtSelector
	route    route
	ctx      context
	tracked  []*adNode // tracked inputs: the parents of a tracked output
}

// CallExtension calls op through Dispatch with the given arguments. It
// returns a *UsageError where rustc rejects the arguments and a *Panic
// where the generated code panics; Panic.Input is the argument (1-based)
// the message names.
func (w *World) CallExtension(op *ExtensionOp, args []Value) (Value, error) {
	return result(w.callExtension(op, args))
}

func (w *World) callExtension(op *ExtensionOp, args []Value) (Value, *UsageError, *Panic) {
	if len(args) != len(op.Params) {
		return nil, errArgCount(false, len(op.Params), len(args)), nil
	}
	for i, p := range op.Params {
		ue, unknown := checkExtensionArg(p, i, args[i])
		if ue != nil {
			return nil, ue, nil
		}
		if unknown {
			return Unknown{}, nil, nil
		}
	}
	if !op.hasTensorInput() {
		return w.callWithoutTensorInput(op)
	}
	x := &extensionCall{w: w, op: op, args: args}
	if p := x.choose(); p != nil {
		return nil, nil, p
	}
	for i, p := range op.Params {
		var bad *Panic
		switch {
		case p.Kind.isTensor():
			bad = x.extractTensor(p, Deref(args[i]).(*DispatchTensor).t)
		case p.Kind == ParamExtension:
			bad = x.extractExtension(p.Type, Deref(args[i]).(*Enum))
		}
		if bad != nil {
			return nil, nil, x.fail(bad.on(i + 1))
		}
	}
	if v, ok := x.runImpl(); ok {
		return v, nil, nil
	}
	return x.output(), nil, nil
}

// checkExtensionArg is rustc's type check of one argument: bare tensor
// parameters take a DispatchTensor (by value, or borrowed for `&`), and
// an `#[extension_type]` one a value of its type whose tensor fields are
// DispatchTensors. unknown is set when the value could not be computed.
func checkExtensionArg(p ExtParam, i int, arg Value) (ue *UsageError, unknown bool) {
	if _, ok := Deref(arg).(Unknown); ok {
		return nil, true
	}
	switch {
	case p.Kind.isTensor():
		ref, borrowed := arg.(*Ref)
		inner := arg
		if borrowed {
			inner = ref.V
		}
		if _, ok := inner.(*DispatchTensor); !ok {
			want := "DispatchTensor"
			if p.Borrowed {
				want = "&DispatchTensor"
			}
			ue := errMismatch(i+1, want, arg)
			if _, isTensor := Deref(arg).(*Tensor); isTensor {
				ue.Help = []string{"extension ops take dispatch tensors: convert with `.into_dispatch()` and back with `Tensor::from_dispatch(..)`"}
			}
			return ue, false
		}
		if borrowed != p.Borrowed {
			want := "DispatchTensor"
			if p.Borrowed {
				want = "&DispatchTensor"
			}
			return errMismatch(i+1, want, arg), false
		}
	case p.Kind == ParamExtension:
		e, ok := arg.(*Enum)
		if !ok || e.Type != p.Type.Name {
			return errArgType(i+1, p.Type.Name+"<Dispatch>", arg), false
		}
		return checkExtensionValue(p.Type, e, i)
	}
	return nil, false
}

// errMismatch is rustc's E0308 for argument i, naming the borrow of the
// value found, which decides between `DispatchTensor` and `&DispatchTensor`.
func errMismatch(arg int, want string, got Value) *UsageError {
	return &UsageError{Code: "wrong-arguments", Arg: arg,
		Message: fmt.Sprintf("mismatched types: expected `%s`, found `%s`", want, got.TypeName())}
}

// checkExtensionValue checks the fields of an ExtensionType value.
func checkExtensionValue(typ *ExtType, e *Enum, i int) (ue *UsageError, unknown bool) {
	variant, ok := typ.variant(e.Variant)
	if !ok {
		return &UsageError{Code: "unknown-function", Arg: i + 1,
			Message: fmt.Sprintf("no variant named `%s` found for enum `%s`", e.Variant, typ.Name)}, false
	}
	for j, f := range variant.Fields {
		v, present := fieldValue(variant, e, j)
		if !present {
			return &UsageError{Code: "wrong-arguments", Arg: i + 1,
				Message: fmt.Sprintf("missing field `%s` in initializer of `%s`", f.Name, typ.qualified(variant))}, false
		}
		if _, isUnknown := Deref(v).(Unknown); isUnknown && f.Kind != ParamOther {
			return nil, true
		}
		switch {
		case f.Kind.isTensor():
			if _, ok := v.(*DispatchTensor); !ok {
				return &UsageError{Code: "type-mismatch", Arg: i + 1,
					Message: fmt.Sprintf("mismatched types: expected `DispatchTensor`, found `%s`", v.TypeName()),
					Help:    []string{fmt.Sprintf("field `%s` of `%s` holds a dispatch tensor: convert with `.into_dispatch()`", f.Name, typ.qualified(variant))}}, false
			}
		case f.Kind == ParamExtension:
			nested, ok := v.(*Enum)
			if !ok || nested.Type != f.Type.Name {
				return &UsageError{Code: "type-mismatch", Arg: i + 1,
					Message: fmt.Sprintf("mismatched types: expected `%s<Dispatch>`, found `%s`", f.Type.Name, v.TypeName())}, false
			}
			if ue, unknown := checkExtensionValue(f.Type, nested, i); ue != nil || unknown {
				return ue, unknown
			}
		}
	}
	return nil, false
}

func (t *ExtType) variant(name string) (ExtVariant, bool) {
	for _, v := range t.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return ExtVariant{}, false
}

func (t *ExtType) qualified(v ExtVariant) string {
	if t.Enum {
		return t.Name + "::" + v.Name
	}
	return t.Name
}

// fieldValue is field j of an ExtensionType value: a named field, or a
// tuple field by position.
func fieldValue(v ExtVariant, e *Enum, j int) (Value, bool) {
	if v.Named {
		f, ok := e.Named[v.Fields[j].Name]
		return f, ok
	}
	if j < len(e.Fields) {
		return e.Fields[j], true
	}
	return nil, false
}

// choose picks the routing tensor, its tag and the route (extensions.md
// §2.2-§2.4).
func (x *extensionCall) choose() *Panic {
	op := x.op
	x.routing, x.byName = x.firstActive(true)
	x.isFloat = x.routing != nil
	if x.routing == nil {
		x.routing, x.byName = x.firstActive(false)
	}
	if x.routing == nil {
		return panicNoTensorInput(op.Location)
	}
	// The tag: the listed position of the routing tensor's backend. A
	// tracked routing tensor has an arm only when Autodiff is listed, and
	// takes its inner backend's tag.
	tag := -1
	if !x.routing.tracked || (op.Autodiff && !op.AutodiffOff) {
		for i, s := range op.Selectors {
			if s.Backend == x.routing.on.backend && !s.Off {
				tag = i
				break
			}
		}
	}
	if tag < 0 {
		return x.fail(panicBackendNotSupported(op.Name, op.Location).label("%s", x.unrouted()))
	}
	x.selector = op.Selectors[tag]
	x.ctx = contextOf(x.routing)
	switch {
	case !x.ctx.enabled:
		x.route = routeConcreteDisabled
	case !op.Autodiff || op.AutodiffOff:
		return x.fail(panicAutodiffNotSupported(op.Name, op.Location).
			label("routing took the backend from `%s`, which belongs to an autodiff context (it was made on %s); only an `Autodiff` selector routes those", x.byName, x.routing.Device().Debug()))
	case x.isFloat:
		x.route = routeAutodiff
	default:
		x.route = routeConcreteEnabled
	}
	return nil
}

// firstActive walks the candidates in declaration order: an extension
// value offers the tensor its routing_float_tensor (float) or
// routing_tensor (any) returns, possibly none, and the walk goes on; the
// first bare tensor parameter of an eligible kind ends it
// (routing.rs:265-395).
func (x *extensionCall) firstActive(floatOnly bool) (*Tensor, string) {
	for i, p := range x.op.Params {
		switch {
		case p.Kind == ParamExtension:
			if t := routingTensorOf(p.Type, Deref(x.args[i]).(*Enum), floatOnly); t != nil {
				return t, p.Name
			}
		case p.Kind == ParamFloat || (!floatOnly && p.Kind.isTensor()):
			return Deref(x.args[i]).(*DispatchTensor).t, p.Name
		}
	}
	return nil, ""
}

// routingTensorOf is the derived ExtensionType's routing_float_tensor
// (floatOnly) or routing_tensor: the first direct Float field, then (for
// routing_tensor) the first direct tensor field of any kind, then the
// first nested value that has one (derive.rs@23486cc:129-182). A variant
// without tensors has none.
func routingTensorOf(typ *ExtType, e *Enum, floatOnly bool) *Tensor {
	variant, _ := typ.variant(e.Variant)
	direct := func(want func(ParamKind) bool) *Tensor {
		for j, f := range variant.Fields {
			if want(f.Kind) {
				v, _ := fieldValue(variant, e, j)
				return v.(*DispatchTensor).t
			}
		}
		return nil
	}
	if t := direct(func(k ParamKind) bool { return k == ParamFloat }); t != nil {
		return t
	}
	if !floatOnly {
		if t := direct(ParamKind.isTensor); t != nil {
			return t
		}
	}
	for j, f := range variant.Fields {
		if f.Kind == ParamExtension {
			v, _ := fieldValue(variant, e, j)
			if t := routingTensorOf(f.Type, v.(*Enum), floatOnly); t != nil {
				return t
			}
		}
	}
	return nil
}

// autodiffListed is the generated code's has_autodiff_variant: the
// Autodiff selector is present and its cfg holds.
func (x *extensionCall) autodiffListed() bool { return x.op.Autodiff && !x.op.AutodiffOff }

// extractTensor is the `let NAME = match NAME.kind { .. }` of one bare
// tensor parameter (extract_tensor, routing.rs:577-672), then the
// BackendTensor accessor the match arm calls.
func (x *extensionCall) extractTensor(p ExtParam, t *Tensor) *Panic {
	b := x.selector.Backend
	onB := t.on.backend == b
	if t.tracked {
		switch {
		case p.Kind == ParamFloat && x.route == routeAutodiff && onB:
			// bt.autodiff(): a tracked float's handle is always Autodiff.
			x.tracked = append(x.tracked, t.node)
			return nil
		case p.Kind == ParamFloat && x.route == routeAutodiff:
			return panicInputWrongBackend(p.Name, x.op.Location).label("%s", x.misplaced(p.Name, t))
		case p.Kind == ParamFloat && x.autodiffListed():
			return panicAutodiffReachedConcrete(x.op.Location).label("%s", x.misplaced(p.Name, t))
		case p.Kind != ParamFloat && x.autodiffListed():
			return panicOnlyFloatAutodiff(x.op.Location).label("%s", x.misplaced(p.Name, t))
		}
		return panicInputWrongBackend(p.Name, x.op.Location).label("%s", x.misplaced(p.Name, t))
	}
	if !onB {
		return panicInputWrongBackend(p.Name, x.op.Location).label("%s", x.misplaced(p.Name, t))
	}
	// A plain float on the autodiff route is lifted with from_inner after
	// the same float() / as_float() call, so it joins as a constant.
	return accessorPanic(p.Kind, t.kind, p.Borrowed)
}

// unrouted explains a routing tensor no arm takes.
func (x *extensionCall) unrouted() string {
	t, op := x.routing, x.op
	if t.tracked && !(op.Autodiff && !op.AutodiffOff) {
		return fmt.Sprintf("routing took the backend from `%s`, a tracked float: an Autodiff(%s) tensor, which only an `Autodiff` selector routes", x.byName, t.on.backend)
	}
	for _, s := range op.Selectors {
		if s.Backend == t.on.backend {
			return fmt.Sprintf("routing took the backend from `%s`, a %s tensor; the selector `%s` is compiled out by its cfg", x.byName, t.on.backend, s.Name)
		}
	}
	names := make([]string, len(op.Selectors))
	for i, s := range op.Selectors {
		names[i] = s.Name
	}
	return fmt.Sprintf("routing took the backend from `%s`, a %s tensor; the op is generated for %s only", x.byName, t.on.backend, strings.Join(names, ", "))
}

// misplaced explains an input the route rejects.
func (x *extensionCall) misplaced(name string, t *Tensor) string {
	where := "a " + t.on.backend.String() + " tensor"
	if t.tracked {
		where = "a tracked (autodiff) " + t.on.backend.String() + " tensor"
	}
	picked := "the first float input"
	if !x.isFloat {
		picked = "the first tensor input"
	}
	return fmt.Sprintf("routing took the backend from `%s`, %s, and runs the op on %s; `%s` is %s on %s",
		x.byName, picked, x.routeText(), name, where, t.Device().Debug())
}

// routeText names the backend type the generated code calls the impl on.
func (x *extensionCall) routeText() string {
	b := x.selector.Name
	switch x.route {
	case routeAutodiff:
		return fmt.Sprintf("`Autodiff<%s, %s>`", b, checkpointType(x.ctx.strategy))
	case routeConcreteEnabled:
		return fmt.Sprintf("`%s`, its outputs in the routing tensor's autodiff context", b)
	}
	return "`" + b + "`"
}

func checkpointType(s Strategy) string {
	if s == Balanced {
		return "BalancedCheckpointing"
	}
	return "NoCheckpointing"
}

// extractExtension is Ty::map_from_dispatch with the route's closure
// (extract_extension, routing.rs:674-727), then the derived impl's
// accessor for each tensor field (derive.rs:216-233). The concrete
// closure takes only the selected backend's plain handles; the autodiff
// closure also takes that backend's tracked floats, turns a tracked handle
// into Float and lifts a plain float.
func (x *extensionCall) extractExtension(typ *ExtType, e *Enum) *Panic {
	variant, _ := typ.variant(e.Variant)
	b := x.selector.Backend
	for j, f := range variant.Fields {
		v, _ := fieldValue(variant, e, j)
		switch {
		case f.Kind.isTensor():
			t := v.(*DispatchTensor).t
			if t.on.backend != b || (t.tracked && x.route != routeAutodiff) {
				return panicExtensionInputWrongBackend(x.op.Location).
					label("field `%s` of `%s` is %s; the op runs on %s", f.Name, typ.qualified(variant), t.Device().Debug(), x.routeText())
			}
			handle := t.kind
			if t.tracked {
				// BackendTensor::Autodiff(t) becomes Float(t).
				handle = KindFloat
				x.tracked = append(x.tracked, t.node)
			}
			if p := accessorPanic(f.Kind, handle, false); p != nil {
				return p
			}
		case f.Kind == ParamExtension:
			if p := x.extractExtension(f.Type, v.(*Enum)); p != nil {
				return p
			}
		}
	}
	return nil
}

// output builds the op's return value from its signature and records the
// call. The user's impl body is not run: a tensor output takes the shape
// and dtype of the first input of its kind (else the routing tensor's
// shape and the device's default dtype) and sits on the routing tensor's
// device, wrapped the way wrap_output does for the route (routing.rs:729-797).
func (x *extensionCall) output() Value {
	out := x.build(x.op.Output)
	ev := TraceEvent{Op: x.op.Name, Backend: x.selector.Backend.String(), Device: x.routing.on.Debug(),
		Autodiff: x.route == routeAutodiff, Kind: x.routing.kind.String(), Shape: x.routing.Shape(),
		Note: fmt.Sprintf("`%s::%s` from #[backend_extension], run by %s", x.op.Trait, x.op.Name, x.routeText())}
	if t := firstTensor(out); t != nil {
		ev.Kind, ev.Shape = t.kind.String(), t.Shape()
	}
	x.w.record(ev)
	return out
}

// fail records the call that panicked.
func (x *extensionCall) fail(p *Panic) *Panic {
	x.w.record(TraceEvent{Op: x.op.Name, Backend: x.routing.on.backend.String(), Device: x.routing.on.Debug(),
		Autodiff: x.routing.tracked, Kind: x.routing.kind.String(), Shape: x.routing.Shape(), Note: "panic"})
	return p
}

func firstTensor(v Value) *Tensor {
	switch v := v.(type) {
	case *DispatchTensor:
		return v.t
	case Tuple:
		for _, e := range v {
			if t := firstTensor(e); t != nil {
				return t
			}
		}
	case *Enum:
		for _, e := range v.Fields {
			if t := firstTensor(e); t != nil {
				return t
			}
		}
	}
	return nil
}

func (x *extensionCall) build(o ExtOutput) Value {
	switch o.Shape {
	case OutTensor:
		return &DispatchTensor{t: x.tensorOutput(o.Kind)}
	case OutOption:
		return some(x.build(o.Elems[0]))
	case OutTuple:
		elems := make(Tuple, len(o.Elems))
		for i, e := range o.Elems {
			elems[i] = x.build(e)
		}
		return elems
	case OutExtension:
		// A struct's fields are known; which variant of an enum the impl
		// returns is not.
		if o.Type == nil || o.Type.Enum {
			return Unknown{}
		}
		return x.extensionOutput(o.Type)
	}
	// Vec lengths and plain values depend on the impl body.
	return Unknown{}
}

func (x *extensionCall) extensionOutput(typ *ExtType) Value {
	v := typ.Variants[0]
	e := &Enum{Type: typ.Name, Variant: typ.Name}
	if v.Named {
		e.Named = map[string]Value{}
	}
	for _, f := range v.Fields {
		var fv Value = Unknown{}
		switch {
		case f.Kind.isTensor():
			fv = &DispatchTensor{t: x.tensorOutput(f.Kind)}
		case f.Kind == ParamExtension && !f.Type.Enum:
			fv = x.extensionOutput(f.Type)
		}
		if v.Named {
			e.Named[f.Name] = fv
		} else {
			e.Fields = append(e.Fields, fv)
		}
	}
	return e
}

// tensorOutput is one output tensor of the route.
func (x *extensionCall) tensorOutput(k ParamKind) *Tensor {
	kind := k.tensorKind()
	shape, dtype := x.routing.shape, x.w.defaultsFor(x.routing.on).dtypeOf(kind)
	if like := x.firstInputOfKind(kind); like != nil {
		shape, dtype = like.shape, like.dtype
	}
	t := x.w.newTensor(kind, shape, dtype, x.routing.on)
	if x.route == routeConcreteDisabled {
		return t
	}
	t.ckp = strategyPtr(x.ctx.strategy)
	if kind != KindFloat {
		return t
	}
	t.tracked = true
	if x.route == routeAutodiff {
		t.node = x.w.newOpNode(x.tracked...)
	} else {
		// <Autodiff<B, C> as AutodiffBackend>::from_inner: a fresh leaf.
		t.node = x.w.newLeaf()
	}
	return t
}

func (d dtypeDefaults) dtypeOf(k Kind) DType {
	switch k {
	case KindInt:
		return d.int
	case KindBool:
		return d.bool
	}
	return d.float
}

// firstInputOfKind is the first bare tensor argument holding a tensor of
// the kind, then the first such tensor field of an extension argument.
func (x *extensionCall) firstInputOfKind(kind Kind) *Tensor {
	var fromFields *Tensor
	for i, p := range x.op.Params {
		switch {
		case p.Kind.isTensor():
			if t := Deref(x.args[i]).(*DispatchTensor).t; t.kind == kind {
				return t
			}
		case p.Kind == ParamExtension && fromFields == nil:
			fromFields = fieldOfKind(p.Type, Deref(x.args[i]).(*Enum), kind)
		}
	}
	return fromFields
}

func fieldOfKind(typ *ExtType, e *Enum, kind Kind) *Tensor {
	variant, _ := typ.variant(e.Variant)
	for j, f := range variant.Fields {
		v, _ := fieldValue(variant, e, j)
		switch {
		case f.Kind.isTensor():
			if t := v.(*DispatchTensor).t; t.kind == kind {
				return t
			}
		case f.Kind == ParamExtension:
			if t := fieldOfKind(f.Type, v.(*Enum), kind); t != nil {
				return t
			}
		}
	}
	return nil
}

// callWithoutTensorInput is an op with no tensor-bearing input: it calls
// the one listed backend directly (extension.rs@547e348:310-331); the
// macro rejects every other listing at compile time. The outputs are
// created by the impl on a device of its choosing, which the playground
// does not know, so they are not modelled.
func (w *World) callWithoutTensorInput(op *ExtensionOp) (Value, *UsageError, *Panic) {
	if op.Autodiff {
		return nil, &UsageError{Code: CodeNoInputAutodiff, Arg: -1, Message: MsgNoInputAutodiff}, nil
	}
	if len(op.Selectors) != 1 {
		return nil, &UsageError{Code: CodeNoInputSelectors, Arg: -1, Message: MsgNoInputSelectors}, nil
	}
	s := op.Selectors[0]
	if s.Off {
		return nil, nil, panicNoInputCfgOff(op.Name, op.Location).
			label("`%s` has no tensor input, so it calls its one selector `%s` directly, and that selector's cfg does not hold", op.Name, s.Name)
	}
	w.record(TraceEvent{Op: op.Name, Backend: s.Backend.String(),
		Note: fmt.Sprintf("`%s::%s` from #[backend_extension], called on `%s` directly: it has no tensor input to route by; its outputs are not modelled", op.Trait, op.Name, s.Name)})
	return Unknown{}, nil, nil
}

// The compile_error!s of an op without tensor input
// (extension.rs@547e348:307, 334; lib.rs@2c06be35:507, 528), with their
// catalog codes: the second message's slug collides with the first's.
const (
	MsgNoInputAutodiff   = "A backend extension operation with no tensor inputs can't be combined with `Autodiff` — there is no input tensor to carry the autodiff graph."
	CodeNoInputAutodiff  = "a-backend-extension-operation-with-no-tensor-input"
	MsgNoInputSelectors  = "A backend extension operation with no tensor inputs must list exactly one backend (e.g. `#[backend_extension(Remote)]`), since there is no input tensor to select the backend from."
	CodeNoInputSelectors = "a-backend-extension-operation-with-no-tensor-input-2"
)

// ---- the panics of the generated code and of the accessors it calls

const (
	locExtensionAPI = "crates/burn-tensor/src/tensor/api/extension.rs"

	// ExtensionInputWrongBackend is the panic-table id of the message
	// "input tensor `NAME` is on the wrong backend".
	ExtensionInputWrongBackend = "ext-post-input-181"
)

// panicInputWrongBackend is R1 (routing.rs@409ec94:611-668).
func panicInputWrongBackend(name, location string) *Panic {
	return newPanic(ExtensionInputWrongBackend, location, fmt.Sprintf("input tensor `%s` is on the wrong backend", name))
}

// panicAutodiffReachedConcrete is R2 (routing.rs:594).
func panicAutodiffReachedConcrete(location string) *Panic {
	return newPanic("ext-post-autodiff-182", location, "autodiff float input reached concrete dispatch")
}

// panicOnlyFloatAutodiff is R3 (routing.rs:599).
func panicOnlyFloatAutodiff(location string) *Panic {
	return newPanic("ext-post-only-183", location, "only float tensors may use an autodiff primitive")
}

// panicExtensionInputWrongBackend is R4 (routing.rs:688).
func panicExtensionInputWrongBackend(location string) *Panic {
	return newPanic("ext-post-backend-189", location, "backend extension input is on the wrong backend")
}

// panicBackendNotSupported is R5 (extension.rs@547e348:495).
func panicBackendNotSupported(op, location string) *Panic {
	return newPanic("ext-backend-not-supported", location,
		unimplementedMsg(fmt.Sprintf("Backend not supported for custom op `%s`", op)))
}

// panicNoInputCfgOff is R5b (extension.rs:329): the one selector of an op
// without tensor input is compiled out.
func panicNoInputCfgOff(op, location string) *Panic {
	return newPanic("ext-no-input-cfg-off", location,
		unimplementedMsg(fmt.Sprintf("Backend not supported for custom op `%s`", op)))
}

// panicAutodiffNotSupported is R6 (routing.rs:1042, 1066, 1086).
func panicAutodiffNotSupported(op, location string) *Panic {
	return newPanic("ext-post-autodiff-190", location,
		unimplementedMsg(fmt.Sprintf("Autodiff not supported for custom op `%s`", op)))
}

// panicNoTensorInput is R7, an Option::expect (extension.rs:444).
func panicNoTensorInput(location string) *Panic {
	return newPanic("ext-no-tensor-input", location,
		"backend extension op received no tensor input to select a backend from (e.g. an enum input on a tensor-less variant with no other tensor input)")
}

// panicFromDispatchKind is Tensor::from_dispatch's dtype check
// (extension.rs:62).
func panicFromDispatchKind(want Kind, got DType) *Panic {
	return newPanic("bt-ext-from-dispatch-kind", fmt.Sprintf("%s:%d", locExtensionAPI, 62),
		fmt.Sprintf("Expected kind %s, got dtype %s", want, got)).on(1)
}

// accessorLines are the lines of BackendTensor's accessors at 2c06be35
// (and at 23486cc), crates/burn-dispatch/src/tensor.rs:36-90, by accessor,
// borrowed form and the handle found.
var accessorLines = map[string]map[Kind]int{
	"float":    {KindInt: 41, KindBool: 42, KindQFloat: 43},
	"as_float": {KindInt: 52, KindBool: 53, KindQFloat: 54},
	"int":      {KindFloat: 64, KindBool: 65, KindQFloat: 66},
	"bool":     {KindFloat: 76, KindInt: 77, KindQFloat: 78},
}

// accessorPanic is the BackendTensor accessor for the declared kind on a
// handle of another kind: `Should be float, got int` and its siblings, or
// quantized()'s bare unreachable!(). The borrowed int, bool and quantized
// accessors (as_int, ...) are not in the readable sources; they are
// modelled as the owned ones.
func accessorPanic(declared ParamKind, handle Kind, borrowed bool) *Panic {
	if declared.tensorKind() == handle {
		return nil
	}
	if declared == ParamQuantized {
		return newPanic("disp-bt-quantized", fmt.Sprintf("%s:%d", locDispatchTensor, 88), unreachableMsg(""))
	}
	name := declared.accessor()
	if borrowed && declared == ParamFloat {
		name = "as_float"
	}
	line := accessorLines[name][handle]
	got := strings.ToLower(handle.handleName())
	return newPanic(fmt.Sprintf("disp-bt-%s-got-%s-%d", declared.accessor(), got, line), fmt.Sprintf("%s:%d", locDispatchTensor, line),
		fmt.Sprintf("Should be %s, got %s", declared.accessor(), got))
}

// ---- fixes

// DeviceConstructor is the Device:: call that makes a device equal to d,
// for fixes that move a tensor there; ok is false where the constructor
// needs arguments the model cannot write back (wgpu kinds, remotes).
func DeviceConstructor(d *Device) (text string, ok bool) {
	switch d.backend {
	case Cpu, Flex, NdArray:
		return "Device::" + lowerASCII(d.backend.String()) + "()", true
	case Cuda, Rocm:
		return fmt.Sprintf("Device::%s(%d)", lowerASCII(d.backend.String()), d.index), true
	case LibTorch:
		if d.torch == "Cpu" {
			return "Device::libtorch()", true
		}
		if d.torch == "Cuda" {
			return fmt.Sprintf("Device::libtorch_cuda(%d)", d.index), true
		}
	}
	return "", false
}

// ExtensionRoute tells, for an op whose call failed with
// ExtensionInputWrongBackend, where the call was routed: the plain
// device of the routing tensor and whether the route is Autodiff<B, C>.
// ok is false when the arguments do not route.
func (w *World) ExtensionRoute(op *ExtensionOp, args []Value) (on *Device, autodiff bool, ok bool) {
	if len(args) != len(op.Params) || !op.hasTensorInput() {
		return nil, false, false
	}
	for i, p := range op.Params {
		if ue, unknown := checkExtensionArg(p, i, args[i]); ue != nil || unknown {
			return nil, false, false
		}
	}
	x := &extensionCall{w: &World{}, op: op, args: args}
	if x.choose() != nil {
		return nil, false, false
	}
	return x.routing.on, x.route == routeAutodiff, true
}

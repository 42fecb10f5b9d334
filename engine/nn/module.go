package nn

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Param is burn-core's Param<Tensor<D>> (module/param/base.rs): an id, a
// require_grad flag and a tensor, initialized lazily.
type Param struct {
	ID          dispatch.Value // *dispatch.ParamID
	RequireGrad bool
	shape       []int64
	// t is the tensor once initialized; until then init creates it on
	// device.
	t      *dispatch.Tensor
	device *dispatch.Device
	init   func(w *dispatch.World, d *dispatch.Device) (*dispatch.Tensor, error)
}

func (p *Param) TypeName() string { return fmt.Sprintf("Param<Tensor<%d>>", len(p.shape)) }

// Shape is the Param's shape, known before it is initialized.
func (p *Param) Shape() []int64 { return p.shape }

// Initialized reports whether the Param's tensor exists
// (Param::is_initialized).
func (p *Param) Initialized() bool { return p.t != nil }

// Val is Param::val: the tensor, created on first use as
// Param::uninitialized's closure creates it, require_grad included.
func (p *Param) Val(w *dispatch.World) (*dispatch.Tensor, error) {
	if p.t != nil {
		return p.t, nil
	}
	t, err := p.init(w, p.device)
	if err != nil {
		return nil, err
	}
	if p.RequireGrad {
		v, err := w.Call(dispatch.Call{Recv: t, Method: "require_grad"})
		if err != nil {
			return nil, err
		}
		t = v.(*dispatch.Tensor)
	}
	p.t = t
	return t, nil
}

// FromTensor is Param::initialized(id, t): require_grad is the tensor's
// (param/base.rs:271).
func FromTensor(w *dispatch.World, t *dispatch.Tensor, id dispatch.Value) *Param {
	return &Param{ID: id, RequireGrad: isRequireGrad(w, t), shape: t.Shape(), t: t, device: t.Device()}
}

func isRequireGrad(w *dispatch.World, t *dispatch.Tensor) bool {
	v, err := w.Call(dispatch.Call{Recv: t, Method: "is_require_grad"})
	b, ok := v.(dispatch.Bool)
	return err == nil && ok && bool(b)
}

// mapped is Param::from_mapped_value(id, f(tensor)): the same id, the
// require_grad of the new tensor.
func (p *Param) mapped(w *dispatch.World, f func(*dispatch.Tensor) (dispatch.Value, error)) (*Param, error) {
	t, err := p.Val(w)
	if err != nil {
		return nil, err
	}
	v, err := f(t)
	if err != nil {
		return nil, err
	}
	nt, ok := v.(*dispatch.Tensor)
	if !ok {
		return nil, fmt.Errorf("param mapping gave %s", v.TypeName())
	}
	return &Param{ID: p.ID, RequireGrad: isRequireGrad(w, nt), shape: nt.Shape(), t: nt, device: nt.Device()}, nil
}

// Module is a value of one of burn-nn's modules: its fields in
// declaration order (Params, Option<Param>, Vec, nested modules and plain
// values).
type Module struct {
	Type   string
	Fields []string
	Values map[string]dispatch.Value
	// content is the module's custom ModuleDisplay content and settings;
	// nil for the derived one.
	content func(w *dispatch.World, m *Module) ([]attr, error)
	// forward is the module's forward; arity is its number of arguments
	// (0: one).
	forward func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error)
	arity   int
	// methods are its methods besides forward (a loss's
	// forward_no_reduction).
	methods map[string]extraMethod
}

func (m *Module) TypeName() string { return m.Type }

func (m *Module) copyWith(values map[string]dispatch.Value) *Module {
	out := *m
	out.Values = values
	return &out
}

func (m *Module) param(name string) *Param {
	switch v := dispatch.Deref(m.Values[name]).(type) {
	case *Param:
		return v
	case *dispatch.Enum:
		if v.Type == "Option" && v.Variant == "Some" && len(v.Fields) == 1 {
			p, _ := dispatch.Deref(v.Fields[0]).(*Param)
			return p
		}
	}
	return nil
}

// HasOwnMethod reports whether v is one of Burn's modules with an inherent
// method of that name besides forward (RotaryEncoding's apply), which
// rustc picks before a trait's method of the same name.
func HasOwnMethod(v dispatch.Value, name string) bool {
	m, ok := dispatch.Deref(v).(*Module)
	if !ok {
		return false
	}
	_, own := m.methods[name]
	return own
}

// Host is what the module walk needs of the interpreter: the fields of
// the program's own types that derive Module, and how it prints a value
// with Debug; and the program as Burn's code calls it back.
type Host interface {
	Structs
	Program
	// ModuleFields are the fields of a value of the program's types that
	// derives Module, in declaration order, and its constants (fields
	// marked #[module(skip)] or of a primitive type), which the walk
	// skips and Display prints with Debug; ok is false for any other
	// value.
	ModuleFields(en *dispatch.Enum) (fields []string, skip map[string]bool, ok bool)
	// Debug is `{:?}` of v.
	Debug(v dispatch.Value) string
}

// Program is the program as Burn's code calls it back: a loader its
// Batcher, a learner its TrainStep. An error of these methods is the
// program's panic or the evaluator's stop: return it unchanged.
type Program interface {
	// CallMethod calls recv.name(args) as the program would write it: the
	// program's own method when recv is a value of its types (ok false
	// when it has none), Burn's otherwise.
	CallMethod(recv dispatch.Value, name string, args []dispatch.Value) (v dispatch.Value, ok bool, err error)
	// Call calls a closure or function value the program gave Burn.
	Call(fn dispatch.Value, args []dispatch.Value) (dispatch.Value, error)
	// Step charges one step of the budget.
	Step() error
}

// IsModule reports whether v is a module for the derive's walk.
func IsModule(v dispatch.Value, h Host) bool {
	switch x := dispatch.Deref(v).(type) {
	case *Module:
		return true
	case *dispatch.Enum:
		if h == nil {
			return false
		}
		_, _, ok := h.ModuleFields(x)
		return ok
	}
	return false
}

// walker maps every Param and tensor of a module tree, as a ModuleMapper
// does (module/base.rs).
type walker struct {
	w     *dispatch.World
	h     Host
	param func(*Param) (*Param, error)
	// tensor maps a plain tensor field (Tensor's own Module impl,
	// param/constant.rs:101); nil keeps it.
	tensor func(*dispatch.Tensor) (dispatch.Value, error)
	// visit, when set, only visits (num_params, devices).
	visit func(dispatch.Value) error
	depth int
}

func (wk *walker) walk(v dispatch.Value) (dispatch.Value, error) {
	if wk.depth > 64 {
		return v, nil
	}
	wk.depth++
	defer func() { wk.depth-- }()
	switch x := dispatch.Deref(v).(type) {
	case *Param:
		if wk.visit != nil {
			return x, wk.visit(x)
		}
		return wk.param(x)
	case *dispatch.Tensor:
		if wk.visit != nil {
			return x, wk.visit(x)
		}
		if wk.tensor == nil {
			return x, nil
		}
		return wk.tensor(x)
	case *Module:
		values := make(map[string]dispatch.Value, len(x.Values))
		for _, f := range x.Fields {
			nv, err := wk.walk(x.Values[f])
			if err != nil {
				return nil, err
			}
			values[f] = nv
		}
		return x.copyWith(values), nil
	case *dispatch.Array:
		out := &dispatch.Array{Vec: x.Vec, Elems: make([]dispatch.Value, len(x.Elems))}
		for i, e := range x.Elems {
			nv, err := wk.walk(e)
			if err != nil {
				return nil, err
			}
			out.Elems[i] = nv
		}
		return out, nil
	case *dispatch.Enum:
		if x.Type == "Option" {
			if len(x.Fields) != 1 {
				return x, nil
			}
			nv, err := wk.walk(x.Fields[0])
			if err != nil {
				return nil, err
			}
			return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []dispatch.Value{nv}}, nil
		}
		if x.Type == "Ignored" {
			return x, nil
		}
		if wk.h == nil {
			return x, nil
		}
		fields, skip, ok := wk.h.ModuleFields(x)
		if !ok {
			return x, nil
		}
		out := &dispatch.Enum{Type: x.Type, Variant: x.Variant, Named: make(map[string]dispatch.Value, len(x.Named))}
		for k, fv := range x.Named {
			out.Named[k] = fv
		}
		if len(x.Fields) > 0 {
			out.Fields = append([]dispatch.Value(nil), x.Fields...)
		}
		for _, f := range fields {
			if skip[f] {
				continue
			}
			fv, tuple := x.Named[f], false
			if fv == nil {
				if i := tupleIndex(f); i >= 0 && i < len(x.Fields) {
					fv, tuple = x.Fields[i], true
				} else {
					continue
				}
			}
			nv, err := wk.walk(fv)
			if err != nil {
				return nil, err
			}
			if tuple {
				out.Fields[tupleIndex(f)] = nv
			} else {
				out.Named[f] = nv
			}
		}
		return out, nil
	}
	return v, nil
}

func tupleIndex(f string) int {
	n := 0
	if f == "" {
		return -1
	}
	for _, r := range f {
		if r < '0' || r > '9' {
			return -1
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// Devices is Module::devices: the devices of the module's Params and
// tensors in the order the walk meets them, each once
// (collect_devices, param/tensor.rs:195).
func Devices(w *dispatch.World, v dispatch.Value, h Host) (*dispatch.Array, error) {
	var devices []dispatch.Value
	add := func(d *dispatch.Device) {
		for _, o := range devices {
			if o.(*dispatch.Device).Equal(d) {
				return
			}
		}
		devices = append(devices, d)
	}
	wk := &walker{w: w, h: h, visit: func(x dispatch.Value) error {
		switch x := x.(type) {
		case *Param:
			t, err := x.Val(w)
			if err != nil {
				return err
			}
			add(t.Device())
		case *dispatch.Tensor:
			add(x.Device())
		}
		return nil
	}}
	if _, err := wk.walk(v); err != nil {
		return nil, err
	}
	return &dispatch.Array{Elems: devices, Vec: true}, nil
}

// NumParams is Module::num_params: the elements of every float Param,
// each read with val() as the visitor does (module/base.rs:119).
func NumParams(w *dispatch.World, v dispatch.Value, h Host) (int64, error) {
	var n int64
	wk := &walker{w: w, h: h, visit: func(x dispatch.Value) error {
		if p, ok := x.(*Param); ok {
			if _, err := p.Val(w); err != nil {
				return err
			}
			k := int64(1)
			for _, d := range p.shape {
				k *= d
			}
			n += k
		}
		return nil
	}}
	_, err := wk.walk(v)
	return n, err
}

func deviceRef(d *dispatch.Device) dispatch.Value { return &dispatch.Ref{V: d} }

// ToDevice is Module::to_device: every Param mapped through
// Tensor::to_device (param/tensor.rs:163), plain tensors too.
func ToDevice(w *dispatch.World, v dispatch.Value, d *dispatch.Device, h Host) (dispatch.Value, error) {
	move := func(t *dispatch.Tensor) (dispatch.Value, error) {
		return w.Call(dispatch.Call{Recv: t, Method: "to_device", Args: []dispatch.Value{deviceRef(d)}})
	}
	wk := &walker{w: w, h: h, tensor: move, param: func(p *Param) (*Param, error) { return p.mapped(w, move) }}
	return wk.walk(v)
}

// Fork is Module::fork: to_device, detach, and require_grad again when
// the tensor required it (param/tensor.rs:174).
func Fork(w *dispatch.World, v dispatch.Value, d *dispatch.Device, h Host) (dispatch.Value, error) {
	move := func(t *dispatch.Tensor) (dispatch.Value, error) {
		return w.Call(dispatch.Call{Recv: t, Method: "to_device", Args: []dispatch.Value{deviceRef(d)}})
	}
	fork := func(t *dispatch.Tensor) (dispatch.Value, error) {
		was := isRequireGrad(w, t)
		moved, err := move(t)
		if err != nil {
			return nil, err
		}
		out, err := w.Call(dispatch.Call{Recv: moved, Method: "detach"})
		if err != nil || !was {
			return out, err
		}
		return w.Call(dispatch.Call{Recv: out, Method: "require_grad"})
	}
	wk := &walker{w: w, h: h, tensor: move, param: func(p *Param) (*Param, error) { return p.mapped(w, fork) }}
	return wk.walk(v)
}

// NoGrad is Module::no_grad: every Param's tensor set_require_grad(false)
// (module/base.rs:89).
func NoGrad(w *dispatch.World, v dispatch.Value, h Host) (dispatch.Value, error) {
	wk := &walker{w: w, h: h, param: func(p *Param) (*Param, error) {
		return p.mapped(w, func(t *dispatch.Tensor) (dispatch.Value, error) {
			return w.Call(dispatch.Call{Recv: t, Method: "set_require_grad", Args: []dispatch.Value{dispatch.Bool(false)}})
		})
	}}
	return wk.walk(v)
}

// Valid is AutodiffModule::valid: each Param becomes
// Param::initialized(id, val().no_grad().set_require_grad(false)) and
// keeps its require_grad flag (param/tensor.rs:316); plain tensors are
// no_grad.
func Valid(w *dispatch.World, v dispatch.Value, h Host) (dispatch.Value, error) {
	noGrad := func(t *dispatch.Tensor) (dispatch.Value, error) {
		return w.Call(dispatch.Call{Recv: t, Method: "no_grad"})
	}
	wk := &walker{w: w, h: h, tensor: noGrad, param: func(p *Param) (*Param, error) {
		out, err := p.mapped(w, func(t *dispatch.Tensor) (dispatch.Value, error) {
			ng, err := noGrad(t)
			if err != nil {
				return nil, err
			}
			return w.Call(dispatch.Call{Recv: ng, Method: "set_require_grad", Args: []dispatch.Value{dispatch.Bool(false)}})
		})
		if err != nil {
			return nil, err
		}
		out.RequireGrad = p.RequireGrad
		return out, nil
	}}
	return wk.walk(v)
}

// ---- display (module/display.rs) ----

// attr is one attribute of a module's display content.
type attr struct {
	name, value string
}

// settings are the DisplaySettings a module prints with; unset flags
// are nil.
type settings struct {
	newLine   *bool
	level     int
	showIDs   bool
	showCount bool
}

func falsePtr() *bool { f := false; return &f }

// Format is ModuleDisplay::format of a module with the default settings,
// which is the Display the derive generates (module/display.rs in
// burn-derive).
func Format(w *dispatch.World, v dispatch.Value, h Host) (string, error) {
	return format(w, v, h, settings{level: 1, showCount: true})
}

func format(w *dispatch.World, v dispatch.Value, h Host, passed settings) (string, error) {
	s := passed
	var attrs []attr
	top := ""
	single, isSingle := "", false
	switch x := dispatch.Deref(v).(type) {
	case *Module:
		top = x.Type
		if x.content != nil {
			// Every burn-nn module with a custom display asks for its
			// attributes on one line.
			if s.newLine == nil {
				s.newLine = falsePtr()
			}
			var err error
			if attrs, err = x.content(w, x); err != nil {
				return "", err
			}
		} else {
			for _, f := range x.Fields {
				a, err := attrOf(w, h, f, x.Values[f], s)
				if err != nil {
					return "", err
				}
				attrs = append(attrs, a)
			}
		}
	case *Param:
		id := ""
		if s.showIDs {
			id = ", id: " + h.Debug(x.ID)
		}
		if _, err := x.Val(w); err != nil {
			return "", err
		}
		return fmt.Sprintf("ParamTensor {rank: %d, shape: %s, kind: float%s}", len(x.shape), dims(x.shape), id), nil
	case *dispatch.Tensor:
		return fmt.Sprintf("Tensor {rank: %d, shape: %s}", x.Rank(), dims(x.Shape())), nil
	case *dispatch.Array:
		top = fmt.Sprintf("Vec<0..%d>", len(x.Elems))
		for i, e := range x.Elems {
			a, err := attrOf(w, h, fmt.Sprint(i), e, s)
			if err != nil {
				return "", err
			}
			attrs = append(attrs, a)
		}
	case *dispatch.Enum:
		switch {
		case x.Type == "Option":
			if len(x.Fields) == 1 {
				return format(w, x.Fields[0], h, s)
			}
			return "None", nil
		case x.Type == "Ignored" && len(x.Fields) == 1:
			return h.Debug(x.Fields[0]), nil
		}
		fields, skip, ok := h.ModuleFields(x)
		if !ok {
			return displayPrimitive(x, h), nil
		}
		top = x.Type
		enum := len(x.Named) == 0 && len(fields) == 1 && fields[0] == "0" && x.Variant != x.Type
		if enum {
			// An enum module prints its variant with its one field as
			// `_0` (codegen_enum.rs:164).
			top = x.Variant
		}
		for _, f := range fields {
			fv := x.Named[f]
			if fv == nil {
				if i := tupleIndex(f); i >= 0 && i < len(x.Fields) {
					fv = x.Fields[i]
				}
			}
			name := f
			if enum {
				name = "_" + f
			}
			var a attr
			if skip[f] {
				a = attr{name: name, value: h.Debug(fv)}
			} else {
				var err error
				if a, err = attrOf(w, h, name, fv, s); err != nil {
					return "", err
				}
			}
			attrs = append(attrs, a)
		}
	default:
		return displayPrimitive(v, h), nil
	}
	if isSingle {
		return single, nil
	}
	if len(attrs) == 0 {
		return top, nil
	}
	newLine := s.newLine == nil || *s.newLine
	ind := strings.Repeat(" ", s.level*2)
	closeInd := strings.Repeat(" ", (s.level-1)*2)
	var b strings.Builder
	b.WriteString(top + " {")
	if newLine {
		b.WriteString("\n")
	}
	for i, a := range attrs {
		switch {
		case newLine:
			b.WriteString(ind + a.name + ": " + a.value + "\n")
		case i == 0:
			b.WriteString(a.name + ": " + a.value)
		default:
			b.WriteString(", " + a.name + ": " + a.value)
		}
	}
	if s.showCount {
		n, err := NumParams(w, v, h)
		if err != nil {
			return "", err
		}
		if n > 0 {
			if newLine {
				fmt.Fprintf(&b, "%sparams: %d\n", ind, n)
			} else {
				fmt.Fprintf(&b, ", params: %d", n)
			}
		}
	}
	if newLine {
		b.WriteString(closeInd + "}")
	} else {
		b.WriteString("}")
	}
	return b.String(), nil
}

// IsModuleField reports whether the derive prints a field with its
// ModuleDisplay (a module, a Param, a tensor, an Option or Vec of them)
// rather than its Debug.
func IsModuleField(v dispatch.Value, h Host) bool {
	switch x := dispatch.Deref(v).(type) {
	case *Module, *Param, *dispatch.Tensor:
		return true
	case *dispatch.Array:
		return len(x.Elems) > 0 && IsModuleField(x.Elems[0], h)
	case *dispatch.Enum:
		if x.Type == "Option" {
			return len(x.Fields) == 1 && IsModuleField(x.Fields[0], h)
		}
		return IsModule(x, h)
	}
	return false
}

// attrOf is Content::add(name, value): the value formatted with the
// parent's settings one level up.
func attrOf(w *dispatch.World, h Host, name string, v dispatch.Value, parent settings) (attr, error) {
	child := parent
	child.level = parent.level + 1
	child.newLine = parent.newLine
	s, err := format(w, v, h, child)
	return attr{name: name, value: s}, err
}

// displayPrimitive is `{}` of a primitive attribute (param/constant.rs:57).
func displayPrimitive(v dispatch.Value, h Host) string {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		return fmt.Sprint(x.V)
	case dispatch.Bool:
		return fmt.Sprint(bool(x))
	case dispatch.Str:
		return string(x)
	case dispatch.Float:
		// `format!("{}", self)` of an f32 or f64 field (constant.rs:57).
		// A value without an f64 suffix that an f32 holds exactly is
		// printed as the f32 (the field's type is not always known).
		if x.Suffix == "f32" || (x.Suffix != "f64" && float64(float32(x.V)) == x.V) {
			return rustF32(x.V)
		}
		return rustFloat(x.V)
	}
	return h.Debug(v)
}

func dims(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

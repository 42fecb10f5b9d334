package nn

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// moduleSegments are the crate and module segments before a burn-nn item.
var moduleSegments = map[string]bool{"burn": true, "burn_nn": true, "burn_core": true, "nn": true, "conv": true,
	"pool": true, "loss": true, "module": true, "activation": true, "prelude": true, "crate": true, "norm": true}

func itemPath(p []string) []string {
	for len(p) > 2 && moduleSegments[p[0]] {
		p = p[1:]
	}
	return p
}

// paddingArity is the number of fields of each padding config's
// Explicit variant.
var paddingArity = map[string]int{"PaddingConfig1d": 2, "PaddingConfig2d": 4, "PaddingConfig3d": 3}

// Call answers the calls of a program into burn-nn and into the module
// API of burn-core: handled is false for every other call, which
// engine/dispatch answers.
func Call(w *dispatch.World, c dispatch.Call, h Host) (v dispatch.Value, handled bool, err error) {
	if len(c.Path) > 0 {
		if c.Path[len(c.Path)-1] == "Ignored" {
			// Ignored(value), burn-core's deprecated wrapper of a field
			// the module does not walk (param/constant.rs:187).
			if len(c.Args) != 1 {
				return nil, true, wrongArity(1, len(c.Args))
			}
			return &dispatch.Enum{Type: "Ignored", Variant: "Ignored", Fields: c.Args}, true, nil
		}
		p := itemPath(c.Path)
		if len(p) != 2 {
			return nil, false, nil
		}
		typ, name := p[0], p[1]
		if n, ok := paddingArity[typ]; ok && name == "Explicit" {
			// burn-nn's padding.rs: Explicit takes one usize per side
			// (1d: left, right; 2d: top, left, bottom, right; 3d: depth,
			// height, width).
			if len(c.Args) != n {
				return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: fmt.Sprintf(
					"this enum variant takes %d arguments but %d argument%s supplied", n, len(c.Args), wasWere(len(c.Args)))}
			}
			fields := make([]dispatch.Value, n)
			for i, a := range c.Args {
				v, ue := typed(a, "usize", i)
				if ue != nil {
					return nil, true, ue
				}
				fields[i] = v
			}
			return &dispatch.Enum{Type: typ, Variant: "Explicit", Fields: fields}, true, nil
		}
		if types, ok := variants[typ+"::"+name]; ok {
			if len(c.Args) != len(types) {
				return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: fmt.Sprintf(
					"this enum variant takes %d argument%s but %d argument%s supplied", len(types), plural(len(types)), len(c.Args), wasWere(len(c.Args)))}
			}
			fields := make([]dispatch.Value, len(types))
			for i, a := range c.Args {
				v, ue := typed(a, types[i], i)
				if ue != nil {
					return nil, true, ue
				}
				fields[i] = v
			}
			return &dispatch.Enum{Type: typ, Variant: name, Fields: fields}, true, nil
		}
		if f, ok := constructors[typ+"::"+name]; ok {
			v, err := f(w, c.Args)
			return v, true, err
		}
		if d, ok := configs[typ]; ok {
			if name != "new" {
				return nil, true, &dispatch.UsageError{Code: "unknown-function", Arg: -1, Message: fmt.Sprintf(
					"no function or associated item named `%s` found for struct `%s` in the current scope", name, typ)}
			}
			cfg, ue := newConfig(d, c.Args)
			if ue != nil {
				return nil, true, ue
			}
			return cfg, true, nil
		}
		if typ == "CosineEmbeddingLoss" && (name == "new" || name == "default") && len(c.Args) == 0 {
			v, err := newCosineEmbedding(w)
			return v, true, err
		}
		if typ == "MseLoss" && (name == "new" || name == "default") && len(c.Args) == 0 {
			return mseLoss(), true, nil
		}
		if typ == "Gelu" && (name == "new" || name == "default" || name == "new_approximate") && len(c.Args) == 0 {
			return newGelu(name == "new_approximate"), true, nil
		}
		if typ == "CrossEntropyLoss" && name == "new" {
			// CrossEntropyLoss::new(pad_index, device) (cross_entropy.rs).
			if len(c.Args) != 2 {
				return nil, true, wrongArity(2, len(c.Args))
			}
			d, ok := dispatch.Deref(c.Args[1]).(*dispatch.Device)
			if !ok {
				return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: "mismatched types: expected `&Device`, found `" + c.Args[1].TypeName() + "`"}
			}
			cfg, _ := newConfig(configs["CrossEntropyLossConfig"], nil)
			if p, ok := dispatch.Deref(c.Args[0]).(*dispatch.Enum); ok && p.Type == "Option" && p.Variant == "Some" && len(p.Fields) == 1 {
				cfg = cfg.with("pad_tokens", some(&dispatch.Array{Vec: true, Elems: []dispatch.Value{p.Fields[0]}}))
			}
			v, err := initCrossEntropy(w, cfg, d)
			return v, true, err
		}
		if _, ok := activations[typ]; ok && (name == "new" || name == "default") {
			if len(c.Args) != 0 {
				return nil, true, wrongArity(0, len(c.Args))
			}
			return newActivation(typ), true, nil
		}
		if typ == "Param" && (name == "from_tensor" || name == "initialized") {
			return paramFrom(w, name, c.Args)
		}
		if typ == "TransformerEncoderInput" && name == "new" {
			if len(c.Args) != 1 {
				return nil, true, wrongArity(1, len(c.Args))
			}
			t, err := tensorArg(c.Args[0], 3, 1, "Tensor<3>")
			if err != nil {
				return nil, true, err
			}
			return &TransformerEncoderInput{tensor: t}, true, nil
		}
		if typ == "LstmState" {
			v, err := lstmStateCall(w, name, c)
			return v, true, err
		}
		if typ == "MhaInput" {
			v, err := mhaInputCall(name, c.Args)
			return v, true, err
		}
		if typ == "Param" && name == "from_data" {
			// Param::from_data(data, device) (param/tensor.rs:114):
			// Tensor::from_data, then as from_tensor.
			if len(c.Args) != 2 {
				return nil, true, wrongArity(2, len(c.Args))
			}
			v, err := w.Call(dispatch.Call{Path: []string{"Tensor", "from_data"}, Args: c.Args})
			if err != nil {
				return nil, true, err
			}
			return paramFrom(w, "from_tensor", []dispatch.Value{v})
		}
		return nil, false, nil
	}
	switch r := dispatch.Deref(c.Recv).(type) {
	case *Config:
		if c.Method == "to_string" && len(c.Args) == 0 {
			s, ok := JSON(r, h)
			if !ok {
				return dispatch.Unknown{}, true, nil
			}
			return dispatch.Str(s), true, nil
		}
		v, err := configMethod(w, r, c)
		return v, true, err
	case *Module:
		v, err := moduleMethod(w, r, c, h)
		return v, true, err
	case *Param:
		v, err := paramMethod(w, r, c)
		return v, true, err
	case *LstmState:
		v, err := lstmStateMethod(w, r, c, h)
		return v, true, err
	case *MhaInput:
		v, err := mhaInputMethod(r, c)
		return v, true, err
	case *TransformerEncoderInput:
		v, err := encoderInputMethod(r, c)
		return v, true, err
	case *MhaOutput:
		if c.Method == "clone" {
			return r, true, nil
		}
	case *dispatch.Enum:
		if _, _, ok := h.ModuleFields(r); ok {
			v, handled, err := derivedMethod(w, r, c, h)
			return v, handled, err
		}
	}
	return nil, false, nil
}

func paramFrom(w *dispatch.World, name string, args []dispatch.Value) (dispatch.Value, bool, error) {
	var id dispatch.Value
	switch {
	case name == "from_tensor" && len(args) == 1:
		var err error
		if id, err = w.Call(dispatch.Call{Path: []string{"ParamId", "new"}}); err != nil {
			return nil, true, err
		}
	case name == "initialized" && len(args) == 2:
		id, args = args[0], args[1:]
	default:
		want := 1
		if name == "initialized" {
			want = 2
		}
		return nil, true, wrongArity(want, len(args))
	}
	t, ok := dispatch.Deref(args[0]).(*dispatch.Tensor)
	if !ok {
		return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: len(args), Message: "mismatched types: expected `Tensor<D>`, found `" + args[0].TypeName() + "`"}
	}
	if name == "from_tensor" && t.Kind() == dispatch.KindFloat {
		// A float Param requires gradients (param/tensor.rs:107).
		v, err := w.Call(dispatch.Call{Recv: t, Method: "require_grad"})
		if err != nil {
			return nil, true, err
		}
		t = v.(*dispatch.Tensor)
	}
	return FromTensor(w, t, id), true, nil
}

func configMethod(w *dispatch.World, cfg *Config, c dispatch.Call) (dispatch.Value, error) {
	switch {
	case c.Method == "clone" && len(c.Args) == 0:
		return cfg, nil
	case c.Method == "init":
		d := cfg.desc
		if d == nil || d.init == nil {
			break
		}
		want := 0
		if d.device {
			want = 1
		}
		if len(c.Args) != want {
			return nil, wrongArity(want, len(c.Args))
		}
		var dev *dispatch.Device
		if d.device {
			var ok bool
			if dev, ok = dispatch.Deref(c.Args[0]).(*dispatch.Device); !ok {
				return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `&Device`, found `" + c.Args[0].TypeName() + "`"}
			}
		}
		return d.init(w, cfg, dev)
	case strings.HasPrefix(c.Method, "with_") && cfg.desc != nil:
		name := strings.TrimPrefix(c.Method, "with_")
		for _, f := range cfg.desc.fields {
			if f.name != name || (!f.defaulted() && !cfg.desc.optionField(f)) {
				continue
			}
			if len(c.Args) != 1 {
				return nil, wrongArity(1, len(c.Args))
			}
			v, ue := typed(c.Args[0], f.typ, 0)
			if ue != nil {
				return nil, ue
			}
			return cfg.with(name, v), nil
		}
	}
	return nil, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `%s` in the current scope", c.Method, cfg.Type)}
}

func deviceArg(c dispatch.Call) (*dispatch.Device, error) {
	if len(c.Args) != 1 {
		return nil, wrongArity(1, len(c.Args))
	}
	d, ok := dispatch.Deref(c.Args[0]).(*dispatch.Device)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `&Device`, found `" + c.Args[0].TypeName() + "`"}
	}
	return d, nil
}

// derived are the methods #[derive(Module)] and the Module and
// AutodiffModule traits give every module.
func derived(w *dispatch.World, v dispatch.Value, c dispatch.Call, h Host) (dispatch.Value, bool, error) {
	switch c.Method {
	case "devices":
		if len(c.Args) != 0 {
			return nil, true, wrongArity(0, len(c.Args))
		}
		d, err := Devices(w, v, h)
		return d, true, err
	case "num_params":
		if len(c.Args) != 0 {
			return nil, true, wrongArity(0, len(c.Args))
		}
		n, err := NumParams(w, v, h)
		return dispatch.Int{V: n, Suffix: "usize"}, true, err
	case "to_device", "fork":
		d, err := deviceArg(c)
		if err != nil {
			return nil, true, err
		}
		var out dispatch.Value
		if c.Method == "fork" {
			out, err = Fork(w, v, d, h)
		} else {
			out, err = ToDevice(w, v, d, h)
		}
		return out, true, err
	case "no_grad", "valid":
		if len(c.Args) != 0 {
			return nil, true, wrongArity(0, len(c.Args))
		}
		var out dispatch.Value
		var err error
		if c.Method == "valid" {
			out, err = Valid(w, v, h)
		} else {
			out, err = NoGrad(w, v, h)
		}
		return out, true, err
	case "clone":
		return v, true, nil
	case "to_string":
		s, err := Format(w, v, h)
		return dispatch.Str(s), true, err
	}
	return nil, false, nil
}

func moduleMethod(w *dispatch.World, m *Module, c dispatch.Call, h Host) (dispatch.Value, error) {
	if c.Method == "forward" && m.forward != nil {
		want := max(m.arity, 1)
		if len(c.Args) != want {
			return nil, wrongArity(want, len(c.Args))
		}
		return m.forward(w, m, c)
	}
	if x, ok := m.methods[c.Method]; ok {
		if len(c.Args) != x.arity {
			return nil, wrongArity(x.arity, len(c.Args))
		}
		return x.fn(w, m, c.Args)
	}
	if v, ok, err := derived(w, m, c, h); ok {
		return v, err
	}
	return nil, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `%s` in the current scope", c.Method, m.Type)}
}

func derivedMethod(w *dispatch.World, en *dispatch.Enum, c dispatch.Call, h Host) (dispatch.Value, bool, error) {
	if c.Method == "clone" || c.Method == "to_string" {
		return nil, false, nil
	}
	return derived(w, en, c, h)
}

// paramMethod is a method of Param, or of the tensor it derefs to.
func paramMethod(w *dispatch.World, p *Param, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "val", "base", "into_value":
		if len(c.Args) != 0 {
			return nil, wrongArity(0, len(c.Args))
		}
		return p.Val(w)
	case "is_initialized":
		return dispatch.Bool(p.Initialized()), nil
	case "clone":
		return p, nil
	case "lazy_device":
		if p.t != nil {
			return p.t.Device(), nil
		}
		return p.device, nil
	case "shape":
		if p.t == nil {
			return w.Call(dispatch.Call{Path: []string{"Shape", "new"}, Args: []dispatch.Value{ints(p.shape...)}})
		}
	case "set_require_grad":
		out, err := p.mapped(w, func(t *dispatch.Tensor) (dispatch.Value, error) {
			return w.Call(dispatch.Call{Recv: t, Method: "set_require_grad", Args: c.Args})
		})
		return out, err
	}
	t, err := p.Val(w)
	if err != nil {
		return nil, err
	}
	c.Recv = t
	return w.Call(c)
}

// Field is a public field of a burn-nn module or config, or a Param's
// id; ok is false for any other.
// WithField is `m.name = f` on one of Burn's modules (a Linear's bias,
// a Conv2d's weight, which are pub): a copy of the module with that field,
// so that a clone of it made before keeps its own (Burn's modules are
// values). ok is false for a value that is not a module or a field it
// does not have.
func WithField(v dispatch.Value, name string, f dispatch.Value) (dispatch.Value, bool) {
	m, ok := v.(*Module)
	if !ok {
		return nil, false
	}
	if _, has := m.Values[name]; !has {
		return nil, false
	}
	values := make(map[string]dispatch.Value, len(m.Values))
	for k, x := range m.Values {
		values[k] = x
	}
	values[name] = f
	return m.copyWith(values), true
}

func Field(v dispatch.Value, name string) (dispatch.Value, bool) {
	switch x := v.(type) {
	case *Module:
		f, ok := x.Values[name]
		return f, ok
	case *Config:
		f, ok := x.Values[name]
		return f, ok
	case *Param:
		if name == "id" {
			return x.ID, true
		}
	case *LstmState:
		switch name {
		case "cell":
			return x.Cell, true
		case "hidden":
			return x.Hidden, true
		}
	case *MhaOutput:
		switch name {
		case "weights":
			return x.weights, x.weights != nil
		case "context":
			return x.context, x.context != nil
		}
	}
	return nil, false
}

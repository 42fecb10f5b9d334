package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// pathParam is a Param with its path in the module, the keys of a record
// (the Collector's and ModuleRecordMapper's enter_module, store/mod.rs:277
// and 408).
type pathParam struct {
	path string
	p    *nn.Param
	// running is a BatchNorm's RunningState tensor, which Burn records
	// as a float Param (param/running.rs:75-90) and the engine keeps as a
	// plain tensor field of owner; p is nil then.
	running *dispatch.Tensor
	owner   *nn.Module
	field   string
}

// runningStates are the fields of burn-nn's modules that are
// RunningState<Tensor> (norm/batch.rs).
var runningStates = map[string][]string{"BatchNorm": {"running_mean", "running_var"}}

// params are the Params of a module tree with their paths, in the order
// a ModuleVisitor meets them: a struct's fields by name, a Vec's or an
// array's elements by index (param/primitive.rs:82, 175), an enum's
// module under its variant's name (burn-derive module/codegen_enum.rs:37),
// an Option's content at the Option's own path.
func params(v dispatch.Value, h nn.Host, path []string, out *[]pathParam, depth int) {
	if depth > 64 {
		return
	}
	at := func(seg string) []string { return append(append([]string(nil), path...), seg) }
	switch x := dispatch.Deref(v).(type) {
	case *nn.Param:
		*out = append(*out, pathParam{path: strings.Join(path, "."), p: x})
	case *nn.Module:
		for _, f := range x.Fields {
			if t, isTensor := dispatch.Deref(x.Values[f]).(*dispatch.Tensor); isTensor && slices.Contains(runningStates[x.Type], f) {
				*out = append(*out, pathParam{path: strings.Join(at(f), "."), running: t, owner: x, field: f})
				continue
			}
			params(x.Values[f], h, at(f), out, depth+1)
		}
	case *dispatch.Array:
		for i, e := range x.Elems {
			params(e, h, at(strconv.Itoa(i)), out, depth+1)
		}
	case *dispatch.Enum:
		if x.Type == "Option" {
			if len(x.Fields) == 1 {
				params(x.Fields[0], h, path, out, depth+1)
			}
			return
		}
		fields, skip, isModule := h.ModuleFields(x)
		if !isModule {
			return
		}
		enumModule := x.Variant != x.Type && len(x.Named) == 0 && len(x.Fields) == 1
		for _, f := range fields {
			if skip[f] {
				continue
			}
			fv := x.Named[f]
			if fv == nil {
				i, err := strconv.Atoi(f)
				if err != nil || i < 0 || i >= len(x.Fields) {
					continue
				}
				fv = x.Fields[i]
			}
			seg := f
			if enumModule {
				seg = x.Variant
			}
			params(fv, h, at(seg), out, depth+1)
		}
	}
}

// moduleMethods are the saving and loading methods of Module
// (module/base.rs:257-353) and ModuleSnapshot (burn-store traits.rs:122,
// 137).
var moduleMethods = map[string]int{"load_from": 1, "save_into": 1, "into_record": 0, "load_record": 1,
	"try_load_record": 1, "save_file": 1, "load_file": 1, "try_load_file": 1, "into_record_group": 1, "collect": 3, "apply": 4}

func moduleMethod(w *dispatch.World, m dispatch.Value, typ string, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	n, isStoreMethod := moduleMethods[c.Method]
	if !isStoreMethod || nn.HasOwnMethod(m, c.Method) {
		// An inherent method of the module comes first, as in rustc
		// (RotaryEncoding::apply before ModuleSnapshot::apply).
		return nil, false, nil
	}
	if len(c.Args) != n {
		return nil, true, wrongMethodArity(n, len(c.Args))
	}
	item := typ + "::" + c.Method
	switch c.Method {
	case "load_from":
		s, isStore := dispatch.Deref(c.Args[0]).(*Store)
		if !isStore {
			return nil, true, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1,
				Message: "the trait bound `" + c.Args[0].TypeName() + ": ModuleStore` is not satisfied"}
		}
		// load_from(&mut self, ..) (traits.rs:137): the module itself
		// takes the loaded Params.
		loaded, err := loadOutside(w, m, h)
		if err != nil {
			return nil, true, err
		}
		replaceInPlace(m, loaded)
		return nil, true, &nn.Boundary{Item: item, What: "reads the weights from " + s.target(),
			Site: "crates/burn-store/src/traits.rs:137", Value: ok(dispatch.Unknown{})}
	case "save_into":
		s, isStore := dispatch.Deref(c.Args[0]).(*Store)
		if !isStore {
			return nil, true, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1,
				Message: "the trait bound `" + c.Args[0].TypeName() + ": ModuleStore` is not satisfied"}
		}
		if s.Type == "PytorchStore" {
			// PytorchStore reads only: its collect_from refuses without
			// touching the module (pytorch/store.rs:330).
			return errValue(&dispatch.Enum{Type: "PytorchStoreError", Variant: "Other", Fields: []dispatch.Value{
				dispatch.Str("Saving to PyTorch format is not yet supported. Use other formats for saving.")}}), true, nil
		}
		// The writer reads every Param back from its device.
		if _, err := collect(w, m, h); err != nil {
			return nil, true, err
		}
		return nil, true, &nn.Boundary{Item: item, What: "writes the weights to " + s.target(),
			Site: "crates/burn-store/src/traits.rs:122", Value: ok(dispatch.Unit{})}
	case "into_record":
		rec, err := collect(w, m, h)
		if err != nil {
			return nil, true, err
		}
		return rec, true, nil
	case "save_file":
		// into_record, then ModuleRecord::save (module/base.rs:318).
		f, isPath := pathText(c.Args[0])
		if !isPath {
			return nil, true, pathError(c, 0)
		}
		if _, err := collect(w, m, h); err != nil {
			return nil, true, err
		}
		return nil, true, &nn.Boundary{Item: item, What: "writes the module's record to `" + withBpk(f) + "`",
			Site: "crates/burn-core/src/module/base.rs:318", Value: ok(dispatch.Unit{})}
	case "load_file", "try_load_file":
		f, isPath := pathText(c.Args[0])
		if !isPath {
			return nil, true, pathError(c, 0)
		}
		loaded, err := loadOutside(w, m, h)
		if err != nil {
			return nil, true, err
		}
		var v dispatch.Value = loaded
		if c.Method == "try_load_file" {
			v = ok(loaded)
		}
		return nil, true, &nn.Boundary{Item: item, What: "reads the module's record from `" + withBpk(f) + "`",
			Site: "crates/burn-core/src/module/base.rs:332", Value: v}
	case "load_record", "try_load_record":
		rec, isRecord := dispatch.Deref(c.Args[0]).(*Record)
		if !isRecord {
			return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1,
				Message: "mismatched types: expected `ModuleRecord`, found `" + c.Args[0].TypeName() + "`"}
		}
		if !rec.known() {
			loaded, err := loadOutside(w, m, h)
			if err != nil {
				return nil, true, err
			}
			var v dispatch.Value = loaded
			if c.Method == "try_load_record" {
				v = ok(loaded)
			}
			// The record's tensors were read from a file: the warning at
			// ModuleRecord::load said so; this call applies them.
			return v, true, nil
		}
		loaded, msg, err := apply(w, rec, m, h)
		if err != nil {
			return nil, true, err
		}
		if msg == "" {
			if c.Method == "try_load_record" {
				return ok(loaded), true, nil
			}
			return loaded, true, nil
		}
		recErr := &dispatch.Enum{Type: "RecordError", Variant: "Validation", Fields: []dispatch.Value{dispatch.Str(msg)}}
		if c.Method == "try_load_record" {
			return errValue(recErr), true, nil
		}
		// load_record's expect (module/base.rs:309).
		return nil, true, &dispatch.Panic{ID: "store-load-record", Input: -1, Location: "crates/burn-core/src/module/base.rs:309",
			Message: "Failed to load record: Validation(" + h.Debug(dispatch.Str(msg)) + ")"}
	}
	return nil, true, &nn.Unmodelled{Item: item, Why: "the playground models a module's record whole (into_record, load_record) and its files, not snapshots or groups"}
}

func pathError(c dispatch.Call, i int) error {
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: i + 1, Message: "the trait bound `" + c.Args[i].TypeName() + ": AsRef<Path>` is not satisfied"}
}

// replaceInPlace gives the module value m the fields of loaded: the
// `&mut self` of load_from.
func replaceInPlace(m, loaded dispatch.Value) {
	switch x := dispatch.Deref(m).(type) {
	case *nn.Module:
		if l, isModule := loaded.(*nn.Module); isModule {
			for k, v := range l.Values {
				x.Values[k] = v
			}
		}
	case *dispatch.Enum:
		if l, isEnum := loaded.(*dispatch.Enum); isEnum {
			for k, v := range l.Named {
				x.Named[k] = v
			}
			copy(x.Fields, l.Fields)
		}
	}
}

// collect is ModuleRecord::from_module (store/mod.rs:224): every Param
// read back from its device, as the Collector's visit_float does with
// `val().into_data()` (store/mod.rs:300-312), lazy ones initialized.
func collect(w *dispatch.World, m dispatch.Value, h nn.Host) (*Record, error) {
	var list []pathParam
	params(m, h, nil, &list, 0)
	rec := &Record{validate: true}
	for _, pp := range list {
		t, id := pp.running, dispatch.Value(dispatch.Unknown{})
		if pp.p != nil {
			var err error
			if t, err = pp.p.Val(w); err != nil {
				return nil, err
			}
			id = pp.p.ID
		}
		v, err := w.Call(dispatch.Call{Recv: t, Method: "into_data"})
		if err != nil {
			return nil, err
		}
		td, isData := dispatch.Deref(v).(*dispatch.TensorData)
		if !isData {
			return nil, fmt.Errorf("into_data gave %s", v.TypeName())
		}
		rec.entries = append(rec.entries, entry{path: pp.path, id: id, data: td, kind: t.Kind()})
	}
	return rec, nil
}

// expectType is the tensor type Tensor::from_data builds for a kind.
func expectType(kind dispatch.Kind, rank int) string {
	switch kind {
	case dispatch.KindInt:
		return fmt.Sprintf("Tensor<%d, Int>", rank)
	case dispatch.KindBool:
		return fmt.Sprintf("Tensor<%d, Bool>", rank)
	}
	return fmt.Sprintf("Tensor<%d>", rank)
}

// loadParam is the load of one Param (ModuleRecordMapper::take then
// Param::transform_for_load, store/mod.rs:394, param/base.rs:580):
// Tensor::from_data on the Param's device with the dtype asked, then the
// Param's require_grad, under the record's id.
func loadParam(w *dispatch.World, p *nn.Param, data *dispatch.TensorData, kind dispatch.Kind, dtype dispatch.Value, id dispatch.Value) (*nn.Param, error) {
	device, _ := p.Lazy()
	var opts dispatch.Value = &dispatch.Ref{V: device}
	if dtype != nil {
		opts = dispatch.Tuple{&dispatch.Ref{V: device}, dtype}
	}
	v, err := w.Call(dispatch.Call{Path: []string{"Tensor", "from_data"}, Args: []dispatch.Value{data, opts},
		Expect: expectType(kind, len(p.Shape()))})
	if err != nil {
		return nil, err
	}
	if kind == dispatch.KindFloat {
		// Parameter::set_require_grad is the tensor's for a float and
		// leaves an int or bool tensor as it is (param/tensor.rs:30, 56, 82).
		v, err = w.Call(dispatch.Call{Recv: v, Method: "set_require_grad", Args: []dispatch.Value{dispatch.Bool(p.RequireGrad)}})
		if err != nil {
			return nil, err
		}
	}
	t, isTensor := v.(*dispatch.Tensor)
	if !isTensor {
		return nil, fmt.Errorf("from_data gave %s", v.TypeName())
	}
	return nn.FromTensor(w, t, id), nil
}

// loadOutside is the module with every Param loaded from a file the
// playground does not have: the Param's shape and device, the dtype of
// its tensor when it has one (the file's is unknown; a lazy Param takes
// the device's default), and unknown values and id.
func loadOutside(w *dispatch.World, m dispatch.Value, h nn.Host) (dispatch.Value, error) {
	loaded, err := nn.MapParams(w, m, h, func(p *nn.Param) (*nn.Param, error) {
		_, t := p.Lazy()
		kind, dtype := dispatch.KindFloat, dispatch.Value(nil)
		var dt dispatch.DType
		if t != nil && t.Kind() == dispatch.KindBool {
			kind = dispatch.KindBool
		} else if t != nil {
			kind, dt = t.Kind(), t.DType()
			v, err := w.Call(dispatch.Call{Recv: t, Method: "dtype"})
			if err != nil {
				return nil, err
			}
			dtype = v
		}
		return loadParam(w, p, dispatch.OutsideData(p.Shape(), dt), kind, dtype, dispatch.Unknown{})
	})
	if err != nil {
		return nil, err
	}
	return loaded, loadRunning(w, loaded, h, func(pp pathParam) (*dispatch.TensorData, dispatch.Value, bool) {
		return dispatch.OutsideData(pp.running.Shape(), pp.running.DType()), nil, true
	})
}

// loadRunning loads the RunningState tensors of loaded, a module the
// walk of MapParams made (its modules are its own copies): data gives
// the data of each and the dtype to load it with, ok false to keep it.
func loadRunning(w *dispatch.World, loaded dispatch.Value, h nn.Host, data func(pathParam) (*dispatch.TensorData, dispatch.Value, bool)) error {
	var list []pathParam
	params(loaded, h, nil, &list, 0)
	for _, pp := range list {
		if pp.running == nil {
			continue
		}
		td, dtype, load := data(pp)
		if !load {
			continue
		}
		var opts dispatch.Value = &dispatch.Ref{V: pp.running.Device()}
		if dtype != nil {
			opts = dispatch.Tuple{opts, dtype}
		}
		v, err := w.Call(dispatch.Call{Path: []string{"Tensor", "from_data"}, Args: []dispatch.Value{td, opts},
			Expect: expectType(dispatch.KindFloat, pp.running.Rank())})
		if err != nil {
			return err
		}
		pp.owner.Values[pp.field] = v
	}
	return nil
}

// apply is ModuleRecord::apply (store/mod.rs:237) of a record the
// program took from a module: each Param found at its path with the
// shape it expects is loaded (ModuleRecordMapper::take, store/mod.rs:358);
// msg is the RecordError::Validation text when Burn refuses the load, ""
// when it succeeds.
func apply(w *dispatch.World, rec *Record, m dispatch.Value, h nn.Host) (dispatch.Value, string, error) {
	byPath := make(map[string]entry, len(rec.entries))
	for _, e := range rec.entries {
		byPath[e.path] = e
	}
	// The mapper's verdicts, in the order it meets the parameters.
	var list []pathParam
	params(m, h, nil, &list, 0)
	var missing, errs []string
	found := map[string]entry{}
	dtypes := map[string]dispatch.Value{}
	for _, pp := range list {
		e, hit := byPath[pp.path]
		if !hit {
			missing = append(missing, pp.path)
			continue
		}
		delete(byPath, pp.path)
		shape := pp.running.Shape
		var dtype dispatch.Value
		if pp.p != nil {
			shape = pp.p.Shape
		}
		if rec.castToModule {
			// CastToModule reads the parameter's dtype, which
			// initializes a lazy one (store/mod.rs:380).
			t := pp.running
			if pp.p != nil {
				var err error
				if t, err = pp.p.Val(w); err != nil {
					return nil, "", err
				}
			}
			v, err := w.Call(dispatch.Call{Recv: t, Method: "dtype"})
			if err != nil {
				return nil, "", err
			}
			dtype = v
		} else if e.kind != dispatch.KindBool {
			// FromRecord: the record's dtype (a bool keeps the device's
			// bool store, as resolve_dtype does).
			_, dt := e.data.DataShape()
			dtype = &dispatch.Enum{Type: "DType", Variant: string(dt)}
		}
		recorded, _ := e.data.DataShape()
		if !slices.Equal(recorded, shape()) {
			errs = append(errs, fmt.Sprintf("%s: shape mismatch, expected %s but record has %s", pp.path, shapeDebug(shape()), shapeDebug(recorded)))
			continue
		}
		found[pp.path], dtypes[pp.path] = e, dtype
	}
	paths := make(map[*nn.Param]string, len(list))
	for _, pp := range list {
		if _, seen := paths[pp.p]; pp.p != nil && !seen {
			paths[pp.p] = pp.path
		}
	}
	loaded, err := nn.MapParams(w, m, h, func(p *nn.Param) (*nn.Param, error) {
		path := paths[p]
		e, load := found[path]
		if !load {
			return p, nil
		}
		return loadParam(w, p, e.data, e.kind, dtypes[path], e.id)
	})
	if err != nil {
		return nil, "", err
	}
	err = loadRunning(w, loaded, h, func(pp pathParam) (*dispatch.TensorData, dispatch.Value, bool) {
		e, load := found[pp.path]
		return e.data, dtypes[pp.path], load
	})
	if err != nil {
		return nil, "", err
	}
	unused := make([]string, 0, len(byPath))
	for path := range byPath {
		unused = append(unused, path)
	}
	slices.Sort(unused)
	switch {
	case rec.validate && len(errs) > 0:
		return nil, "Apply errors: " + stringsDebug(errs), nil
	case !rec.allowPartial && len(missing) > 0:
		return nil, "Missing tensors: " + stringsDebug(missing), nil
	case !rec.allowUnused && len(unused) > 0:
		return nil, "Unused tensors: " + stringsDebug(unused), nil
	}
	return loaded, "", nil
}

// shapeDebug is `{:?}` of a Shape.
func shapeDebug(dims []int64) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "Shape { dims: [" + strings.Join(parts, ", ") + "] }"
}

// stringsDebug is `{:?}` of a Vec<String> (or of &str).
func stringsDebug(list []string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = rustQuote(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rustQuote is str's Debug: quoted, with `"`, `\` and the control
// characters escaped.
func rustQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u{%x}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// recordMethod is a method of ModuleRecord (store/mod.rs:116-190).
func recordMethod(w *dispatch.World, r *Record, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	want := map[string]int{"clone": 0, "len": 0, "is_empty": 0, "with_dtype_policy": 1, "cast_to_module_dtype": 0,
		"allow_partial": 1, "allow_unused": 1, "validate": 1, "into_bytes": 0, "save": 1}
	n, known := want[c.Method]
	if !known {
		// want is every method ModuleRecord has at 2c06be35.
		return nil, true, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
			"no method named `%s` found for struct `ModuleRecord` in the current scope", c.Method)}
	}
	if len(c.Args) != n {
		return nil, true, wrongMethodArity(n, len(c.Args))
	}
	switch c.Method {
	case "clone":
		return r.copy(), true, nil
	case "len", "is_empty":
		if !r.known() {
			return dispatch.Unknown{}, true, nil
		}
		if c.Method == "is_empty" {
			return dispatch.Bool(len(r.entries) == 0), true, nil
		}
		return dispatch.Int{V: int64(len(r.entries)), Suffix: "usize"}, true, nil
	case "cast_to_module_dtype":
		out := r.copy()
		out.castToModule = true
		return out, true, nil
	case "with_dtype_policy":
		en, isEnum := dispatch.Deref(c.Args[0]).(*dispatch.Enum)
		if !isEnum || (en.Variant != "FromRecord" && en.Variant != "CastToModule") {
			return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1,
				Message: "mismatched types: expected `DTypePolicy`, found `" + c.Args[0].TypeName() + "`"}
		}
		out := r.copy()
		out.castToModule = en.Variant == "CastToModule"
		return out, true, nil
	case "allow_partial", "allow_unused", "validate":
		b, err := boolArg(c, 0)
		if err != nil {
			return nil, true, err
		}
		out := r.copy()
		switch c.Method {
		case "allow_partial":
			out.allowPartial = b
		case "allow_unused":
			out.allowUnused = b
		default:
			out.validate = b
		}
		return out, true, nil
	case "into_bytes":
		// The burnpack bytes stay in memory: ModuleRecord::from_bytes of
		// them is the record again (store/mod.rs:167-175).
		return ok(&Bytes{record: r}), true, nil
	case "save":
		f, isPath := pathText(c.Args[0])
		if !isPath {
			return nil, true, pathError(c, 0)
		}
		return nil, true, &nn.Boundary{Item: "ModuleRecord::save", What: "writes the record to `" + withBpk(f) + "`",
			Site: "crates/burn-core/src/store/mod.rs:178", Value: ok(dispatch.Unit{})}
	}
	return nil, false, nil
}

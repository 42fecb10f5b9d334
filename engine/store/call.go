package store

import (
	"fmt"
	"regexp"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/rstd"
)

// moduleSegments are the crate and module segments before a store item.
var moduleSegments = map[string]bool{"burn": true, "burn_store": true, "store": true, "burn_core": true}

func itemPath(p []string) []string {
	for len(p) > 2 && moduleSegments[p[0]] {
		p = p[1:]
	}
	return p
}

// Call answers the calls of a program into burn-store and into
// burn-core's store: the stores and their builders, ModuleRecord, and the
// Module and ModuleSnapshot methods that save and load a module. handled
// is false for every other call.
func Call(w *dispatch.World, c dispatch.Call, h nn.Host) (v dispatch.Value, handled bool, err error) {
	if len(c.Path) > 0 {
		return assoc(w, c)
	}
	switch r := dispatch.Deref(c.Recv).(type) {
	case *Store:
		return storeMethod(w, r, c, h)
	case *Helper:
		return helperMethod(r, c)
	case *Record:
		return recordMethod(w, r, c, h)
	case *Bytes:
		if c.Method == "clone" && len(c.Args) == 0 {
			return r, true, nil
		}
		return nil, false, nil
	case *nn.Module:
		return moduleMethod(w, r, r.Type, c, h)
	case *dispatch.Enum:
		if _, _, ok := h.ModuleFields(r); ok {
			return moduleMethod(w, r, r.Type, c, h)
		}
	}
	return nil, false, nil
}

func ok(v dispatch.Value) dispatch.Value {
	return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []dispatch.Value{v}}
}

func errValue(v dispatch.Value) dispatch.Value {
	return &dispatch.Enum{Type: "Result", Variant: "Err", Fields: []dispatch.Value{v}}
}

// wrongArity is rustc's error for an associated function called with
// another number of arguments; wrongMethodArity for a method.
func wrongArity(want, got int) error { return arity("function", want, got) }

func wrongMethodArity(want, got int) error { return arity("method", want, got) }

func arity(what string, want, got int) error {
	verb := "were"
	if got == 1 {
		verb = "was"
	}
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: fmt.Sprintf(
		"this %s takes %d argument%s but %d argument%s %s supplied", what, want, plural(want), got, plural(got), verb)}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func boolArg(c dispatch.Call, i int) (bool, error) {
	b, isBool := dispatch.Deref(c.Args[i]).(dispatch.Bool)
	if !isBool {
		return false, &dispatch.UsageError{Code: "wrong-arguments", Arg: i + 1, Message: "mismatched types: expected `bool`, found `" + c.Args[i].TypeName() + "`"}
	}
	return bool(b), nil
}

// pathText is the text of a path argument (`&str`, String, Path,
// PathBuf, a reference to one); ok is false for any other value.
func pathText(v dispatch.Value) (string, bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Str:
		return string(x), true
	case rstd.PathBuf:
		return x.S, true
	case *rstd.PathBuf:
		return x.S, true
	}
	return "", false
}

// assoc is an associated function: a store's constructor, ModuleRecord's
// load and from_bytes, a helper's constructor.
func assoc(w *dispatch.World, c dispatch.Call) (dispatch.Value, bool, error) {
	p := itemPath(c.Path)
	if len(p) != 2 {
		return nil, false, nil
	}
	typ, name := p[0], p[1]
	if ctors, isStore := constructors[typ]; isStore {
		if !ctors[name] {
			return nil, false, nil
		}
		want := 1
		if name == "default" {
			want = 0
		}
		if len(c.Args) != want {
			return nil, true, wrongArity(want, len(c.Args))
		}
		s := &Store{Type: typ, autoExtension: true}
		if name == "from_file" {
			f, isPath := pathText(c.Args[0])
			if !isPath {
				return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "the trait bound `" + c.Args[0].TypeName() + ": AsRef<Path>` is not satisfied"}
			}
			s.File = f
		}
		return s, true, nil
	}
	if ctors, isHelper := helperConstructors[typ]; isHelper {
		n, known := ctors[name]
		if !known {
			return nil, false, nil
		}
		if len(c.Args) != n {
			return nil, true, wrongArity(n, len(c.Args))
		}
		v := dispatch.Value(&Helper{Type: typ})
		if typ == "KeyRemapper" && name == "from_patterns" {
			// Result<Self, regex::Error> (keyremapper.rs:74): Ok when every
			// pattern compiles, unknown otherwise (see add_pattern).
			list, isVec := dispatch.Deref(c.Args[0]).(*dispatch.Array)
			if !isVec {
				return dispatch.Unknown{}, true, nil
			}
			for _, e := range list.Elems {
				pair, isPair := dispatch.Deref(e).(dispatch.Tuple)
				if !isPair || len(pair) != 2 || !compiles(pair[0]) {
					return dispatch.Unknown{}, true, nil
				}
			}
			v = ok(v)
		}
		return v, true, nil
	}
	if typ == "ModuleRecord" {
		switch name {
		case "load":
			// ModuleRecord::load reads a burnpack file (store/mod.rs:185).
			if len(c.Args) != 1 {
				return nil, true, wrongArity(1, len(c.Args))
			}
			f, isPath := pathText(c.Args[0])
			if !isPath {
				return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "the trait bound `" + c.Args[0].TypeName() + ": AsRef<Path>` is not satisfied"}
			}
			f = withBpk(f)
			rec := &Record{file: f, validate: true}
			return nil, true, &nn.Boundary{Item: "ModuleRecord::load", What: "reads the record from `" + f + "`",
				Site: "crates/burn-core/src/store/mod.rs:185", Value: ok(rec)}
		case "from_bytes":
			if len(c.Args) != 1 {
				return nil, true, wrongArity(1, len(c.Args))
			}
			if b, isBytes := dispatch.Deref(c.Args[0]).(*Bytes); isBytes && b.record != nil {
				// Bytes the program made with into_bytes: the record they
				// hold, its load settings the defaults again, as the
				// burnpack reader gives them (store/mod.rs:195-214).
				rec := &Record{entries: b.record.entries, validate: true}
				return ok(rec), true, nil
			}
			rec := &Record{file: "bytes", validate: true}
			return nil, true, &nn.Boundary{Item: "ModuleRecord::from_bytes", What: "reads a record from burnpack bytes",
				Site: "crates/burn-core/src/store/mod.rs:172", Value: ok(rec)}
		}
	}
	return nil, false, nil
}

// storeMethod is a builder of a store, or one of ModuleStore's reads
// (traits.rs:227-277).
func storeMethod(w *dispatch.World, s *Store, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	if c.Method == "clone" && len(c.Args) == 0 {
		out := *s
		return &out, true, nil
	}
	if n, isBuilder := builders[s.Type][c.Method]; isBuilder {
		if len(c.Args) != n {
			return nil, true, wrongMethodArity(n, len(c.Args))
		}
		out := *s
		switch c.Method {
		case "auto_extension":
			b, err := boolArg(c, 0)
			if err != nil {
				return nil, true, err
			}
			out.autoExtension = b
		case "with_from_adapter", "with_to_adapter":
			if !isAdapter(c.Args[0]) {
				return nil, true, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1,
					Message: "the trait bound `" + c.Args[0].TypeName() + ": ModuleAdapter` is not satisfied"}
			}
		case "remap":
			if hp, isHelper := dispatch.Deref(c.Args[0]).(*Helper); !isHelper || hp.Type != "KeyRemapper" {
				return nil, true, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1,
					Message: "mismatched types: expected `KeyRemapper`, found `" + c.Args[0].TypeName() + "`"}
			}
		case "validate", "allow_partial", "overwrite", "skip_enum_variants", "map_indices_contiguous":
			if _, err := boolArg(c, 0); err != nil {
				return nil, true, err
			}
		}
		return &out, true, nil
	}
	site := map[string]string{"PytorchStore": "crates/burn-store/src/pytorch/store.rs:327",
		"SafetensorsStore": "crates/burn-store/src/safetensors/store.rs:609", "BurnpackStore": "crates/burn-store/src/burnpack.rs:360"}[s.Type]
	switch c.Method {
	case "apply_to", "collect_from":
		// ModuleStore's own side of load_from and save_into
		// (traits.rs:173, 194).
		if len(c.Args) != 1 {
			return nil, true, wrongMethodArity(1, len(c.Args))
		}
		method := map[string]string{"apply_to": "load_from", "collect_from": "save_into"}[c.Method]
		m := c.Args[0]
		typ := m.TypeName()
		if mod, isModule := dispatch.Deref(m).(*nn.Module); isModule {
			typ = mod.Type
		} else if en, isEnum := dispatch.Deref(m).(*dispatch.Enum); isEnum {
			typ = en.Type
		} else {
			return nil, true, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1,
				Message: "the trait bound `" + typ + ": ModuleSnapshot` is not satisfied"}
		}
		return moduleMethod(w, dispatch.Deref(m), typ, dispatch.Call{Recv: m, Method: method, Args: []dispatch.Value{s}}, h)
	case "keys", "get_all_snapshots":
		if len(c.Args) != 0 {
			return nil, true, wrongMethodArity(0, len(c.Args))
		}
		return nil, true, &nn.Boundary{Item: s.Type + "::" + c.Method, What: "reads the tensors' names from " + s.target(),
			Site: site, Value: ok(dispatch.Unknown{})}
	case "get_snapshot":
		if len(c.Args) != 1 {
			return nil, true, wrongMethodArity(1, len(c.Args))
		}
		return nil, true, &nn.Boundary{Item: s.Type + "::get_snapshot", What: "reads a tensor from " + s.target(),
			Site: site, Value: ok(dispatch.Unknown{})}
	case "get_bytes":
		if s.Type == "PytorchStore" {
			break
		}
		return nil, true, &nn.Boundary{Item: s.Type + "::get_bytes", What: "serializes the tensors it collected",
			Site: site, Value: ok(dispatch.Unknown{})}
	}
	// The lists above are every method each store has at 2c06be35.
	return nil, true, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for %s `%s` in the current scope", c.Method, storeKind(s.Type), s.Type)}
}

// storeKind is how rustc names the store's type: SafetensorsStore is an
// enum (safetensors/store.rs:79).
func storeKind(typ string) string {
	if typ == "SafetensorsStore" {
		return "enum"
	}
	return "struct"
}

func helperMethod(hp *Helper, c dispatch.Call) (dispatch.Value, bool, error) {
	if c.Method == "clone" && len(c.Args) == 0 {
		return hp, true, nil
	}
	n, isBuilder := helperMethods[hp.Type][c.Method]
	if !isBuilder {
		if hp.Type == "KeyRemapper" && c.Method == "is_empty" || hp.Type == "PathFilter" && (c.Method == "matches" || c.Method == "is_empty") {
			// What the remapper or filter holds is not followed.
			return dispatch.Unknown{}, true, nil
		}
		// Their other methods are Burn's table's to judge.
		return nil, false, nil
	}
	if len(c.Args) != n {
		return nil, true, wrongMethodArity(n, len(c.Args))
	}
	if fallible[hp.Type+"::"+c.Method] {
		// add_pattern compiles its regex (keyremapper.rs:49). The regex
		// crate and Go's regexp read the same RE2 syntax: a pattern Go
		// compiles is Ok; for any other the Err regex would give, and its
		// text, are not followed, so the result is unknown.
		if !compiles(c.Args[0]) {
			return dispatch.Unknown{}, true, nil
		}
		return ok(hp), true, nil
	}
	return hp, true, nil
}

// compiles reports whether v is a pattern Go's regexp compiles.
func compiles(v dispatch.Value) bool {
	pattern, isStr := dispatch.Deref(v).(dispatch.Str)
	if !isStr {
		return false
	}
	_, err := regexp.Compile(string(pattern))
	return err == nil
}

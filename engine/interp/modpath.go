package interp

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// The module path of the trace (contract version 2: a trace entry's
// "module"). Every method call whose receiver is a module (a value of the
// program's types that derives Module, or one of burn-nn's modules) pushes
// the receiver's path for the time the method runs, and the World tags
// every operation with the path on top. A method of any other type, a
// closure and a free function push nothing: they keep their caller's
// module.
//
// A receiver's path is the one the program reached it by, from the
// outermost module value it named:
//   - the module running (`self`) keeps its path;
//   - a module found inside it (`self.conv1`, `self.blocks[i]`, the
//     `layer` of `for layer in &self.layers`) is that path with the fields
//     and Vec indices down to it, in declaration order (Option is
//     transparent, as in Burn's module paths);
//   - otherwise the variable the receiver expression starts from, with the
//     fields and indices down to the receiver inside it (`model`,
//     `model.encoder`);
//   - a receiver the program reaches by no variable (a call's result, or
//     Burn's code calling the program back: a learner its model's
//     TrainStep) is the variable the program last named it by, in a
//     method call or as an argument to Burn, or else its type's name in
//     snake case (`model` for Model).
// Paths are found once per call, not per operation, and interned in the
// World (ModulePath), so tagging an operation copies a string header.

// modFrame is a module whose method is running.
type modFrame struct {
	v    dispatch.Value // the module, dereferenced
	path string
}

// modStep is one step from a module down to a submodule: a field, or an
// element of a Vec (index >= 0).
type modStep struct {
	field string
	index int
}

type modKey struct{ tree, target dispatch.Value }

// modPaths is the evaluator's state for module paths.
type modPaths struct {
	stack []modFrame
	// found remembers where a target was found inside a tree; a hit is
	// checked by walking its steps again, so a module moved since is
	// searched anew.
	found map[modKey][]modStep
	// names are the variables the program last named modules by;
	// typeNames the paths of modules it named by none (typePath).
	names     map[dispatch.Value]string
	typeNames map[string]string
}

// enterModule pushes the path of recv when it is a module and the run
// traces (a check keeps no trace); recvExpr is the receiver as written, nil
// when Burn's code calls the program back. When pushed is true the caller
// must leaveModule(prev) once the method returns.
func (in *interp) enterModule(recvExpr syntax.Expr, recv dispatch.Value) (prev string, pushed bool) {
	if in.opts.Mode != Run {
		return "", false
	}
	m := dispatch.Deref(recv)
	if !in.isModuleValue(m) {
		return "", false
	}
	path := in.modulePath(recvExpr, m)
	in.mpath.stack = append(in.mpath.stack, modFrame{v: m, path: path})
	return in.world.SetModule(path), true
}

// enterBurnModule is enterModule for the receiver of a call into Burn: a
// burn-nn module's method, which Burn's code may call too (a learner its
// model's forward) and which methodCall has pushed already when the
// program called it.
func (in *interp) enterBurnModule(recv dispatch.Value) (prev string, pushed bool) {
	if recv == nil {
		return "", false
	}
	if _, ok := dispatch.Deref(recv).(*nn.Module); !ok {
		return "", false
	}
	return in.enterModule(nil, recv)
}

func (in *interp) leaveModule(prev string) {
	in.mpath.stack = in.mpath.stack[:len(in.mpath.stack)-1]
	in.world.SetModule(prev)
}

// isModuleValue reports whether v (dereferenced) is a module.
func (in *interp) isModuleValue(v dispatch.Value) bool {
	switch x := v.(type) {
	case *nn.Module:
		return true
	case *dispatch.Enum:
		decl := in.structs[x.Type]
		return decl != nil && derives(decl, "Module")
	}
	return false
}

// modulePath is the path of module m reached as recvExpr.
func (in *interp) modulePath(recvExpr syntax.Expr, m dispatch.Value) string {
	if n := len(in.mpath.stack); n > 0 {
		top := in.mpath.stack[n-1]
		if top.v == m {
			return top.path
		}
		if p, ok := in.pathIn(top.v, top.path, m); ok {
			return p
		}
	}
	if name, root := in.receiverRoot(recvExpr); name != "" {
		in.nameModule(root, name)
		if root == m {
			return name
		}
		if p, ok := in.pathIn(root, name, m); ok {
			return p
		}
		return name
	}
	if name := in.mpath.names[m]; name != "" {
		return name
	}
	switch x := m.(type) {
	case *nn.Module:
		return in.typePath(x.Type)
	case *dispatch.Enum:
		return in.typePath(x.Type)
	}
	return ""
}

// typePath names a module the program reached by no variable: its type
// in snake case, as a variable of it would be named (Model: model,
// MnistModel: mnist_model), interned.
func (in *interp) typePath(typ string) string {
	if p, ok := in.mpath.typeNames[typ]; ok {
		return p
	}
	var b strings.Builder
	for i, r := range typ {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	if in.mpath.typeNames == nil {
		in.mpath.typeNames = map[string]string{}
	}
	in.mpath.typeNames[typ] = b.String()
	return b.String()
}

// receiverRoot is the variable a receiver expression starts from (`model`
// in `model.encoder.layers[1]`, `&model`, `model.clone()`) and its value;
// name is "" for `self`, for a path that is not a variable, and for an
// expression that starts from no variable.
func (in *interp) receiverRoot(e syntax.Expr) (name string, v dispatch.Value) {
	for e != nil {
		switch x := e.(type) {
		case *syntax.FieldExpr:
			e = x.X
		case *syntax.IndexExpr:
			e = x.X
		case *syntax.MethodCallExpr:
			e = x.Recv
		case *syntax.UnaryExpr:
			e = x.X
		case *syntax.ParenExpr:
			e = x.X
		case *syntax.TryExpr:
			e = x.X
		case *syntax.PathExpr:
			if x.QSelf != nil || len(x.Segments) != 1 || x.Segments[0].Name == "self" {
				return "", nil
			}
			b := in.scope.lookup(x.Segments[0].Name)
			if b == nil {
				return "", nil
			}
			return x.Segments[0].Name, dispatch.Deref(b.v)
		default:
			return "", nil
		}
	}
	return "", nil
}

// nameModule remembers that the program named module v by name, for the
// calls into v that Burn's code makes (a learner calling the model's
// TrainStep).
func (in *interp) nameModule(v dispatch.Value, name string) {
	if !in.isModuleValue(v) {
		return
	}
	if in.mpath.names == nil || len(in.mpath.names) >= maxModuleMemo {
		in.mpath.names = map[dispatch.Value]string{}
	}
	in.mpath.names[v] = name
}

// nameModuleArgs remembers the modules a call into Burn is given as
// variables (`builder.build(model, optim, lr)`).
func (in *interp) nameModuleArgs(exprs []syntax.Expr, args []dispatch.Value) {
	if in.opts.Mode != Run {
		return
	}
	for i, a := range args {
		if i >= len(exprs) {
			return
		}
		switch dispatch.Deref(a).(type) {
		case *nn.Module, *dispatch.Enum:
		default:
			continue
		}
		if p, ok := exprs[i].(*syntax.PathExpr); ok && p.QSelf == nil && len(p.Segments) == 1 && p.Segments[0].Name != "self" {
			in.nameModule(dispatch.Deref(a), p.Segments[0].Name)
		}
	}
}

// pathIn is the path of target inside the module tree at path, if it is
// there.
func (in *interp) pathIn(tree dispatch.Value, path string, target dispatch.Value) (string, bool) {
	key := modKey{tree, target}
	steps, ok := in.mpath.found[key]
	if !ok || !in.sameModule(in.walkSteps(tree, steps), target) {
		steps = nil
		if !in.findModule(tree, target, &steps, 0) {
			return "", false
		}
		if in.mpath.found == nil || len(in.mpath.found) >= maxModuleMemo {
			in.mpath.found = map[modKey][]modStep{}
		}
		in.mpath.found[key] = steps
	}
	for _, s := range steps {
		seg := s.field
		if s.index >= 0 {
			seg = strconv.Itoa(s.index)
		}
		path = in.world.ModulePath(path, seg)
	}
	return path, true
}

// maxModuleDepth bounds the search of a module tree.
const maxModuleDepth = 32

// maxModuleMemo bounds what modPaths remembers by module value: a training
// loop makes a new model every step (`model = optim.step(lr, model,
// grads)`), so the memos start over rather than grow with the steps.
const maxModuleMemo = 4096

// findModule searches the tree below v for target, fields in declaration
// order and Vec elements in order, appending the steps down to it.
func (in *interp) findModule(v, target dispatch.Value, steps *[]modStep, depth int) bool {
	if depth > maxModuleDepth {
		return false
	}
	try := func(c dispatch.Value, s modStep) bool {
		c = unwrapSome(c)
		if c == nil {
			return false
		}
		*steps = append(*steps, s)
		if c == target || in.findModule(c, target, steps, depth+1) {
			return true
		}
		*steps = (*steps)[:len(*steps)-1]
		return false
	}
	switch x := unwrapSome(v).(type) {
	case *nn.Module:
		for _, f := range x.Fields {
			if try(x.Values[f], modStep{field: f, index: -1}) {
				return true
			}
		}
	case *dispatch.Array:
		for i, e := range x.Elems {
			if try(e, modStep{index: i}) {
				return true
			}
		}
	case *dispatch.Enum:
		decl := in.structs[x.Type]
		if decl == nil || !derives(decl, "Module") {
			return false
		}
		if decl.Enum {
			// An enum module's variant holds one module, whose path is
			// the enum's.
			if len(x.Fields) == 1 {
				c := unwrapSome(x.Fields[0])
				return c == target || in.findModule(c, target, steps, depth+1)
			}
			return false
		}
		if decl.Shape == syntax.NamedShape {
			for _, f := range decl.Fields {
				if try(x.Named[f.Name], modStep{field: f.Name, index: -1}) {
					return true
				}
			}
			return false
		}
		for i, c := range x.Fields {
			if try(c, modStep{field: strconv.Itoa(i), index: -1}) {
				return true
			}
		}
	}
	return false
}

// walkSteps follows steps down from v; nil when they lead nowhere.
func (in *interp) walkSteps(v dispatch.Value, steps []modStep) dispatch.Value {
	for _, s := range steps {
		v = unwrapSome(v)
		if en, ok := v.(*dispatch.Enum); ok {
			if decl := in.structs[en.Type]; decl != nil && decl.Enum && len(en.Fields) == 1 {
				v = unwrapSome(en.Fields[0])
			}
		}
		switch x := v.(type) {
		case *nn.Module:
			v = x.Values[s.field]
		case *dispatch.Array:
			if s.index < 0 || s.index >= len(x.Elems) {
				return nil
			}
			v = x.Elems[s.index]
		case *dispatch.Enum:
			if x.Named != nil {
				v = x.Named[s.field]
				break
			}
			i, err := strconv.Atoi(s.field)
			if err != nil || i < 0 || i >= len(x.Fields) {
				return nil
			}
			v = x.Fields[i]
		default:
			return nil
		}
	}
	return unwrapSome(v)
}

// sameModule reports whether v is target, or an enum module whose variant
// holds target.
func (in *interp) sameModule(v, target dispatch.Value) bool {
	if v == target {
		return true
	}
	if en, ok := v.(*dispatch.Enum); ok {
		if decl := in.structs[en.Type]; decl != nil && decl.Enum && len(en.Fields) == 1 {
			return unwrapSome(en.Fields[0]) == target
		}
	}
	return false
}

// unwrapSome dereferences v and looks through Option's Some: an
// Option<Module> field has the path of the field.
func unwrapSome(v dispatch.Value) dispatch.Value {
	for range maxModuleDepth {
		v = dispatch.Deref(v)
		en, ok := v.(*dispatch.Enum)
		if !ok || en.Type != "Option" || en.Variant != "Some" || len(en.Fields) != 1 {
			return v
		}
		v = en.Fields[0]
	}
	return v
}

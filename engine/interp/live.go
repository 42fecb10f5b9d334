package interp

import (
	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// The tensor handles a program holds when `backward()` runs. burn-autodiff
// frees the graph nodes no handle refers to (a node is referenced while an
// Arc a tensor handle clones is alive, runtime/memory_management.rs:263-268),
// and a later backward rooted below a freed node panics
// (runtime/server.rs:69). The rule the evaluator follows, conservative
// wherever it cannot see (engine/dispatch/autodiff_memory.go frees nothing
// of what it is not told is dead):
//
//   - A handle lives while a binding of a frame on the call stack holds it:
//     the scopes of the running function or closure, of its callers, of
//     the environment of a closure they hold, a binding a later `let`
//     shadowed (it lives to the end of its scope), directly or inside a
//     Vec, array, tuple, struct, enum or reference. The receiver of
//     backward lives (it is borrowed).
//   - A binding holds its tensor no more once a `let` at the top level of
//     a function's or closure's body moved it into a Burn tensor operation
//     that consumes it: an arithmetic operator (`a * b`, `-a`) or a Burn
//     tensor method taking `self` (`a.exp()`, `a.matmul(b)`: the receiver
//     and each tensor argument passed by value). At the top level no
//     temporary of that frame can still hold a clone of it. Assigning the
//     binding again makes it live. Any other move (into another binding, a
//     function of the program, a collection) keeps the binding live.
//   - When the evaluator cannot tell, every node counts as referenced: a
//     value it cannot see through (a module, a map, an iterator, an
//     unknown value) anywhere it looks, a backward reached while Burn's or
//     the standard library's code calls the program back (that code may
//     hold handles), or inside a branch whose condition is unknown.
//
// The cost is paid at backward only: letMoves and shadow are a few map
// lookups per `let`.

// maxLiveValues bounds the values liveHandles looks at; past it, it
// cannot tell.
const maxLiveValues = 1 << 16

// liveHandles is the World's view of the handles alive while root's
// backward runs (dispatch.World.SetLiveHandles): add is called for each,
// and false means the evaluator cannot tell.
func (in *interp) liveHandles(root *dispatch.Tensor, add func(*dispatch.Tensor)) bool {
	if in.external > 0 || in.guessing > 0 || len(in.burns) != 1 {
		return false
	}
	if t, ok := dispatch.Deref(in.burns[0]).(*dispatch.Tensor); !ok || t != root {
		// A backward Burn's own code runs, not the program's call.
		return false
	}
	lw := &liveWalk{add: add, ok: true, scopes: map[*scope]bool{}, seen: map[any]bool{}}
	lw.todo = append(lw.todo, in.scope)
	mods := []*module{in.rootMod}
	for _, m := range in.crates {
		mods = append(mods, m)
	}
	for _, m := range in.blockMods {
		mods = append(mods, m)
	}
	lw.modules(mods)
	for len(lw.todo) > 0 && lw.ok {
		s := lw.todo[len(lw.todo)-1]
		lw.todo = lw.todo[:len(lw.todo)-1]
		if s == nil || lw.scopes[s] {
			continue
		}
		lw.scopes[s] = true
		for _, b := range s.vars {
			lw.binding(b)
		}
		for _, b := range s.shadowed {
			lw.binding(b)
		}
		lw.todo = append(lw.todo, s.parent, s.caller)
	}
	return lw.ok
}

type liveWalk struct {
	add    func(*dispatch.Tensor)
	ok     bool
	n      int
	todo   []*scope
	scopes map[*scope]bool
	seen   map[any]bool
}

// modules looks at the values of the static and const items computed so
// far.
func (lw *liveWalk) modules(mods []*module) {
	for len(mods) > 0 && lw.ok {
		m := mods[len(mods)-1]
		mods = mods[:len(mods)-1]
		if m == nil || lw.seen[m] {
			continue
		}
		lw.seen[m] = true
		for _, c := range m.consts {
			if c.value != nil {
				lw.value(c.value, 0)
			}
		}
		for _, sub := range m.mods {
			mods = append(mods, sub)
		}
	}
}

func (lw *liveWalk) binding(b *binding) {
	if t, ok := b.v.(*dispatch.Tensor); ok && t == b.consumed {
		return
	}
	lw.value(b.v, 0)
}

func (lw *liveWalk) value(v value, depth int) {
	if !lw.ok {
		return
	}
	lw.n++
	if lw.n > maxLiveValues || depth > 64 {
		lw.ok = false
		return
	}
	switch x := v.(type) {
	case *dispatch.Tensor:
		lw.add(x)
	case *dispatch.Ref:
		lw.value(x.V, depth+1)
		if x.In != nil {
			lw.value(x.In, depth+1)
		}
	case *dispatch.Array:
		if lw.seen[x] {
			return
		}
		lw.seen[x] = true
		for _, el := range x.Elems {
			if !mayHoldHandle(el) {
				// A Vec's elements are of one type.
				return
			}
			lw.value(el, depth+1)
		}
	case dispatch.Tuple:
		for _, el := range x {
			lw.value(el, depth+1)
		}
	case *dispatch.Enum:
		if lw.seen[x] {
			return
		}
		lw.seen[x] = true
		for _, f := range x.Fields {
			lw.value(f, depth+1)
		}
		for _, f := range x.Named {
			lw.value(f, depth+1)
		}
	case *closure:
		lw.todo = append(lw.todo, x.env)
	case nil, dispatch.Unit, dispatch.Int, dispatch.Float, dispatch.Bool, dispatch.Str,
		*dispatch.Range, *dispatch.ShapeValue, *dispatch.TensorData, *dispatch.Gradients,
		*dispatch.Device, *dispatch.Tolerance, *dispatch.FloatRange, *dispatch.SteppedSlice,
		rstd.Text, rstd.Char, *rstd.Big, rstd.Duration, rstd.PathBuf, rstd.CharRange, *rstd.FnRef,
		*fnValue, *burnFn, shown:
		// Values that hold no tensor.
	default:
		lw.ok = false
	}
}

// mayHoldHandle is false for the values that cannot hold a tensor handle.
func mayHoldHandle(v value) bool {
	switch v.(type) {
	case dispatch.Unit, dispatch.Int, dispatch.Float, dispatch.Bool, dispatch.Str,
		rstd.Text, rstd.Char, *rstd.Big, *fnValue, *burnFn, shown:
		return false
	}
	return true
}

// arithmetic are the operators whose Burn impls take their tensors by
// value (crates/burn-tensor/src/tensor/api/numeric.rs:893-1060: Add, Sub,
// Mul, Div, Rem and Neg of Tensor).
var arithmetic = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true}

// letMoves applies the rule's second point to the `let` whose
// initializer init just ran.
func (in *interp) letMoves(init syntax.Expr) {
	if in.guessing > 0 || !in.topLevel() {
		return
	}
	var operands []syntax.Expr
	switch e := init.(type) {
	case *syntax.BinaryExpr:
		if arithmetic[e.Op] {
			operands = []syntax.Expr{e.X, e.Y}
		}
	case *syntax.UnaryExpr:
		if e.Op == "-" {
			operands = []syntax.Expr{e.X}
		}
	case *syntax.MethodCallExpr:
		b := in.frameBinding(e.Recv)
		if b == nil {
			return
		}
		t, ok := b.v.(*dispatch.Tensor)
		if !ok {
			return
		}
		kind := t.KindName()
		if t.Kind() == dispatch.KindQFloat {
			kind = "Float"
		}
		items := burnapi.Default().Member("Tensor", e.Name, kind, true)
		for _, it := range items {
			if it.Receiver != "self" {
				return
			}
		}
		if len(items) > 0 {
			operands = append([]syntax.Expr{e.Recv}, e.Args...)
		}
	}
	for _, x := range operands {
		if b := in.frameBinding(x); b != nil {
			if t, ok := b.v.(*dispatch.Tensor); ok {
				b.consumed = t
			}
		}
	}
}

// topLevel reports whether the statement running is at the top level of
// a function's or closure's body (or of the snippet's bare statements).
func (in *interp) topLevel() bool {
	s := in.scope
	return s.parent == nil && s.caller == nil || s.parent != nil && s.parent.caller != nil
}

// frameBinding is the binding a bare variable names in the running
// frame's own scopes; nil for any other expression, or a variable of an
// enclosing frame (a closure's environment).
func (in *interp) frameBinding(e syntax.Expr) *binding {
	p, ok := e.(*syntax.PathExpr)
	if !ok || len(p.Segments) != 1 || p.QSelf != nil || len(p.Segments[0].Generics) > 0 {
		return nil
	}
	name := p.Segments[0].Name
	for s := in.scope; s != nil; s = s.parent {
		if b, ok := s.vars[name]; ok {
			return b
		}
		if s.caller != nil {
			break
		}
	}
	return nil
}

// shadow keeps a binding a `let` of the same scope shadows: it lives to
// the end of the scope.
func (in *interp) shadow(old *binding) {
	if t, ok := old.v.(*dispatch.Tensor); ok && t == old.consumed {
		return
	}
	if mayHoldHandle(old.v) {
		in.scope.shadowed = append(in.scope.shadowed, old)
	}
}

package interp

import (
	"github.com/dispatch-playground/playground/engine/syntax"
)

// moveEnv is the scope a `move` closure captures: its own copy of every
// variable of the enclosing scopes its body names, so that the closure's
// writes stay its own and the outer variables keep their values (for a
// Copy value, as Rust's move of a copy does; a value that is not Copy
// cannot be used outside after the move, so sharing it changes nothing).
func (in *interp) moveEnv(e *syntax.ClosureExpr) *scope {
	env := &scope{vars: map[string]*binding{}, parent: in.scope}
	syntax.Inspect(e.Body, func(n syntax.Node) bool {
		p, ok := n.(*syntax.PathExpr)
		if !ok || len(p.Segments) != 1 || p.QSelf != nil {
			return true
		}
		name := p.Segments[0].Name
		if _, done := env.vars[name]; done {
			return true
		}
		if b := in.scope.lookup(name); b != nil {
			c := *b
			c.v = in.copyOnBind(b.v)
			env.vars[name] = &c
		}
		return true
	})
	return env
}

package interp

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/syntax"
)

// The dispatch model reads types as text (`Tensor<2, Int>`, `f32`). These
// functions write a type of the program that way, with its `type` aliases
// and `Self` expanded, and a path to another crate's type named by its last
// segment (`burn_tensor::Int` is `Int`).

// pathSeg is a path segment with its generic arguments as text.
type pathSeg struct {
	name     string
	generics []string
}

func segNamesOf(segs []pathSeg) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = s.name
	}
	return out
}

// typeText is t as the dispatch model reads it, for code of the current
// module.
func (in *interp) typeText(t *syntax.Type) string {
	return in.typeTextIn(in.mod, t, nil, 0)
}

func (in *interp) typeTextIn(m *module, t *syntax.Type, subst map[string]string, depth int) string {
	if t == nil {
		return ""
	}
	if depth > maxResolveDepth {
		return t.Text
	}
	elem := func(i int) string {
		if i < len(t.Elems) {
			return in.typeTextIn(m, t.Elems[i], subst, depth+1)
		}
		return "_"
	}
	switch t.Kind {
	case syntax.TypePath:
		if t.QSelf != nil || len(t.Path) == 0 {
			return t.Text
		}
		if len(t.Path) == 1 && len(t.Path[0].Generics) == 0 {
			if s, ok := subst[t.Path[0].Name]; ok {
				return s
			}
		}
		segs, _ := in.expandSegs(m, in.segsIn(m, t.Path, subst, depth), depth)
		last := segs[len(segs)-1]
		if len(last.generics) == 0 {
			return last.name
		}
		return last.name + "<" + strings.Join(last.generics, ", ") + ">"
	case syntax.TypeRef:
		if t.Mut {
			return "&mut " + elem(0)
		}
		return "&" + elem(0)
	case syntax.TypeTuple:
		parts := make([]string, len(t.Elems))
		for i := range t.Elems {
			parts[i] = elem(i)
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case syntax.TypeSlice:
		return "[" + elem(0) + "]"
	case syntax.TypeArray:
		n := "_"
		if t.Len != nil {
			n = strings.TrimSpace(in.src.Slice(t.Len.Span()))
			if s, ok := subst[n]; ok {
				n = s
			}
		}
		return "[" + elem(0) + "; " + n + "]"
	case syntax.TypeParen:
		return elem(0)
	}
	return t.Text
}

// segsIn turns written path segments into pathSegs, their generic
// arguments written as text.
func (in *interp) segsIn(m *module, segs []syntax.PathSegment, subst map[string]string, depth int) []pathSeg {
	out := make([]pathSeg, len(segs))
	for i, s := range segs {
		out[i].name = s.Name
		for _, g := range s.Generics {
			if g.Lifetime != "" {
				continue
			}
			out[i].generics = append(out[i].generics, in.genericText(m, g, subst, depth))
		}
	}
	return out
}

func (in *interp) genericText(m *module, g syntax.GenericArg, subst map[string]string, depth int) string {
	switch {
	case g.Type != nil && g.Assoc != "":
		return g.Assoc + " = " + in.typeTextIn(m, g.Type, subst, depth+1)
	case g.Type != nil:
		return in.typeTextIn(m, g.Type, subst, depth+1)
	case g.Const != nil:
		text := strings.TrimSpace(in.src.Slice(g.Const.Span()))
		if s, ok := subst[text]; ok {
			return s
		}
		return strings.TrimSuffix(strings.TrimPrefix(text, "{"), "}")
	}
	return strings.TrimSpace(in.src.Slice(g.Range))
}

// expandSegs replaces a leading `Self` with the type of the impl being
// evaluated and a leading `type` alias with what it stands for, and returns
// the module the result is to be resolved in.
func (in *interp) expandSegs(m *module, segs []pathSeg, depth int) ([]pathSeg, *module) {
	for round := 0; round < maxResolveDepth && len(segs) > 0; round++ {
		if segs[0].name == "Self" && in.selfType != nil && in.selfType.Kind == syntax.TypePath && len(in.selfType.Path) > 0 {
			self := in.segsIn(in.selfMod, in.selfType.Path, nil, depth+1)
			segs = append(self, segs[1:]...)
			m = in.selfMod
			continue
		}
		k, alias, aliasMod := in.aliasPrefix(m, segs)
		if alias == nil || alias.Type == nil {
			return segs, m
		}
		subst := map[string]string{}
		args := segs[k-1].generics
		n := 0
		for _, g := range alias.Generics {
			if g.Lifetime {
				continue
			}
			if n < len(args) {
				subst[g.Name] = args[n]
			} else {
				subst[g.Name] = "_"
			}
			n++
		}
		if alias.Type.Kind != syntax.TypePath || alias.Type.QSelf != nil || len(alias.Type.Path) == 0 {
			// An alias of a reference, tuple or array: its text is the name.
			return append([]pathSeg{{name: in.typeTextIn(aliasMod, alias.Type, subst, depth+1)}}, segs[k:]...), m
		}
		target := in.segsIn(aliasMod, alias.Type.Path, subst, depth+1)
		segs = append(target, segs[k:]...)
		m = aliasMod
	}
	return segs, m
}

// aliasPrefix finds the shortest prefix of segs that names a `type` alias.
func (in *interp) aliasPrefix(m *module, segs []pathSeg) (int, *syntax.TypeAliasDecl, *module) {
	names := segNamesOf(segs)
	for k := 1; k <= len(names); k++ {
		r := in.resolveIn(m, names[:k], 0)
		if r.external != nil || r.unresolved {
			return 0, nil, nil
		}
		if r.item.alias != nil && len(r.rest) == 0 {
			return k, r.item.alias, r.item.mod
		}
		if r.item.module == nil {
			return 0, nil, nil
		}
	}
	return 0, nil, nil
}

package interp

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// module is one module of the program: the items it declares and the names
// its `use` lines bring in. Paths resolve as rustc resolves them in the 2018
// and later editions: relative to the module they are written in, through
// `crate::`, `self::` and `super::`; a first segment that names nothing in
// the module is another crate's (burn, std, ...), which the dispatch model
// and the standard library take from there.
type module struct {
	name   string
	parent *module
	// crate is set for the root of a crate linked into the program (the
	// package's library, as its binaries see it): `crate::` inside it
	// names it.
	crate bool
	// linked is set inside such a crate: a test build of the binary
	// builds it as `cargo run` does, without cfg(test).
	linked bool
	// block is set for the anonymous module of a block's items (rustc's
	// model of `fn f() { struct S; .. }`): its items shadow the enclosing
	// scope's inside the block, a name it lacks is looked up in the
	// enclosing module, and `self::` and `super::` count from that module.
	block bool

	fns     map[string]*syntax.FnDecl
	types   map[string]*syntax.StructDecl
	traits  map[string]*syntax.TraitDecl
	aliases map[string]*syntax.TypeAliasDecl
	consts  map[string]*constItem
	mods    map[string]*module
	// uses maps a name to the path its `use` names, as written in this
	// module; externs maps an `extern crate` name to its crate.
	uses    map[string][]string
	globs   [][]string
	externs map[string]string
}

func newModule(name string, parent *module) *module {
	return &module{name: name, parent: parent}
}

// put stores v under name in *m, making the map when first written.
func put[V any](m *map[string]V, name string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[name] = v
}

// constItem is a `const` or `static` item; its value is computed the first
// time it is read, in the module it is declared in.
type constItem struct {
	decl  *syntax.ConstDecl
	mod   *module
	value value
	busy  bool
}

// itemRef is what a path names in the program.
type itemRef struct {
	mod    *module // the module the item is declared in
	fn     *syntax.FnDecl
	typ    *syntax.StructDecl
	trait  *syntax.TraitDecl
	alias  *syntax.TypeAliasDecl
	konst  *constItem
	module *module // set when the path names a module
}

func (r itemRef) found() bool {
	return r.fn != nil || r.typ != nil || r.trait != nil || r.alias != nil || r.konst != nil || r.module != nil
}

// resolution is the outcome of resolving a path: a program item followed by
// the segments that name something inside it (an associated function, an
// enum variant), or a path into another crate.
type resolution struct {
	item     itemRef
	rest     []string
	external []string
	// unresolved is set when the path starts in the program (crate::,
	// self::, super::, a module) but names nothing there.
	unresolved bool
}

// maxResolveDepth bounds the `use` chains followed while resolving one
// path, so that `use a::b; use b::a;` ends.
const maxResolveDepth = 32

// declareIn records items in m, building the tree of inline modules.
func (in *interp) declareIn(m *module, items []syntax.Item) {
	in.lookups = nil
	build := in.build
	if m.linked {
		build = build.Test(false)
	}
	for _, it := range items {
		if !build.Compiled(itemAttrs(it)) {
			in.noteCfgOff(itemAttrs(it))
			continue
		}
		switch it := it.(type) {
		case *syntax.FnDecl:
			put(&m.fns, it.Name, it)
			in.fnMod[it] = m
		case *syntax.TraitDecl:
			put(&m.traits, it.Name, it)
			in.traits[it.Name] = it
			for _, fn := range it.Methods {
				in.fnMod[fn] = m
			}
		case *syntax.ImplDecl:
			in.impls = append(in.impls, it)
			in.implMod[it] = m
			for _, fn := range it.Methods {
				in.fnMod[fn] = m
				in.fnImpl[fn] = it
			}
		case *syntax.StructDecl:
			put(&m.types, it.Name, it)
			in.structs[it.Name] = it
			in.typeMod[it.Name] = m
		case *syntax.TypeAliasDecl:
			put(&m.aliases, it.Name, it)
		case *syntax.ConstDecl:
			put(&m.consts, it.Name, &constItem{decl: it, mod: m})
		case *syntax.ExternCrateDecl:
			name := it.Name
			if it.Alias != "" {
				name = it.Alias
			}
			if name != "_" {
				put(&m.externs, name, it.Name)
			}
		case *syntax.UseDecl:
			in.declareUse(m, it)
		case *syntax.ModDecl:
			child := m.mods[it.Name]
			if child == nil {
				child = newModule(it.Name, m)
				put(&m.mods, it.Name, child)
			}
			if it.Crate {
				child.crate = true
				put(&in.crates, it.Name, child)
			}
			child.linked = m.linked || it.Crate
			in.declareIn(child, it.Items)
		}
	}
}

// declareUse records the names a `use` item brings into m.
func (in *interp) declareUse(m *module, d *syntax.UseDecl) {
	for _, leaf := range d.Leaves {
		segs := splitPath(leaf.Path)
		if len(segs) == 0 {
			continue
		}
		if leaf.Glob {
			m.globs = append(m.globs, segs[:len(segs)-1])
			continue
		}
		name := segs[len(segs)-1]
		if leaf.Alias != "" {
			name = leaf.Alias
		}
		if name != "_" {
			put(&m.uses, name, segs)
		}
		in.checkBurnImport(segs, leaf)
	}
}

// checkBurnImport reports rustc's E0432 for a `use` of a burn-tensor path
// that Burn does not export, as burnapi's table of its re-exports tells
// (`use burn::tensor::PadMode`: PadMode is burn::tensor::ops::PadMode), with
// rustc's suggestion of the paths that do export the name.
func (in *interp) checkBurnImport(segs []string, leaf syntax.UseLeaf) {
	switch segs[0] {
	case "burn", "burn_tensor", "burn_core":
	default:
		return
	}
	if in.crates[segs[0]] != nil || in.mod != nil && in.mod.mods[segs[0]] != nil {
		return // the program's own module of that name
	}
	instead, ok := burnapi.Default().Unexported(segs)
	if !ok {
		return
	}
	d := diag.Diagnostic{Code: "unresolved-import", Severity: diag.Error, Phase: diag.Check, File: diag.MainRS, Range: leaf.Range,
		Message: fmt.Sprintf("unresolved import `%s`", strings.Join(segs, "::"))}
	switch len(instead) {
	case 0:
	case 1:
		d.Help = []string{fmt.Sprintf("consider importing this %s instead: `%s`", instead[0].KindWord(), instead[0].Path)}
	default:
		d.Help = []string{"consider importing one of these items instead:"}
		for _, i := range instead {
			d.Help = append(d.Help, "`"+i.Path+"`")
		}
	}
	for _, i := range instead {
		if in.src.Slice(leaf.Range) == leaf.Path { // not a leaf of a `{..}` tree
			d.Fixes = append(d.Fixes, diag.Fix{Title: "Import `" + i.Path + "`", Edits: []diag.Edit{{File: diag.MainRS, Range: leaf.Range, NewText: i.Path}}})
		}
	}
	in.report(d)
}

// lookupKey names one lookup, for the cache of lookups and the guard
// against cycles through glob imports.
type lookupKey struct {
	m    *module
	name string
}

type lookupResult struct {
	r  resolution
	ok bool
}

// lookupIn finds name among the items, imports and glob imports of m. The
// answers are remembered until the program declares more items; a lookup
// that needs itself (a glob import whose path goes through the globs of its
// own module) finds nothing there, as in rustc.
func (in *interp) lookupIn(m *module, name string, depth int) (resolution, bool) {
	if m == nil || depth > maxResolveDepth {
		return resolution{}, false
	}
	key := lookupKey{m, name}
	if res, ok := in.lookups[key]; ok {
		return res.r, res.ok
	}
	if in.looking[key] {
		in.lookupCycle = true
		return resolution{}, false
	}
	if in.looking == nil {
		in.looking = map[lookupKey]bool{}
	}
	in.looking[key] = true
	r, ok := in.lookupUncached(m, name, depth)
	delete(in.looking, key)
	// An answer that met a cycle depends on where the lookup started:
	// only the outermost one is remembered.
	if !in.lookupCycle || len(in.looking) == 0 {
		if in.lookups == nil {
			in.lookups = map[lookupKey]lookupResult{}
		}
		in.lookups[key] = lookupResult{r, ok}
	}
	if len(in.looking) == 0 {
		in.lookupCycle = false
	}
	return r, ok
}

func (in *interp) lookupUncached(m *module, name string, depth int) (resolution, bool) {
	// Rust keeps types and values in two namespaces: `struct Foo` and
	// `fn Foo` may both exist, and the path's use decides which it names.
	ref := itemRef{mod: m, fn: m.fns[name], typ: m.types[name], alias: m.aliases[name],
		trait: m.traits[name], konst: m.consts[name], module: m.mods[name]}
	if ref.found() {
		return resolution{item: ref}, true
	}
	if crate, ok := m.externs[name]; ok {
		return resolution{external: []string{externCrate(crate)}}, true
	}
	if path, ok := m.uses[name]; ok {
		return in.resolveIn(m, path, depth+1), true
	}
	for _, glob := range m.globs {
		target := in.resolveIn(m, glob, depth+1)
		if target.item.module != nil && len(target.rest) == 0 {
			if r, ok := in.lookupIn(target.item.module, name, depth+1); ok {
				return r, true
			}
		}
	}
	if m.block {
		return in.lookupIn(m.parent, name, depth+1)
	}
	return resolution{}, false
}

// named is m, or the module a block module is written in.
func named(m *module) *module {
	for m != nil && m.block {
		m = m.parent
	}
	return m
}

// externCrate is the crate a program names: `alloc` and `core` are parts of
// std, which a std build links.
func externCrate(name string) string {
	switch name {
	case "alloc", "core":
		return "std"
	}
	return name
}

// resolveIn resolves a path written in module m.
func (in *interp) resolveIn(m *module, segs []string, depth int) resolution {
	if len(segs) == 0 || depth > maxResolveDepth {
		return resolution{external: segs}
	}
	cur, i := m, 0
	switch segs[0] {
	case "crate":
		cur, i = in.crateOf(m), 1
	case "self":
		cur, i = named(m), 1
	case "super":
		cur = named(cur)
		for i < len(segs) && segs[i] == "super" {
			if cur.parent != nil {
				cur = named(cur.parent)
			}
			i++
		}
	}
	if i == len(segs) {
		return resolution{item: itemRef{mod: cur, module: cur}}
	}
	var r resolution
	if i == 0 {
		found, ok := in.lookupIn(cur, segs[0], depth)
		if lib := in.crates[segs[0]]; !ok && lib != nil {
			found, ok = resolution{item: itemRef{mod: lib.parent, module: lib}}, true
		}
		if !ok {
			// Another crate: the extern prelude.
			out := append([]string{}, segs...)
			out[0] = externCrate(out[0])
			return resolution{external: out}
		}
		r = found
	} else {
		found, ok := in.lookupIn(cur, segs[i], depth)
		if !ok {
			return resolution{unresolved: true, rest: segs[i:]}
		}
		r = found
	}
	i++
	for ; i < len(segs); i++ {
		if r.external != nil {
			r.external = append(append([]string{}, r.external...), segs[i:]...)
			return r
		}
		if r.item.module == nil || len(r.rest) > 0 {
			break
		}
		next, ok := in.lookupIn(r.item.module, segs[i], depth)
		if !ok {
			return resolution{unresolved: true, rest: segs[i:]}
		}
		r = next
	}
	if i < len(segs) {
		r.rest = append(append([]string{}, r.rest...), segs[i:]...)
	}
	return r
}

// constValue reads a const or static item, computing it the first time in
// the module that declares it. A const whose value needs itself is rustc's
// E0391.
func (in *interp) constValue(c *constItem, r source.Range) (value, *signal) {
	if c.value != nil {
		return c.value, nil
	}
	if c.decl.Value == nil {
		return unknown, nil
	}
	if c.busy {
		in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
			Message: fmt.Sprintf("cycle detected when const-evaluating `%s`", c.decl.Name), File: diag.MainRS, Range: r})
		return unknown, nil
	}
	c.busy = true
	defer func() { c.busy = false }()
	saved, savedMod := in.scope, in.mod
	in.scope = in.root()
	if c.mod != nil {
		in.mod = c.mod
	}
	expect := in.typeText(c.decl.Type)
	v, sig := in.exprExpect(c.decl.Value, expect)
	in.scope, in.mod = saved, savedMod
	if sig != nil {
		return nil, sig
	}
	v = typedLiteral(v, expect)
	if !isUnknown(v) {
		c.value = v
	}
	return v, nil
}

// assocConst finds `Type::NAME` among the consts of the program's impls of
// typ, with the module of the impl.
func (in *interp) assocConst(typ, name string) (*syntax.ConstDecl, *module) {
	for _, im := range in.impls {
		if im.For == nil || lastSeg(im.For) != typ {
			continue
		}
		for _, it := range im.Assoc {
			if c, ok := it.(*syntax.ConstDecl); ok && c.Name == name {
				return c, in.implMod[im]
			}
		}
	}
	return nil, nil
}

// itemAttrs are the outer attributes of an item.
func itemAttrs(it syntax.Item) []*syntax.Attr {
	switch it := it.(type) {
	case *syntax.FnDecl:
		return it.Attrs
	case *syntax.TraitDecl:
		return it.Attrs
	case *syntax.ImplDecl:
		return it.Attrs
	case *syntax.StructDecl:
		return it.Attrs
	case *syntax.TypeAliasDecl:
		return it.Attrs
	case *syntax.ConstDecl:
		return it.Attrs
	case *syntax.ExternCrateDecl:
		return it.Attrs
	case *syntax.UseDecl:
		return it.Attrs
	case *syntax.ModDecl:
		return it.Attrs
	}
	return nil
}

// callAssoc calls `Type::name(args)` or `Trait::name(args)` for a type or
// trait of the program. A method called through a path takes its receiver
// as the first argument (`Trait::check(&x)`), and a trait's method is the
// one the receiver's type implements, or the trait's default.
func (in *interp) callAssoc(typ string, trait bool, name string, args []value, r source.Range) (value, *signal, bool) {
	var fn *syntax.FnDecl
	if trait && in.isExtensionTrait(typ) {
		// Its methods are Burn's generated dispatch, not the trait's bodies.
		return nil, nil, false
	}
	if trait {
		if len(args) > 0 {
			if en, ok := dispatch.Deref(args[0]).(*dispatch.Enum); ok {
				fn = in.implOrDefault(typ, en.Type, name)
			}
		}
		if fn == nil {
			fn = in.traitDefault(typ, name)
		}
	} else {
		fn = in.assocFn(typ, name)
	}
	if fn == nil {
		return nil, nil, false
	}
	if len(fn.Params) > 0 && fn.Params[0].Self && len(args) > 0 {
		v, sig := in.callUserSelf(fn, args[0], args[1:], r)
		return v, sig, true
	}
	v, sig := in.callUser(fn, args, r)
	return v, sig, true
}

// implOrDefault is the method name of typ's impl of trait, or the
// trait's default when the impl does not override it.
func (in *interp) implOrDefault(trait, typ, name string) *syntax.FnDecl {
	if m := in.traitMethod(typ, trait, name); m != nil {
		return m
	}
	if in.implemented(trait, typ) {
		return in.traitDefault(trait, name)
	}
	return nil
}

// traitDefault is the default method name of the program's trait, nil when
// the trait has none of that name with a body.
func (in *interp) traitDefault(trait, name string) *syntax.FnDecl {
	if t := in.traits[trait]; t != nil {
		for _, m := range t.Methods {
			if m.Name == name && m.Body != nil {
				return m
			}
		}
	}
	return nil
}

// selfOf is the type `Self` names in a trait's default method called on
// self: the receiver's type, with the module that declares it.
func (in *interp) selfOf(self value) (*syntax.Type, *module) {
	en, ok := dispatch.Deref(self).(*dispatch.Enum)
	if !ok || in.typeMod[en.Type] == nil {
		return nil, nil
	}
	return &syntax.Type{Kind: syntax.TypePath, Text: en.Type, Path: []syntax.PathSegment{{Name: en.Type}}}, in.typeMod[en.Type]
}

// stmtAttrs are the outer attributes of a statement.
func stmtAttrs(s syntax.Stmt) []*syntax.Attr {
	switch s := s.(type) {
	case *syntax.LetStmt:
		return s.Attrs
	case *syntax.ExprStmt:
		return s.Attrs
	}
	return nil
}

// crateOf is the root of the crate m belongs to.
func (in *interp) crateOf(m *module) *module {
	for ; m != nil; m = m.parent {
		if m.crate || m.parent == nil {
			return m
		}
	}
	return in.rootMod
}

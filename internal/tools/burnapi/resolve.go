package main

import (
	"path"
	"sort"
	"strings"
)

// The module tree of each crate read, and the public names of each module
// as rustc resolves them: declared `pub` items, `pub mod`s, and `pub use`
// re-exports (named and glob), across crates.

type crate struct {
	name string // burn_tensor
	pkg  string // burn-tensor
	root *module
	mods []*module // every module, in reading order
}

type module struct {
	crate    *crate
	path     []string // inside the crate
	file     string   // the file holding its items
	dir      string   // where its child modules' files are
	cfg      cfg      // cumulative over the declarations
	items    []*item
	children map[string]*module
	parent   *module
	exports  map[string][]binding // memoised public names
	busy     bool
}

// binding is what a name of a module denotes.
type binding struct {
	item     *item
	mod      *module
	owner    *module // the module declaring the item
	external string  // a path into a crate that is not read
	cfg      cfg     // the cfgs of the re-exports on the way
}

type world struct {
	src     reader
	crates  map[string]*crate
	missing []string
}

// load reads a crate's module tree from its src/lib.rs.
func (w *world) load(name, pkg, dir string) *crate {
	c := &crate{name: name, pkg: pkg}
	w.crates[name] = c
	c.root = w.loadModule(c, nil, nil, dir+"/src/lib.rs", dir+"/src", cfg{})
	return c
}

func (w *world) loadModule(c *crate, parent *module, modPath []string, file, dir string, cf cfg) *module {
	text, err := w.src.read(file)
	if err != nil {
		w.missing = append(w.missing, file)
		text = ""
	}
	p := &parser{src: text, toks: lex(text)}
	items := p.parseItems()
	qualify(items, c.pkg)
	return w.buildModule(c, parent, modPath, file, dir, cf, items)
}

func (w *world) buildModule(c *crate, parent *module, modPath []string, file, dir string, cf cfg, items []*item) *module {
	m := &module{crate: c, path: modPath, file: file, dir: dir, cfg: cf, items: items, children: map[string]*module{}, parent: parent}
	c.mods = append(c.mods, m)
	for _, it := range items {
		if it.kind != "mod" || it.cfg.test {
			continue
		}
		childPath := append(append([]string{}, modPath...), it.name)
		if it.inline {
			m.children[it.name] = w.buildModule(c, m, childPath, file, dir+"/"+it.name, cf.and(it.cfg), it.items)
			continue
		}
		f := dir + "/" + it.name + ".rs"
		childDir := dir + "/" + it.name
		if !w.src.exists(f) {
			f = dir + "/" + it.name + "/mod.rs"
		}
		m.children[it.name] = w.loadModule(c, m, childPath, f, childDir, cf.and(it.cfg))
	}
	return m
}

// childDirOf: a file `a/b.rs` keeps its children in `a/b/`; `mod.rs` and
// `lib.rs` in their own directory. buildModule is given the right one.
var _ = path.Dir

// declared are the names a module declares itself, public or not.
func (m *module) declared(name string) []binding {
	var out []binding
	for _, it := range m.items {
		if it.cfg.test || it.name != name {
			continue
		}
		switch it.kind {
		case "fn", "struct", "enum", "trait", "const", "static", "type", "macro":
			out = append(out, binding{item: it, owner: m})
		}
	}
	if ch, ok := m.children[name]; ok {
		out = append(out, binding{mod: ch})
	}
	return out
}

// resolve finds a path as a `use` in module m names it.
func (w *world) resolve(m *module, p []string) []binding {
	if len(p) == 0 {
		return nil
	}
	var cur []binding
	first := p[0]
	switch first {
	case "crate":
		cur = []binding{{mod: m.crate.root}}
	case "self":
		cur = []binding{{mod: m}}
	case "super":
		if m.parent != nil {
			cur = []binding{{mod: m.parent}}
		}
	default:
		cur = w.lookup(m, first, true)
		if len(cur) == 0 {
			if c, ok := w.crates[first]; ok {
				cur = []binding{{mod: c.root}}
			} else {
				return []binding{{external: strings.Join(p, "::")}}
			}
		}
	}
	for i, seg := range p[1:] {
		var next []binding
		for _, b := range cur {
			switch {
			case b.external != "":
				return []binding{{external: b.external + "::" + strings.Join(p[i+1:], "::")}}
			case seg == "super" && b.mod != nil && b.mod.parent != nil:
				next = append(next, binding{mod: b.mod.parent, cfg: b.cfg})
			case b.mod != nil:
				for _, nb := range w.lookup(b.mod, seg, b.mod.crate == m.crate) {
					nb.cfg = b.cfg.and(nb.cfg)
					next = append(next, nb)
				}
			}
		}
		cur = next
	}
	return cur
}

// lookup is a name of module m: what it declares (private names only from
// inside its crate), then its re-exports.
func (w *world) lookup(m *module, name string, inside bool) []binding {
	var out []binding
	for _, b := range m.declared(name) {
		if inside || b.item == nil || b.item.pub {
			if b.mod != nil && !inside && !w.modPub(m, name) {
				continue
			}
			out = append(out, b)
		}
	}
	if len(out) > 0 {
		return out
	}
	if bs, ok := w.exportsOf(m)[name]; ok {
		return bs
	}
	if inside {
		// A private `use` of the module names it too.
		for _, it := range m.items {
			if it.kind != "use" || it.pub || it.cfg.test {
				continue
			}
			for _, u := range it.uses {
				if !u.glob && u.alias != "_" && (u.alias == name || u.alias == "" && u.path[len(u.path)-1] == name) {
					for _, b := range w.resolve(m, u.path) {
						b.cfg = it.cfg.and(b.cfg)
						out = append(out, b)
					}
				}
			}
		}
		if len(out) > 0 || m.busy {
			return out
		}
		// A private glob (`pub(crate) use ops::*;`) names what its module
		// declares, inside the crate.
		m.busy = true
		defer func() { m.busy = false }()
		for _, it := range m.items {
			if it.kind != "use" || it.pub || it.cfg.test {
				continue
			}
			for _, u := range it.uses {
				if !u.glob {
					continue
				}
				for _, t := range w.resolve(m, u.path) {
					if t.mod == nil || t.mod.crate != m.crate {
						continue
					}
					for _, b := range w.lookup(t.mod, name, true) {
						b.cfg = it.cfg.and(b.cfg)
						out = append(out, b)
					}
				}
			}
		}
	}
	return out
}

func (w *world) modPub(m *module, name string) bool {
	for _, it := range m.items {
		if it.kind == "mod" && it.name == name && it.pub {
			return true
		}
	}
	return false
}

// exportsOf are the public names of a module.
func (w *world) exportsOf(m *module) map[string][]binding {
	if m.exports != nil {
		return m.exports
	}
	if m.busy {
		return nil
	}
	m.busy = true
	out := map[string][]binding{}
	add := func(name string, b binding) {
		for _, old := range out[name] {
			if old.item == b.item && old.mod == b.mod && old.external == b.external {
				return
			}
		}
		out[name] = append(out[name], b)
	}
	for _, it := range m.items {
		if it.cfg.test {
			continue
		}
		switch it.kind {
		case "fn", "struct", "enum", "trait", "const", "static", "type":
			if it.pub {
				add(it.name, binding{item: it, owner: m})
			}
		case "macro":
			// #[macro_export] puts a macro at its crate's root.
		case "mod":
			if it.pub && m.children[it.name] != nil {
				add(it.name, binding{mod: m.children[it.name]})
			}
		}
	}
	if m == m.crate.root {
		for _, mm := range m.crate.mods {
			for _, it := range mm.items {
				if it.kind == "macro" && it.exported && !it.cfg.test {
					add(it.name, binding{item: it, owner: mm})
				}
			}
		}
	}
	// Named re-exports shadow glob re-exports.
	named := map[string]bool{}
	for _, it := range m.items {
		if it.kind != "use" || !it.pub || it.cfg.test {
			continue
		}
		for _, u := range it.uses {
			if u.glob || len(u.path) == 0 {
				continue
			}
			name := u.alias
			last := u.path[len(u.path)-1]
			p := u.path
			if last == "self" {
				p = p[:len(p)-1]
				last = p[len(p)-1]
			}
			if name == "" {
				name = last
			}
			if name == "_" {
				continue
			}
			for _, b := range w.resolve(m, p) {
				b.cfg = it.cfg.and(b.cfg)
				add(name, b)
				named[name] = true
			}
		}
	}
	for _, it := range m.items {
		if it.kind != "use" || !it.pub || it.cfg.test {
			continue
		}
		for _, u := range it.uses {
			if !u.glob {
				continue
			}
			for _, target := range w.resolve(m, u.path) {
				if target.mod == nil {
					if target.external != "" {
						add("*"+target.external, binding{external: target.external + "::*", cfg: it.cfg})
					}
					continue
				}
				for name, bs := range w.exportsOf(target.mod) {
					if named[name] || len(out[name]) > 0 && !strings.HasPrefix(name, "*") && declaredHere(out[name], m) {
						continue
					}
					for _, b := range bs {
						b.cfg = it.cfg.and(target.cfg).and(b.cfg)
						add(name, b)
					}
				}
			}
		}
	}
	m.busy = false
	m.exports = out
	return out
}

func declaredHere(bs []binding, m *module) bool {
	for _, b := range bs {
		if b.owner == m {
			return true
		}
	}
	return false
}

// reached is a public item found from a crate root, at its shortest path.
type reached struct {
	path  string // the module path it is reached at: burn_tensor::linalg
	name  string // the name it is reached by
	b     binding
	depth int
	from  *module // the module whose public names hold it
}

// walk lists every public item of a crate by its shortest public path,
// and the public modules.
func (w *world) walk(c *crate) (items []reached, mods map[*module]string) {
	items, mods, _ = w.walkGated(c)
	return items, mods
}

// walkGated is walk with the cfg each public module is reached under:
// the gates of the modules and re-exports on its shortest path.
func (w *world) walkGated(c *crate) (items []reached, mods map[*module]string, gates map[*module]cfg) {
	mods = map[*module]string{c.root: c.name}
	gates = map[*module]cfg{c.root: {}}
	type entry struct {
		m    *module
		path string
		cfg  cfg
	}
	queue := []entry{{c.root, c.name, cfg{}}}
	seen := map[*item]bool{}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		ex := w.exportsOf(e.m)
		names := make([]string, 0, len(ex))
		for n := range ex {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			for _, b := range ex[n] {
				b.cfg = e.cfg.and(b.cfg)
				switch {
				case b.mod != nil:
					if _, ok := mods[b.mod]; !ok {
						mods[b.mod] = e.path + "::" + n
						gates[b.mod] = b.cfg.and(b.mod.cfg)
						queue = append(queue, entry{b.mod, e.path + "::" + n, b.cfg.and(b.mod.cfg)})
					}
				case b.item != nil:
					if seen[b.item] {
						continue
					}
					seen[b.item] = true
					items = append(items, reached{path: e.path, name: n, b: b, from: e.m})
				case b.external != "":
					items = append(items, reached{path: e.path, name: n, b: b, from: e.m})
				}
			}
		}
	}
	return items, mods, gates
}

// qualify names every feature of a cfg by its crate, burn-tensor's
// excepted (burn-std/std): the gates of one item may come from two crates.
func qualify(items []*item, pkg string) {
	if pkg == "burn-tensor" {
		return
	}
	for _, it := range items {
		it.cfg.expr = qualifyExpr(it.cfg.expr, pkg)
		for i := range it.variants {
			it.variants[i].cfg.expr = qualifyExpr(it.variants[i].cfg.expr, pkg)
		}
		qualify(it.items, pkg)
	}
}

func qualifyExpr(expr, pkg string) string {
	if expr == "" {
		return ""
	}
	var b strings.Builder
	word := ""
	flush := func() {
		if word != "" && !strings.Contains(word, "=") && word != "test" {
			b.WriteString(pkg + "/" + word)
		} else {
			b.WriteString(word)
		}
		word = ""
	}
	for _, r := range expr {
		switch r {
		case '&', '|', '!', '(', ')':
			flush()
			b.WriteRune(r)
		default:
			word += string(r)
		}
	}
	flush()
	return b.String()
}

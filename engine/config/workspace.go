package config

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

// A package is rarely alone: Burn's own examples, like most projects,
// inherit their dependencies from a workspace and use a sibling crate by
// path. Cargo then reads other manifests than the package's: the
// workspace root's, for what a `workspace = true` key inherits, and each
// path dependency's, whose requests of burn Cargo unifies with the
// package's own (one build of burn serves the whole dependency graph). A
// request may carry those manifests as files, at their paths from the
// package's root ("../../Cargo.toml", "../guide/Cargo.toml"); what it does
// not carry stays unknown, and the diagnostics say so.

// Manifests maps the path of a manifest, from the package's root, to its
// text.
type Manifests map[string]string

// PathCrate is a path dependency whose manifest the request carries.
type PathCrate struct {
	// Name is the crate as Rust code names it: the key it is declared
	// under, `-` written `_`.
	Name string
	// Dir is its folder from the package's root: "../guide".
	Dir string
	// Package is its [package] table and its features that are on.
	Package Package
}

// Limits of the manifests read besides the package's: how far up a
// workspace root is looked for, and how deep path dependencies nest.
const (
	maxWorkspaceLevels = 8
	maxPathDepth       = 8
)

// manifestSet is what every parser of one ParseIn call shares.
type manifestSet struct {
	texts Manifests
	// visiting holds the folders of the packages being read, so that a
	// cycle of path dependencies ends.
	visiting map[string]bool
	// missing are the manifests of path dependencies that were looked for
	// and are not in texts.
	missing map[string]bool
}

// workspace is the root manifest of the package's workspace.
type workspace struct {
	file string // its path from the package's root
	deps map[string]*dependency
	pkg  *table // [workspace.package], or nil
}

// ParseIn reads a Cargo.toml the way Parse does, with the other manifests
// of its workspace and its path dependencies that others holds.
func ParseIn(text string, others Manifests) (*Config, diag.List) {
	if len(others) == 0 {
		return Parse(text)
	}
	return parseIn(text, newManifestSet(others))
}

// MissingManifests lists the manifests of the path dependencies that
// reading text with others would read and others lacks, by path from the
// package's root, sorted: what a reader of a folder on disk adds next.
func MissingManifests(text string, others Manifests) []string {
	set := newManifestSet(others)
	parseIn(text, set)
	return slices.Sorted(maps.Keys(set.missing))
}

func newManifestSet(texts Manifests) *manifestSet {
	if texts == nil {
		texts = Manifests{}
	}
	return &manifestSet{texts: texts, visiting: map[string]bool{"": true}, missing: map[string]bool{}}
}

// parseIn reads text with the other manifests of set (nil for none).
func parseIn(text string, set *manifestSet) (*Config, diag.List) {
	doc, d := readDocument(text)
	if d != nil {
		return unreadable(*d)
	}
	p := &parser{doc: doc, set: set}
	c := build(p, len(doc.root.names) == 0)
	p.diags.Sort()
	return c, p.diags
}

// child is a parser of the manifest at file, whose package is in dir; the
// diagnostics it adds name that file. ok is false when the text cannot be
// read: its one diagnostic is then added to p.
func (p *parser) child(file, dir string) (*parser, bool) {
	doc, d := readDocument(p.set.texts[file])
	if d != nil {
		d.File = file
		p.add(*d)
		return nil, false
	}
	return &parser{doc: doc, set: p.set, dir: dir, file: file, depth: p.depth + 1}, true
}

// adopt adds the diagnostics of a child parser to p's.
func (p *parser) adopt(c *parser) {
	for _, d := range c.diags {
		if d.File == diag.CargoToml {
			d.File = c.file
		}
		p.add(d)
	}
}

// findWorkspace looks for the workspace root as Cargo does: the package's
// own manifest if it has a [workspace] table, else the nearest manifest
// with one in the folders above it.
func (p *parser) findWorkspace() *workspace {
	if v := p.doc.root.get("workspace"); v != nil && v.kind == kindTable {
		return p.readWorkspace(p, p.file)
	}
	if p.set == nil {
		return nil
	}
	for up := 1; up <= maxWorkspaceLevels; up++ {
		file := path.Join(append([]string{p.dir}, append(repeat("..", up), "Cargo.toml")...)...)
		if _, ok := p.set.texts[file]; !ok {
			continue
		}
		c, ok := p.child(file, path.Dir(file))
		if !ok {
			return nil
		}
		if v := c.doc.root.get("workspace"); v == nil || v.kind != kindTable {
			continue
		}
		ws := p.readWorkspace(c, file)
		p.adopt(c)
		return ws
	}
	return nil
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// readWorkspace reads the [workspace] table of the manifest c parses.
func (p *parser) readWorkspace(c *parser, file string) *workspace {
	if file == "" {
		file = diag.CargoToml
	}
	ws := &workspace{file: file, deps: map[string]*dependency{}}
	t := c.doc.root.get("workspace").table
	if v := t.get("package"); v != nil && v.kind == kindTable {
		ws.pkg = v.table
	}
	if v := t.get("dependencies"); v != nil && v.kind == kindTable {
		for _, name := range v.table.names {
			if d := c.readDependency("workspace.dependencies", name, v.table.get(name)); d != nil {
				ws.deps[name] = d
			}
		}
	}
	return ws
}

// inherit completes each `workspace = true` declaration among deps from
// the workspace's: its package, version, source and features, with the
// declaration's own features added, as Cargo merges them. Without a
// workspace manifest, a declaration of burn is assumed to be `0.22` with
// default features, and a warning says so.
func (p *parser) inherit(deps []*dependency) {
	ws := p.ws
	for _, d := range deps {
		if !d.workspace {
			continue
		}
		if ws == nil {
			if burnCrates[d.pkg] {
				p.add(warnWorkspace(d.name, d.value.span))
			}
			continue
		}
		from, ok := ws.deps[d.name]
		if !ok {
			p.add(errNotInWorkspace(d.name, ws.file, d.value.span))
			d.workspace = false
			continue
		}
		d.pkg = from.pkg
		d.version = from.version
		d.local = from.local
		if from.path != "" {
			// A path in the workspace's manifest is from the workspace's
			// folder, wherever the declaration's manifest is.
			d.path, d.pathFromRoot = path.Join(path.Dir(ws.file), from.path), true
		}
		// Cargo turns default features on when either declaration does
		// not turn them off; the workspace's `false` lets a member ask.
		d.defaultFeatures = from.defaultFeatures || d.explicitDefault
		for _, f := range from.features {
			if f.valid {
				d.inherited = append(d.inherited, f.name)
			}
		}
	}
}

// inheritedString is the [package] key named key when it is written
// `key.workspace = true`: the workspace's [workspace.package] value.
func (p *parser) inheritedString(key string, v *value) (string, bool) {
	if v == nil || v.kind != kindTable || p.ws == nil || p.ws.pkg == nil {
		return "", false
	}
	if w := v.table.get("workspace"); w == nil || w.kind != kindBool || w.text != "true" {
		return "", false
	}
	if s := p.ws.pkg.get(key); s != nil && s.kind == kindString {
		return s.text, true
	}
	return "", false
}

// pathCrates reads the path dependencies among deps whose manifests the
// request carries, resolves each with the features this package's
// resolver r asks of it, and enables in r what they enable in Burn's
// crates. It returns them, and theirs, in the order of deps.
func (p *parser) pathCrates(r *resolver, deps []*dependency) []PathCrate {
	if p.set == nil || p.depth >= maxPathDepth {
		return nil
	}
	var out []PathCrate
	for _, d := range deps {
		if d.path == "" || burnCrates[d.pkg] || strings.HasPrefix(d.pkg, "burn") {
			continue
		}
		if d.optional && !r.activeDeps[d.name] {
			continue
		}
		dir := path.Join(p.dir, d.path)
		if d.pathFromRoot {
			dir = path.Clean(d.path)
		}
		file := path.Join(dir, "Cargo.toml")
		if _, ok := p.set.texts[file]; !ok {
			p.set.missing[file] = true
			continue
		}
		if p.set.visiting[dir] {
			continue
		}
		c, ok := p.child(file, dir)
		if !ok {
			continue
		}
		p.set.visiting[dir] = true
		asked := []string{}
		for _, f := range d.features {
			asked = append(asked, f.name)
		}
		for key := range r.enabled {
			if f, ok := strings.CutPrefix(key, d.pkg+"/"); ok {
				asked = append(asked, f)
			}
		}
		sort.Strings(asked)
		enabled, pkg, nested := c.resolveAs(d.defaultFeatures, asked)
		delete(p.set.visiting, dir)
		p.adopt(c)
		for _, key := range enabled {
			r.enable(key)
		}
		r.drain()
		out = append(out, PathCrate{Name: strings.ReplaceAll(d.name, "-", "_"), Dir: dir, Package: pkg})
		out = append(out, nested...)
	}
	return out
}

// resolveAs reads the manifest c parses as a dependency's: the features
// it turns on in Burn's crates (sorted), its package, and its own path
// dependencies.
func (c *parser) resolveAs(withDefault bool, features []string) ([]string, Package, []PathCrate) {
	c.env = map[string]*value{}
	c.checkTopLevel()
	deps := c.readDependencies()
	c.ws = c.findWorkspace()
	c.inherit(deps)
	own := c.readOwnFeatures(deps)
	r := newResolver(burnGraph, own, deps)
	r.runAs(withDefault, features)
	nested := c.pathCrates(r, deps)
	var enabled []string
	for key := range r.enabled {
		if !strings.HasPrefix(key, selfCrate+"/") {
			enabled = append(enabled, key)
		}
	}
	sort.Strings(enabled)
	pkg := c.readPackage(r)
	pkg.Crates = crateNames(deps)
	return enabled, pkg, nested
}

func errNotInWorkspace(dep, file string, span source.Range) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeInvalidDependency, span,
		fmt.Sprintf("error inheriting `%s` from workspace root manifest's `workspace.dependencies.%s`: `dependency.%s` was not found in `workspace.dependencies` of %s", dep, dep, dep, file))
}

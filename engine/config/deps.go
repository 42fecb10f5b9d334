package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/similar"
)

// burnCrates are the packages whose declarations decide the dispatch
// features. burn-nn's features are kept as opaque keys: the graph does not
// describe it.
var burnCrates = map[string]bool{"burn": true, "burn-core": true, "burn-tensor": true, "burn-dispatch": true, "burn-nn": true}

// ModelledCrates are the crates besides Burn's whose items the engine
// models, as far as Burn programs use them (the log and tracing macros,
// derive-new's derive, half's types, ...). A call into any other crate
// the package depends on is a playground-unmodelled boundary.
var ModelledCrates = map[string]bool{"std": true, "core": true, "alloc": true, "num_traits": true, "half": true, "iroh": true,
	"log": true, "tracing": true, "derive_new": true}

// Foreign reports whether the package depends on the crate name (as Rust
// writes it: derive_new) and the engine does not model it.
func (p Package) Foreign(name string) bool {
	if strings.HasPrefix(name, "burn") || ModelledCrates[name] {
		return false
	}
	for _, c := range p.Crates {
		if c == name {
			return true
		}
	}
	return false
}

// dependencyKeys are the keys Cargo reads in a detailed dependency, but for
// the deprecated default_features, which is never suggested.
var dependencyKeys = []string{
	"version", "features", "default-features", "optional", "package", "workspace",
	"git", "branch", "tag", "rev", "path", "registry", "registry-index", "base",
	"public", "artifact", "lib", "target",
}

// dependencyTableNames are the tables whose dependencies a snippet sees: it
// runs like a Cargo example, which is built with the dev-dependencies too.
var dependencyTableNames = []string{"dependencies", "dev-dependencies", "dev_dependencies"}

// dependency is one declaration in a dependency table.
type dependency struct {
	table string // the table's dotted path: "dependencies", "target.'cfg(unix)'.dependencies"
	name  string // the key it is declared under
	pkg   string // the package: name, or `package = "..."`
	value *value
	// version is the requirement as written, empty when there is none.
	version         string
	defaultFeatures bool
	features        []featureRef
	featuresValue   *value // the features array, or nil
	optional        bool
	workspace       bool
	// path is the `path` key: a folder relative to the manifest, or to the
	// package's root when pathFromRoot (inherited from the workspace).
	path         string
	pathFromRoot bool
	// explicitDefault is set by `default-features = true` as written.
	explicitDefault bool
	// inherited are the features the workspace's declaration lists, which
	// a `workspace = true` declaration adds its own to; the workspace's
	// manifest checked them.
	inherited []string
	// local is a path or git dependency: a crate whose manifest, and so
	// what it turns on in burn, the playground does not have.
	local     bool
	target    bool // declared under [target.'cfg(...)']
	synthetic bool // the implicit `burn = "0.22"` of a Cargo.toml without burn
}

type featureRef struct {
	name  string
	at    *value
	valid bool // false when a diagnostic rejected it; it then enables nothing
}

func sortDependencies(ds []*dependency) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].value.span.Start < ds[j].value.span.Start })
}

// dependencyTables lists the dependency tables the snippet sees, with their
// paths as Cargo prints them, in document order within each kind.
func (p *parser) dependencyTables() []namedTable {
	var out []namedTable
	add := func(path string, v *value, target bool) {
		if v == nil {
			return
		}
		if v.kind != kindTable {
			p.add(errInvalidType(v, "a map"))
			return
		}
		out = append(out, namedTable{path: path, table: v.table, value: v, target: target})
	}
	root := p.doc.root
	for _, name := range dependencyTableNames {
		add(name, root.get(name), false)
	}
	targets := root.get("target")
	if targets == nil {
		return out
	}
	if targets.kind != kindTable {
		p.add(errInvalidType(targets, "a map"))
		return out
	}
	for _, cfg := range targets.table.names {
		platform := targets.table.get(cfg)
		if platform.kind != kindTable {
			p.add(errInvalidType(platform, "a map"))
			continue
		}
		for _, name := range dependencyTableNames {
			add("target."+quoteKey(cfg)+"."+name, platform.table.get(name), true)
		}
	}
	return out
}

type namedTable struct {
	path   string
	table  *table
	value  *value
	target bool
}

// quoteKey writes a key the way it must be written in a dotted path.
func quoteKey(k string) string {
	bare := k != ""
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			bare = false
		}
	}
	if bare {
		return k
	}
	return "'" + k + "'"
}

// readDependencies reads every declaration of every dependency table.
func (p *parser) readDependencies() []*dependency {
	var deps []*dependency
	for _, t := range p.dependencyTables() {
		noted := false
		for _, name := range t.table.names {
			d := p.readDependency(t.path, name, t.table.get(name))
			if d == nil {
				continue
			}
			d.target = t.target
			if d.target && burnCrates[d.pkg] && !noted {
				p.add(noteTargetDependency(t.path, t.value.span))
				noted = true
			}
			deps = append(deps, d)
		}
	}
	sortDependencies(deps)
	return deps
}

func (p *parser) readDependency(tablePath, name string, v *value) *dependency {
	d := &dependency{table: tablePath, name: name, pkg: name, value: v, defaultFeatures: true}
	switch v.kind {
	case kindString:
		d.version = v.text
	case kindTable:
		p.readDetailedDependency(d, v.table)
	default:
		p.add(errInvalidType(v, `a version string like "0.9.8" or a detailed dependency like { version = "0.9.8" }`))
		if burnCrates[name] {
			p.unreadableBurn = true
		}
		return nil
	}
	if burnCrates[d.pkg] {
		p.checkDependency(d)
	}
	return d
}

func (p *parser) readDetailedDependency(d *dependency, t *table) {
	hasSource := false
	var defaultFeatures, defaultFeaturesOld *value
	for _, key := range t.names {
		v := t.get(key)
		switch key {
		case "version", "package", "git", "branch", "tag", "rev", "path", "registry", "registry-index", "base":
			if v.kind != kindString {
				p.add(errInvalidType(v, "a string"))
				continue
			}
			switch key {
			case "version":
				d.version = v.text
				hasSource = true
			case "package":
				d.pkg = v.text
			case "git", "path", "registry-index":
				hasSource = true
				if key == "path" {
					d.path = v.text
				}
				if key != "registry-index" {
					d.local = true
				}
			}
		case "default-features", "default_features", "optional", "workspace", "public", "lib":
			if v.kind != kindBool {
				p.add(errInvalidType(v, "a boolean"))
				continue
			}
			on := v.text == "true"
			switch key {
			case "default-features":
				defaultFeatures = v
			case "default_features":
				defaultFeaturesOld = v
			case "optional":
				d.optional = on
			case "workspace":
				d.workspace = on
				hasSource = hasSource || on
			}
		case "features":
			d.featuresValue = v
			if v.kind != kindArray {
				p.add(errInvalidType(v, "a sequence"))
				d.featuresValue = nil
				continue
			}
			for _, item := range v.items {
				if item.kind != kindString {
					p.add(errInvalidType(item, "a string"))
					continue
				}
				d.features = append(d.features, featureRef{name: item.text, at: item, valid: true})
			}
		case "artifact", "target":
			// Artifact dependencies do not change features.
		default:
			suggestion, _ := similar.Name(key, dependencyKeys)
			p.add(warnUnusedManifestKey(d.table+"."+quoteKey(d.name)+"."+quoteKey(key), v.key, suggestion))
		}
	}
	switch {
	case defaultFeatures != nil:
		d.defaultFeatures = defaultFeatures.text == "true"
		d.explicitDefault = d.defaultFeatures
	case defaultFeaturesOld != nil:
		d.defaultFeatures = defaultFeaturesOld.text == "true"
	}
	if defaultFeaturesOld != nil {
		p.add(warnDeprecatedDefaultFeatures(d.name, defaultFeaturesOld.key))
	}
	if !hasSource && burnCrates[d.pkg] {
		p.add(warnNoSource(d.name, d.value.span))
	}
}

// slashFix mends `"burn-core/cuda"` in burn's features when burn has the
// feature after the slash: it is named as burn's own, or left out when the
// list names it already.
func slashFix(d *dependency, i int) *diag.Fix {
	f := d.features[i]
	name := f.name[strings.LastIndex(f.name, "/")+1:]
	if !burnGraph.known(d.pkg) || !burnGraph.hasFeature(d.pkg, name) {
		return nil
	}
	for j, g := range d.features {
		if j == i || g.name != name {
			continue
		}
		r := f.at.span
		switch {
		case i+1 < len(d.features):
			r.End = d.features[i+1].at.span.Start
		case i > 0:
			r.Start = d.features[i-1].at.span.End
		}
		fix := replaceFix(fmt.Sprintf("Remove `%s`: the list names `%s` already", f.name, name), r, "")
		return &fix
	}
	fix := replaceString(fmt.Sprintf("Use %s's own `%s` feature", d.pkg, name), f.at, name)
	return &fix
}

// checkDependency validates what a declaration of a Burn crate asks for.
func (p *parser) checkDependency(d *dependency) {
	for i := range d.features {
		f := &d.features[i]
		switch {
		case strings.HasPrefix(f.name, "dep:"):
			p.add(errDepSyntaxFeature(d.name, f.name, f.at.span))
		case strings.Contains(f.name, "/"):
			p.add(errSlashFeature(d.name, f.name, f.at.span, slashFix(d, i)))
		case burnGraph.known(d.pkg) && !burnGraph.hasFeature(d.pkg, f.name):
			p.add(errUnknownFeature(d.pkg, f.name, f.at, burnGraph.features(d.pkg)))
		default:
			continue
		}
		f.valid = false
	}
	if d.version != "" && !admitsBurnRelease(d.version) {
		at := d.value.span
		if d.value.kind == kindTable {
			if v := d.value.table.get("version"); v != nil {
				at = v.span
			}
		}
		p.add(warnBurnVersion(d.pkg, d.version, at))
	}
}

// admitsBurnRelease reports whether a version requirement can select a 0.22
// release. Only the first comparator is read, and comparisons other than
// caret, tilde and exact ones are given the benefit of the doubt.
func admitsBurnRelease(requirement string) bool {
	first, _, _ := strings.Cut(requirement, ",")
	first = strings.TrimSpace(first)
	switch {
	case first == "" || first == "*":
		return true
	case strings.HasPrefix(first, ">") || strings.HasPrefix(first, "<"):
		return true
	}
	first = strings.TrimLeft(first, "=^~ ")
	parts := strings.SplitN(first, ".", 3)
	if parts[0] != "0" {
		return parts[0] == "*"
	}
	if len(parts) == 1 {
		return true
	}
	minor := parts[1]
	if i := strings.IndexAny(minor, "-+"); i >= 0 {
		minor = minor[:i]
	}
	return minor == "22" || minor == "*" || minor == "x" || minor == "X"
}

// readOwnFeatures reads the user's [features] table: each feature's tokens,
// checked against the dependencies they name.
func (p *parser) readOwnFeatures(deps []*dependency) map[string][]token {
	own := map[string][]token{}
	v := p.doc.root.get("features")
	if v == nil {
		return own
	}
	if v.kind != kindTable {
		p.add(errInvalidType(v, "a map"))
		return own
	}
	byName := map[string]*dependency{}
	for _, d := range deps {
		if byName[d.name] == nil {
			byName[d.name] = d
		}
	}
	type pending struct {
		feature string
		at      *value
		token   token
	}
	var checks []pending
	for _, name := range v.table.names {
		list := v.table.get(name)
		if list.kind != kindArray {
			p.add(errInvalidType(list, "a sequence"))
			continue
		}
		tokens := []token{}
		for _, item := range list.items {
			if item.kind != kindString {
				p.add(errInvalidType(item, "a string"))
				continue
			}
			t := parseToken(item.text)
			tokens = append(tokens, t)
			checks = append(checks, pending{feature: name, at: item, token: t})
		}
		own[name] = tokens
	}
	for _, c := range checks {
		switch c.token.kind {
		case tokenFeature:
			_, isFeature := own[c.token.feature]
			d := byName[c.token.feature]
			if !isFeature && (d == nil || !d.optional) {
				p.add(errOwnFeatureToken(c.feature, c.at.text, c.at.span))
			}
		case tokenDep, tokenDepFeature, tokenWeak:
			d := byName[c.token.crate]
			if d == nil {
				p.add(errOwnFeatureMissingDep(c.feature, c.at.text, c.token.crate, c.at.span))
				continue
			}
			if c.token.kind != tokenDep && burnGraph.known(d.pkg) && !burnGraph.hasFeature(d.pkg, c.token.feature) {
				p.add(errUnknownFeatureToken(d.pkg, c.token, c.at))
			}
		}
	}
	return own
}

// errUnknownFeatureToken reports "burn/cudaa" in [features]; its fix keeps
// the dependency part and replaces the feature.
func errUnknownFeatureToken(pkg string, t token, at *value) diag.Diagnostic {
	sep := "/"
	if t.kind == tokenWeak {
		sep = "?/"
	}
	d := errUnknownFeature(pkg, t.feature, at, burnGraph.features(pkg))
	for i := range d.Fixes {
		for j := range d.Fixes[i].Edits {
			if s, ok := similar.Name(t.feature, burnGraph.features(pkg)); ok {
				d.Fixes[i].Edits[j].NewText = quoteLike(at, t.crate+sep+s)
			}
		}
	}
	return d
}

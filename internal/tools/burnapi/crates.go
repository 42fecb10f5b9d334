package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// facadeCrates are the crates past burn-tensor that burn's facade
// re-exports (burn::nn, burn::optim, burn::train, burn::data::dataset,
// burn::store, burn::rl, burn::vision), read when the snapshot has them.
var facadeCrates = []struct{ name, pkg string }{
	{"burn_nn", "burn-nn"},
	{"burn_optim", "burn-optim"},
	{"burn_train", "burn-train"},
	{"burn_dataset", "burn-dataset"},
	{"burn_store", "burn-store"},
	{"burn_rl", "burn-rl"},
	{"burn_vision", "burn-vision"},
}

// pastTensor reports whether an item is one of burn-core's or of a crate
// past burn-tensor (not burn-tensor's or burn-std's).
func pastTensor(c *crate) bool {
	return c != nil && c.name != "burn_tensor" && c.name != "burn_std"
}

// deriveRows are what a derive gives a program to call on a type: derive_new's
// constructor, the std traits' methods and, for the types of the crates
// past burn-tensor, what burn-derive's Config and Module generate
// (crates/burn-derive/src/config/analyzer_struct.rs: `new` with the
// required fields, `with_<field>` for each field with a #[config(default)]
// or of an Option type; crates/burn-derive/src/module/codegen.rs: the
// impls of Module, AutodiffModule, ModuleDisplayDefault and ModuleDisplay),
// with an impl row per trait so the trait's own methods are the type's.
func deriveRows(r reached, it *item, cf cfg) []row {
	b := r.b
	past := pastTensor(b.owner.crate)
	owner := r.path + "::" + r.name
	base := row{path: owner, feature: feature(cf, b.owner.crate), source: sourceOf(b.owner, it.line)}
	var out []row
	for _, d := range it.derives {
		dr := base
		dr.trait = "derive(" + d + ")"
		switch d {
		case "new":
			if it.kind != "struct" {
				continue // on an enum, derive_new makes new_<variant>s
			}
			dr.item, dr.name = "assoc", "new"
			out = append(out, dr)
		case "Default":
			dr.item, dr.name, dr.ret = "impl-assoc", "default", "Self"
			out = append(out, dr)
		case "Clone":
			dr.item, dr.name, dr.receiver, dr.ret = "impl-method", "clone", "&self", "Self"
			out = append(out, dr)
		case "Config":
			if !past {
				continue
			}
			for _, tr := range []string{"Config", "Clone", "Display"} {
				ir := base
				ir.item, ir.name, ir.params = "impl", tr, "derive(Config)"
				out = append(out, ir)
			}
			cl := dr
			cl.item, cl.name, cl.receiver, cl.ret = "impl-method", "clone", "&self", "Self"
			out = append(out, cl)
			if it.kind != "struct" {
				continue
			}
			var required []string
			for _, f := range it.fields {
				opt := strings.HasPrefix(f.typ, "Option<")
				if !f.config && !opt {
					required = append(required, f.name+": "+f.typ)
					continue
				}
				w := dr
				w.item, w.name, w.receiver, w.params, w.ret = "method", "with_"+f.name, "mut self", f.name+": "+f.typ, "Self"
				out = append(out, w)
			}
			nw := dr
			nw.item, nw.name, nw.params, nw.ret = "assoc", "new", strings.Join(required, ", "), "Self"
			out = append(out, nw)
		case "Module":
			if !past {
				continue
			}
			for _, tr := range []string{"Module", "AutodiffModule", "ModuleDisplayDefault", "ModuleDisplay"} {
				ir := base
				ir.item, ir.name, ir.params = "impl", tr, "derive(Module)"
				out = append(out, ir)
			}
			cl := dr
			cl.item, cl.name, cl.receiver, cl.ret = "impl-method", "clone", "&self", "Self"
			out = append(out, cl)
		}
	}
	return out
}

// depRows are the dependencies of burn's crates on each other and the
// features each asks for (crates/burn-train/Cargo.toml asks burn-core for
// dataset and std): Cargo unifies them, so a gate of burn-core's is on
// when burn-train is in the build, whatever the program's own features.
func depRows(src reader, crates []*crate) []row {
	pkgs := map[string]bool{}
	for _, c := range crates {
		pkgs[c.pkg] = true
	}
	for _, c := range facadeCrates {
		pkgs[c.pkg] = true
	}
	pkgs["burn-tensor"], pkgs["burn-std"] = true, true
	workspaceDefault := map[string]bool{} // a workspace dependency's default-features
	if text, err := src.read("Cargo.toml"); err == nil {
		for _, d := range tomlDeps(text, "workspace.dependencies") {
			workspaceDefault[d.pkg] = d.defaultFeatures
		}
	}
	var out []row
	for _, c := range crates {
		file := "crates/" + c.pkg + "/Cargo.toml"
		text, err := src.read(file)
		if err != nil {
			continue
		}
		for _, d := range tomlDeps(text, "dependencies") {
			if !pkgs[d.pkg] {
				continue
			}
			feats := append([]string{}, d.features...)
			def := d.defaultFeatures
			if d.workspace {
				def = def && workspaceDefault[d.pkg]
			}
			if def {
				feats = append(feats, "default")
			}
			sort.Strings(feats)
			r := row{item: "dep", path: c.pkg, name: d.pkg, params: strings.Join(feats, ","), feature: "-",
				source: fmt.Sprintf("%s:%d", file, d.line)}
			if d.optional {
				r.feature = c.pkg + "/" + d.name
			}
			out = append(out, r)
		}
	}
	return out
}

type tomlDep struct {
	name, pkg       string
	features        []string
	optional        bool
	workspace       bool
	defaultFeatures bool
	line            int
}

var (
	tomlKey     = regexp.MustCompile(`^([A-Za-z0-9_-]+)\s*=\s*(.*)$`)
	tomlStrings = regexp.MustCompile(`"([^"]*)"`)
)

// tomlDeps reads the entries of one dependency table of a Cargo.toml
// (`[dependencies]`, `[workspace.dependencies]`): an entry is a version
// string or an inline table, which may span lines.
func tomlDeps(text, table string) []tomlDep {
	var out []tomlDep
	for _, e := range tomlEntries(text, table) {
		d := tomlDep{name: e.key, pkg: e.key, defaultFeatures: true, line: e.line}
		value := e.value
		if strings.HasPrefix(value, "{") {
			for _, kv := range splitTop(strings.Trim(value, "{} "), ',') {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					continue
				}
				k, v = strings.TrimSpace(k), strings.TrimSpace(v)
				switch k {
				case "package":
					d.pkg = strings.Trim(v, `"`)
				case "optional":
					d.optional = v == "true"
				case "workspace":
					d.workspace = v == "true"
				case "default-features", "default_features":
					d.defaultFeatures = v != "false"
				case "features":
					for _, s := range tomlStrings.FindAllStringSubmatch(v, -1) {
						d.features = append(d.features, s[1])
					}
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// stripComment drops a `#` comment outside a string.
func stripComment(line string) string {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case '#':
			if !quoted {
				return line[:i]
			}
		}
	}
	return line
}

// depth is how many brackets a value leaves open.
func depth(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case '{', '[':
			n++
		case '}', ']':
			n--
		}
	}
	return n
}

// rootGates is, for each crate, the gate under which burn's facade
// re-exports its root (`#[cfg(feature = "train")] pub mod train { pub use
// burn_train::*; }` gates burn-train behind burn's train): the gate of
// the module holding the glob re-export and of the re-export itself, the
// least gated when several do. gates are the modules a walk from burn
// reached, each with its gate. A crate whose root burn does not re-export
// has no entry.
func rootGates(w *world, gates map[*module]cfg, crates []*crate) map[*crate]cfg {
	mods := make([]*module, 0, len(gates))
	for m := range gates {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool {
		if mods[i].file != mods[j].file {
			return mods[i].file < mods[j].file
		}
		return strings.Join(mods[i].path, "::") < strings.Join(mods[j].path, "::")
	})
	out := map[*crate]cfg{}
	for _, c := range crates {
		found := false
		var best cfg
		for _, m := range mods {
			for _, it := range m.items {
				if it.kind != "use" || !it.pub || it.cfg.test {
					continue
				}
				for _, u := range it.uses {
					if !u.glob {
						continue
					}
					for _, b := range w.resolve(m, u.path) {
						if b.mod != c.root {
							continue
						}
						g := gates[m].and(it.cfg).and(b.cfg)
						if !found || len(g.expr) < len(best.expr) || len(g.expr) == len(best.expr) && g.expr < best.expr {
							best, found = g, true
						}
					}
				}
			}
		}
		if found {
			out[c] = best
		}
	}
	return out
}

// featureRows are the [features] tables of burn's crates: what each
// feature turns on (crates/burn-train/Cargo.toml: default is sys-metrics,
// tui and rl), Cargo's syntax kept (x, dep:x, x/y, x?/y).
func featureRows(src reader, crates []*crate) []row {
	var out []row
	for _, c := range crates {
		file := "crates/" + c.pkg + "/Cargo.toml"
		text, err := src.read(file)
		if err != nil {
			continue
		}
		for _, e := range tomlEntries(text, "features") {
			var toks []string
			for _, m := range tomlStrings.FindAllStringSubmatch(e.value, -1) {
				toks = append(toks, m[1])
			}
			out = append(out, row{item: "feature", path: c.pkg, name: e.key, params: strings.Join(toks, ","), feature: "-",
				source: fmt.Sprintf("%s:%d", file, e.line)})
		}
	}
	return out
}

// crateRows name each crate past burn-tensor with its Rust name and the
// gate under which burn's facade reaches it: a program that depends on
// the crate itself (burn-store = ..) reaches it without that gate.
func crateRows(gates map[*crate]cfg) []row {
	var out []row
	for c, g := range gates {
		out = append(out, row{item: "crate", path: "burn", name: c.pkg, params: c.name, feature: feature(g, nil),
			source: "crates/" + c.pkg + "/src/lib.rs:1"})
	}
	return out
}

type tomlEntry struct {
	key, value string
	line       int
}

// tomlEntries are the `key = value` entries of one table of a Cargo.toml,
// a value spanning lines until its brackets close.
func tomlEntries(text, table string) []tomlEntry {
	var out []tomlEntry
	lines := strings.Split(text, "\n")
	in := false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(stripComment(lines[i]))
		if strings.HasPrefix(line, "[") && !strings.Contains(line, "=") {
			in = line == "["+table+"]"
			continue
		}
		if !in || line == "" {
			continue
		}
		m := tomlKey.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		e := tomlEntry{key: m[1], value: m[2], line: i + 1}
		for depth(e.value) > 0 && i+1 < len(lines) {
			i++
			e.value += " " + strings.TrimSpace(stripComment(lines[i]))
		}
		out = append(out, e)
	}
	return out
}

// Command burnapi extracts the public API of Burn, as a program calls it,
// from Burn's source and writes it as the table the engine embeds
// (engine/burnapi/api.tsv).
//
//	go run ./internal/tools/burnapi -burn BURN_GIT_DIR -o engine/burnapi/api.tsv
//
// BURN_GIT_DIR is a git directory of tracel-ai/burn (bare or not; its HEAD
// is read with git show and git ls-tree) or a checked-out work tree. The
// table holds names and signatures only, which are facts about Burn's API:
// every Tensor method and associated function with the kinds it exists
// for, the types burn-tensor re-exports from burn-std (TensorData, Shape,
// Tolerance, Distribution, DType, the element types, the slices and s!)
// with their methods, the function modules (activation, module, linalg,
// signal, grid, loss), each with its feature gate, and the paths the burn
// and burn-core crates give burn-tensor; then the public items of
// burn-core, burn-nn, burn-optim, burn-train, burn-dataset, burn-store,
// burn-rl and burn-vision at the paths burn's facade gives them, with
// their impls, what their derives generate, and the dependencies between
// those crates with the features each asks of the others.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Command is how the table is made; its header says so.
const Command = "go run ./internal/tools/burnapi -burn BURN_GIT_DIR -o engine/burnapi/api.tsv"

func main() {
	burn := flag.String("burn", "", "a git directory or work tree of tracel-ai/burn")
	out := flag.String("o", "", "the file to write (default: standard output)")
	flag.Parse()
	if *burn == "" {
		fmt.Fprintln(os.Stderr, "usage: burnapi -burn BURN_GIT_DIR [-o FILE]")
		os.Exit(2)
	}
	src, err := openReader(*burn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "burnapi:", err)
		os.Exit(1)
	}
	table, err := Generate(src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "burnapi:", err)
		os.Exit(1)
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		if err := os.WriteFile(*out, table, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "burnapi:", err)
			os.Exit(1)
		}
		return
	}
	w.Write(table)
}

// reader reads Burn's files by their path in the repository.
type reader interface {
	read(path string) (string, error)
	exists(path string) bool
	commit() string
}

// openReader picks a work tree when dir has crates/burn-tensor, a git
// directory otherwise.
func openReader(dir string) (reader, error) {
	if st, err := os.Stat(filepath.Join(dir, "crates", "burn-tensor", "src", "lib.rs")); err == nil && !st.IsDir() {
		return &treeReader{dir: dir}, nil
	}
	g := &gitReader{dir: dir, files: map[string]bool{}}
	out, err := g.git("ls-tree", "-r", "--name-only", "HEAD", "crates", "Cargo.toml")
	if err != nil {
		return nil, fmt.Errorf("%s is neither a work tree of burn nor a git directory: %v", dir, err)
	}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		g.files[f] = true
	}
	return g, nil
}

type treeReader struct{ dir string }

func (t *treeReader) read(p string) (string, error) {
	b, err := os.ReadFile(filepath.Join(t.dir, filepath.FromSlash(p)))
	return string(b), err
}

func (t *treeReader) exists(p string) bool {
	_, err := os.Stat(filepath.Join(t.dir, filepath.FromSlash(p)))
	return err == nil
}

func (t *treeReader) commit() string {
	out, err := exec.Command("git", "-C", t.dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

type gitReader struct {
	dir   string
	files map[string]bool
}

func (g *gitReader) git(args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", g.dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func (g *gitReader) read(p string) (string, error) {
	if !g.files[p] {
		return "", errors.New("no file " + p)
	}
	out, err := g.git("show", "HEAD:"+p)
	return string(out), err
}

func (g *gitReader) exists(p string) bool { return g.files[p] }

func (g *gitReader) commit() string {
	out, err := g.git("rev-parse", "HEAD")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// A row of the table.
type row struct {
	item     string // see the header
	path     string // the owner's public path
	name     string
	kinds    string // the tensor kinds a Tensor item exists for
	rank     string // a Tensor impl's rank when fixed (Tensor<1, Int>), else D
	receiver string
	generics string
	params   string
	ret      string
	where    string
	feature  string
	source   string
	trait    string // the trait of an impl-method or impl-assoc row
}

func (r row) key() string {
	return strings.Join([]string{r.path, r.name, r.item, r.kinds, r.rank, r.source, r.params, r.trait}, "\x00")
}

// Columns of the table, in order.
var Columns = []string{"item", "path", "name", "kinds", "rank", "receiver", "generics", "params", "return", "where", "feature", "source", "trait"}

// Generate builds the table from Burn's source.
func Generate(src reader) ([]byte, error) {
	w := &world{src: src, crates: map[string]*crate{}}
	std := w.load("burn_std", "burn-std", "crates/burn-std")
	tensor := w.load("burn_tensor", "burn-tensor", "crates/burn-tensor")
	core := w.load("burn_core", "burn-core", "crates/burn-core")
	var others []*crate // the crates past burn-tensor burn's facade reaches
	for _, c := range facadeCrates {
		if src.exists("crates/" + c.pkg + "/src/lib.rs") {
			others = append(others, w.load(c.name, c.pkg, "crates/"+c.pkg))
		}
	}
	burn := w.load("burn", "burn", "crates/burn")
	if len(w.missing) > 0 {
		// Every module a crate declares has its file: a missing one means
		// the snapshot is not Burn's, or the scanner misread a declaration.
		return nil, fmt.Errorf("module files not found: %s", strings.Join(w.missing, ", "))
	}
	kinds := kindTraits(w, tensor)

	items, _ := w.walk(tensor)
	typePath := map[*item]string{}
	rows := itemRows(items, typePath)
	// The items of burn-core and of the crates past burn-tensor, at the
	// paths burn's facade gives them (burn::nn::Linear,
	// burn::data::dataset::vision::MnistDataset), each gated by the
	// features on the way (burn's `train`, burn-dataset's `vision`).
	tensorSeen := map[*item]bool{}
	for _, r := range items {
		if r.b.item != nil {
			tensorSeen[r.b.item] = true
		}
	}
	facadeItems, _, gates := w.walkGated(burn)
	var past []reached
	for _, r := range facadeItems {
		if r.b.item != nil && tensorSeen[r.b.item] || r.path == "burn::tensor" || strings.HasPrefix(r.path, "burn::tensor::") {
			continue
		}
		if r.from.crate == tensor {
			continue
		}
		past = append(past, r)
	}
	rows = append(rows, itemRows(past, typePath)...)
	// The gate under which burn's facade reaches each crate's root.
	crateGate := rootGates(w, gates, append([]*crate{core}, others...))

	// Inherent impls of the public types, wherever they are written.
	// The public types by crate and name, for their impls to find them; a
	// name two public types share (a struct and a trait Transaction) is
	// the struct's or enum's, since impls are of types.
	byName := map[*crate]map[string]*item{}
	for _, c := range w.crates {
		byName[c] = map[string]*item{}
		for _, m := range c.mods {
			for _, x := range m.items {
				if typePath[x] == "" || x.kind == "trait" {
					continue
				}
				if old, ok := byName[c][x.name]; ok && typePath[old] < typePath[x] {
					continue
				}
				byName[c][x.name] = x
			}
		}
	}
	// Traits the crates declare but do not export (the sealed ops traits of
	// crates/burn-tensor/src/bridge): their impls are no API.
	hidden := map[string]bool{}
	implCrates := append([]*crate{std, tensor, core}, others...)
	for _, c := range implCrates {
		for _, m := range c.mods {
			for _, x := range m.items {
				if x.kind == "trait" && typePath[x] == "" {
					hidden[x.name] = true
				}
			}
		}
	}
	for it := range typePath {
		if it.kind == "trait" {
			delete(hidden, it.name)
		}
	}
	for _, c := range implCrates {
		gate, past := crateGate[c], c != std && c != tensor
		if past {
			if _, reachedAt := crateGate[c]; !reachedAt {
				continue // a crate burn's facade does not re-export
			}
		}
		for _, m := range c.mods {
			for _, im := range m.items {
				if im.kind != "impl" || im.cfg.test {
					continue
				}
				if im.implTrait != "" && hiddenTrait(w, m, im.implTrait, typePath, hidden) {
					continue
				}
				head, args := typeHead(im.implType)
				typ := byName[c][head]
				if typ == nil {
					continue
				}
				owner := typePath[typ]
				implCfg := m.cfg.and(im.cfg)
				if past {
					implCfg = gate.and(implCfg)
				}
				if im.implTrait != "" && past {
					// What the type implements: the trait's provided
					// methods are the type's too (Dataset::iter).
					th, targs := typeHead(im.implTrait)
					rows = append(rows, row{item: "impl", path: owner, name: th, params: im.implTrait,
						feature: feature(implCfg, c), source: sourceOf(m, im.line)})
					if from, _ := typeHead(strings.Join(targs, ",")); th == "From" && len(targs) == 1 && byName[c][from] != nil {
						// std's blanket Into: `From<X> for Y` gives X an
						// into() to Y.
						rows = append(rows, row{item: "impl-method", path: typePath[byName[c][from]], name: "into", receiver: "self",
							ret: im.implType, feature: feature(implCfg, c), source: sourceOf(m, im.line), trait: "Into<" + im.implType + ">"})
					}
				}
				k, rank := "-", "-"
				if head == "Tensor" {
					k, rank = tensorKinds(kinds, typ, im, args)
				}
				for _, fn := range im.items {
					if fn.kind != "fn" || fn.cfg.test || !fn.pub && im.implTrait == "" {
						continue
					}
					item := "assoc"
					if fn.receiver != "" {
						item = "method"
					}
					if im.implTrait != "" {
						// A trait's method, implemented for the type:
						// callable where the trait is in scope (the
						// prelude's Default, From, Clone, ...).
						item = "impl-" + item
					}
					fk := k
					if head == "Tensor" {
						fk = narrowKinds(kinds, fk, fn)
					}
					rows = append(rows, row{item: item, path: owner, name: fn.name, kinds: fk, rank: rank, receiver: fn.receiver,
						generics: fn.generics, params: stripReceiver(fn.params), ret: fn.ret, where: joinWhere(im.where, fn.where),
						feature: feature(implCfg.and(fn.cfg), c), source: sourceOf(m, fn.line), trait: im.implTrait})
				}
			}
		}
	}
	rows = append(rows, aliases(w, core, burn, tensor)...)
	manifests := append(append([]*crate{std, tensor, core}, others...), burn)
	rows = append(rows, depRows(src, manifests)...)
	rows = append(rows, featureRows(src, manifests)...)
	rows = append(rows, crateRows(crateGate)...)

	sort.Slice(rows, func(i, j int) bool { return rows[i].key() < rows[j].key() })
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# The public API of Burn at tracel-ai/burn %s, as a program calls it.\n", src.commit())
	fmt.Fprintf(&buf, "# Made from Burn's source by: %s\n", Command)
	buf.WriteString("# (internal/tools/burnapi: it reads the module trees and re-exports of crates/burn-tensor, burn-std, burn-core,\n")
	buf.WriteString("#   burn-nn, burn-optim, burn-train, burn-dataset, burn-store, burn-rl, burn-vision and burn's facade).\n")
	buf.WriteString("# item: fn (a function of a module), method, assoc (an associated function), impl-method and impl-assoc (a\n")
	buf.WriteString("#   trait's, implemented for the type: trait names it), trait-method (a trait's own), struct, enum,\n")
	buf.WriteString("#   variant, trait, macro, const, static, type, extern (a re-export of a crate not read: params is its path),\n")
	buf.WriteString("#   alias (path is another crate's path for the crate or item in params), impl (the type in path implements\n")
	buf.WriteString("#   the trait named, written in params, or derive(..) for a derive), dep (the crate in path depends on the crate\n")
	buf.WriteString("#   named, asking for the features in params; feature is the crate's feature an optional one needs), feature\n")
	buf.WriteString("#   (the crate in path's feature named turns on what params lists, in Cargo's syntax), crate (the package\n")
	buf.WriteString("#   named, its Rust name in params, is reached through burn's facade under the gate in feature).\n")
	buf.WriteString("# path: the owner's public path (burn_tensor::Tensor, burn_tensor::linalg, burn::train::metric::AccuracyMetric);\n")
	buf.WriteString("#   path::name is the item. Items past burn-tensor are at the path burn's facade gives them.\n")
	buf.WriteString("# kinds: the tensor kinds a Tensor method or function exists for, from its impl's bounds (K: Numeric, ...).\n")
	buf.WriteString("# rank: a Tensor impl's fixed rank (impl Tensor<1, Int>), else D. feature: the cfg(feature) gates, & joined,\n")
	buf.WriteString("#   burn-tensor's unless prefixed by another crate (burn-std/std, burn/train); those past burn-tensor include\n")
	buf.WriteString("#   the gates of the modules and re-exports burn's facade reaches them by; - for none. source: Burn's file:line.\n")
	buf.WriteString(strings.Join(Columns, "\t") + "\n")
	for _, r := range rows {
		cols := []string{r.item, r.path, r.name, r.kinds, r.rank, r.receiver, r.generics, r.params, r.ret, r.where, r.feature, r.source, r.trait}
		for i, c := range cols {
			if c == "" {
				cols[i] = "-"
			}
			cols[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(cols[i])
		}
		buf.WriteString(strings.Join(cols, "\t") + "\n")
	}
	return buf.Bytes(), nil
}

// itemRows are the rows of public items reached by a walk: each item, an
// enum's variants, what a derive gives a program to call, a trait's
// methods. typePath records the path of each type.
func itemRows(items []reached, typePath map[*item]string) []row {
	var rows []row
	for _, r := range items {
		b := r.b
		if b.external != "" {
			name := r.name
			if strings.HasPrefix(name, "*") {
				name = "*"
			}
			rows = append(rows, row{item: "extern", path: r.path, name: name, params: b.external, feature: feature(b.cfg, nil)})
			continue
		}
		it := b.item
		cf := b.cfg.and(b.owner.cfg).and(it.cfg)
		rr := row{item: it.kind, path: r.path, name: r.name, feature: feature(cf, b.owner.crate), source: sourceOf(b.owner, it.line)}
		switch it.kind {
		case "fn":
			rr.generics, rr.params, rr.ret, rr.where = it.generics, stripReceiver(it.params), it.ret, it.where
		case "struct", "enum", "trait", "type":
			rr.generics = it.generics
			if it.kind == "trait" {
				rr.where = it.supertraits
			}
			typePath[it] = r.path + "::" + r.name
		}
		rows = append(rows, rr)
		for _, v := range it.variants {
			if v.cfg.test {
				continue
			}
			rows = append(rows, row{item: "variant", path: r.path + "::" + r.name, name: v.name, params: v.fields,
				feature: feature(cf.and(v.cfg), b.owner.crate), source: sourceOf(b.owner, v.line)})
		}
		rows = append(rows, deriveRows(r, it, cf)...)
		if it.kind == "trait" {
			for _, m := range it.items {
				if m.kind != "fn" || m.cfg.test {
					continue
				}
				rows = append(rows, row{item: "trait-method", path: r.path + "::" + r.name, name: m.name, receiver: m.receiver,
					generics: m.generics, params: stripReceiver(m.params), ret: m.ret, where: m.where,
					feature: feature(cf.and(m.cfg), b.owner.crate), source: sourceOf(b.owner, m.line)})
			}
		}
	}
	return rows
}

func sourceOf(m *module, line int) string { return fmt.Sprintf("%s:%d", m.file, line) }

// stripReceiver drops the self parameter from a parameter list.
func stripReceiver(params string) string {
	parts := splitTop(params, ',')
	if len(parts) > 0 && strings.Contains(" "+strings.Split(parts[0], ":")[0]+" ", "self") {
		f := strings.Fields(strings.ReplaceAll(strings.Split(parts[0], ":")[0], "&", "& "))
		if len(f) > 0 && f[len(f)-1] == "self" {
			parts = parts[1:]
		}
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return strings.Join(parts, ", ")
}

// splitTop splits at sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i > 0 && (s[i-1] == '-' || s[i-1] == '=') {
				continue
			}
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// typeHead is the last segment of a type's path and its generic arguments.
func typeHead(t string) (string, []string) {
	t = strings.TrimSpace(t)
	lt := strings.IndexByte(t, '<')
	head := t
	var args []string
	if lt >= 0 {
		head = t[:lt]
		inner := strings.TrimSuffix(strings.TrimSpace(t[lt+1:]), ">")
		for _, a := range splitTop(inner, ',') {
			args = append(args, strings.TrimSpace(a))
		}
	}
	if i := strings.LastIndex(head, "::"); i >= 0 {
		head = head[i+2:]
	}
	return strings.TrimSpace(head), args
}

func joinWhere(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ", " + b
}

// feature renders a cfg for the table (its features are already
// qualified by crate, burn-tensor's excepted).
func feature(c cfg, _ *crate) string {
	if c.expr == "" {
		return "-"
	}
	return c.expr
}

// aliases are the paths burn and burn-core give burn-tensor: modules whose
// public names are burn_tensor's root (burn::tensor, burn_core::tensor),
// and the preludes' names of burn-tensor's items.
func aliases(w *world, core, burn, tensor *crate) []row {
	var out []row
	tensorItems := map[*item]string{}
	items, tensorMods := w.walk(tensor)
	for _, r := range items {
		if r.b.item != nil {
			tensorItems[r.b.item] = r.path + "::" + r.name
		}
	}
	for _, c := range []*crate{core, burn} {
		_, mods := w.walk(c)
		var list []*module
		for m := range mods {
			list = append(list, m)
		}
		sort.Slice(list, func(i, j int) bool { return mods[list[i]] < mods[list[j]] })
		for _, m := range list {
			p := mods[m]
			if m == tensor.root || w.globsRoot(m, tensor) {
				out = append(out, row{item: "alias", path: p, name: "*", params: tensor.name, feature: "-"})
				continue
			}
			if m.crate == tensor {
				// A module of burn-tensor's under another path
				// (burn::server is burn_core::tensor::server).
				if tp, ok := tensorMods[m]; ok && !strings.HasPrefix(p, "burn_tensor") {
					out = append(out, row{item: "alias", path: p, name: "*", params: tp, feature: feature(m.cfg, tensor)})
				}
				continue
			}
			if m.crate != c {
				continue
			}
			if !strings.HasSuffix(p, "::prelude") {
				continue
			}
			ex := w.exportsOf(m)
			names := make([]string, 0, len(ex))
			for n := range ex {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				for _, b := range ex[n] {
					if full, ok := tensorItems[b.item]; ok && b.item != nil {
						out = append(out, row{item: "alias", path: p, name: n, params: full, feature: feature(b.cfg, c)})
					}
				}
			}
		}
	}
	// A module's alias that a root alias already gives (burn::tensor::linalg
	// under burn::tensor) is left out.
	roots := map[string]bool{}
	for _, r := range out {
		if r.item == "alias" && r.name == "*" && r.params == tensor.name {
			roots[r.path] = true
		}
	}
	kept := out[:0]
	for _, r := range out {
		if r.item == "alias" && r.name == "*" && r.params != tensor.name {
			rest := strings.TrimPrefix(r.params, tensor.name)
			if i := strings.LastIndex(r.path, rest); i > 0 && strings.HasSuffix(r.path, rest) && roots[r.path[:i]] {
				continue
			}
		}
		kept = append(kept, r)
	}
	return kept
}

// globsRoot reports whether a module re-exports a crate's root whole
// (`pub use burn_tensor::*;`).
func (w *world) globsRoot(m *module, c *crate) bool {
	for _, it := range m.items {
		if it.kind != "use" || !it.pub {
			continue
		}
		for _, u := range it.uses {
			if !u.glob {
				continue
			}
			for _, b := range w.resolve(m, u.path) {
				if b.mod == c.root {
					return true
				}
			}
		}
	}
	return false
}

// hiddenTrait reports whether an impl's trait, resolved in the module
// that writes the impl, is one the crates keep private.
func hiddenTrait(w *world, m *module, trait string, public map[*item]string, hidden map[string]bool) bool {
	head, _ := typeHead(trait)
	if !hidden[head] && !strings.Contains(trait, "::") {
		// Not a name of a private trait: a std trait or a public one.
		bs := w.lookup(m, head, true)
		for _, b := range bs {
			if b.item != nil && b.item.kind == "trait" && public[b.item] == "" {
				return true
			}
		}
		return false
	}
	p := strings.Split(strings.Split(trait, "<")[0], "::")
	for _, b := range w.resolve(m, p) {
		if b.item != nil && b.item.kind == "trait" && public[b.item] == "" {
			return true
		}
	}
	return hidden[head] && !strings.Contains(trait, "::")
}

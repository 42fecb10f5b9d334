package burnapi

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Item is one row of the table.
type Item struct {
	Kind     string   // fn, method, assoc, impl-method, impl-assoc, trait-method, struct, enum, variant, trait, macro, const, static, type, extern, alias
	Path     string   // the owner's public path: burn_tensor::Tensor, burn_tensor::linalg
	Name     string   // the item's name
	Kinds    []string // the tensor kinds a Tensor item exists for (Bool, Float, Int); nil otherwise
	Rank     string   // a Tensor impl's fixed rank ("1"), "D", or ""
	Receiver string   // self, &self, &mut self; "" for associated functions
	Generics string
	Params   string
	Return   string
	Where    string
	Feature  string // the cfg gate: "autodiff", "remote&!target_family=wasm", "burn-std/std"; "" for none
	Source   string // Burn's file:line
	Trait    string // the trait an impl-method or impl-assoc row implements (Default, From<&[E]>)
}

// Display is the item's path as a program spells it: burn_tensor's items
// under burn::tensor.
func (it Item) Display() string {
	p := it.Path
	if p == "burn_tensor" {
		p = "burn::tensor"
	} else if rest, ok := strings.CutPrefix(p, "burn_tensor::"); ok {
		p = "burn::tensor::" + rest
	}
	return p + "::" + it.Name
}

// Gate is one feature an item's cfg requires: burn-tensor's `autodiff`,
// burn's `train`, burn-dataset's `vision`.
type Gate struct {
	Crate   string // the package: burn-tensor, burn, burn-core, burn-dataset, ...
	Feature string
}

// Gates are the features the item's gate requires: the plain feature
// atoms of its conjunction, each with its crate (burn-tensor's when the
// table leaves it unqualified). Atoms under not(..) or any(..) and target
// conditions are not required here (the playground's target decides
// them, or the table cannot say).
func (it Item) Gates() []Gate {
	if it.Feature == "" {
		return nil
	}
	var out []Gate
	for _, a := range splitAnd(it.Feature) {
		if a == "" || strings.ContainsAny(a, "!=()|") {
			continue
		}
		if c, f, ok := strings.Cut(a, "/"); ok {
			out = append(out, Gate{Crate: c, Feature: f})
		} else {
			out = append(out, Gate{Crate: "burn-tensor", Feature: a})
		}
	}
	return out
}

// splitAnd splits a gate at its top-level `&`s.
func splitAnd(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '&':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// ForKind reports whether a Tensor item exists for the kind ("Float",
// "Int", "Bool"); items of other types exist for every kind.
func (it Item) ForKind(kind string) bool {
	if it.Kinds == nil || kind == "" {
		return true
	}
	for _, k := range it.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

//go:embed api.tsv
var tableTSV string

// Table is the parsed table.
type Table struct {
	Items   []Item
	Commit  string // the Burn commit its header names
	byOwner map[string][]int
	// byMember indexes the rows by owner and name (owner + "\x00" +
	// name), since the engine looks a member up on every call it checks.
	byMember map[string][]int
	aliases  map[string]string   // burn::tensor -> burn_tensor
	types    map[string][]string // burn-tensor's types by name
	listed   map[string]bool     // the types whose members the table lists (not extern)
	// allTypes are the types of every crate the table reads, by name;
	// traits the traits; impls the traits each type implements (impl
	// rows), by the type's path.
	allTypes map[string][]string
	traits   map[string][]string
	impls    map[string][]string
	deps     []Item              // dep rows
	features map[string][]string // feature rows: "crate/feature" -> what it turns on

	tensorKindsOnce sync.Once
	tensorKinds     map[string][]string // TensorMethodKinds
}

var (
	table     *Table
	tableOnce sync.Once
)

// Default is the embedded table, parsed the first time it is asked for (a
// run that calls no name the engine lacks never parses it).
func Default() *Table {
	tableOnce.Do(func() { table = mustParse(tableTSV) })
	return table
}

func mustParse(text string) *Table {
	t, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return t
}

// Parse reads a table in api.tsv's format.
func Parse(text string) (*Table, error) {
	t := &Table{byOwner: map[string][]int{}, byMember: map[string][]int{}, aliases: map[string]string{}, types: map[string][]string{}, listed: map[string]bool{},
		allTypes: map[string][]string{}, traits: map[string][]string{}, impls: map[string][]string{}, features: map[string][]string{}}
	header := false
	// The table is parsed once per process (and per WebAssembly
	// instance): its rows are cut in place, into one array of items
	// sized up front, so that parsing allocates little beyond them.
	text = strings.TrimRight(text, "\n")
	t.Items = make([]Item, 0, strings.Count(text, "\n")+1)
	var cols [13]string
	for n := 0; text != ""; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		for _, prefix := range []string{"# The public API of Burn at tracel-ai/burn ", "# The public API of burn-tensor at tracel-ai/burn "} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				t.Commit, _, _ = strings.Cut(rest, ",")
			}
		}
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		f, ncols := cols[:], 0
		for s := line; ncols <= len(cols); {
			col, more, found := strings.Cut(s, "\t")
			if ncols < len(cols) {
				f[ncols] = col
			}
			ncols++
			if !found {
				break
			}
			s = more
		}
		if ncols != len(cols) {
			return nil, fmt.Errorf("api.tsv:%d: %d columns, want 13", n+1, ncols)
		}
		if !header {
			if f[0] != "item" {
				return nil, fmt.Errorf("api.tsv:%d: no header row", n+1)
			}
			header = true
			continue
		}
		for i := range f {
			if f[i] == "-" {
				f[i] = ""
			}
		}
		it := Item{Kind: f[0], Path: f[1], Name: f[2], Rank: f[4], Receiver: f[5], Generics: f[6], Params: f[7],
			Return: f[8], Where: f[9], Feature: f[10], Source: f[11], Trait: f[12]}
		if f[3] != "" {
			it.Kinds = strings.Split(f[3], ",")
		}
		if it.Kind == "" || it.Path == "" || it.Name == "" {
			return nil, fmt.Errorf("api.tsv:%d: an item without kind, path or name", n+1)
		}
		t.Items = append(t.Items, it)
		i := len(t.Items) - 1
		t.byOwner[it.Path] = append(t.byOwner[it.Path], i)
		key := it.Path + "\x00" + it.Name
		t.byMember[key] = append(t.byMember[key], i)
		switch it.Kind {
		case "alias":
			if it.Name == "*" {
				t.aliases[it.Path] = it.Params
			} else {
				t.aliases[it.Path+"::"+it.Name] = it.Params
			}
		case "struct", "enum", "trait", "type", "extern":
			full := it.Path + "::" + it.Name
			if !strings.HasPrefix(it.Path, "burn::") {
				// burn-tensor's own types (and what it re-exports):
				// the members of those the table lists are all of them.
				t.types[it.Name] = append(t.types[it.Name], full)
				if it.Kind != "extern" {
					t.listed[full] = true
				}
			}
			if it.Kind != "extern" {
				t.allTypes[it.Name] = append(t.allTypes[it.Name], full)
			}
			if it.Kind == "trait" {
				t.traits[it.Name] = append(t.traits[it.Name], full)
			}
		case "impl":
			t.impls[it.Path] = append(t.impls[it.Path], it.Name)
		case "dep":
			t.deps = append(t.deps, it)
		case "feature":
			var toks []string
			if it.Params != "" {
				toks = strings.Split(it.Params, ",")
			}
			t.features[it.Path+"/"+it.Name] = toks
		}
	}
	if !header {
		return nil, fmt.Errorf("api.tsv: no header row")
	}
	return t, nil
}

// canonical rewrites a path's prefix through the aliases (burn::tensor ->
// burn_tensor, burn::prelude::Tensor -> burn_tensor::Tensor).
func (t *Table) canonical(p string) string {
	for i := len(p); i > 0; i = strings.LastIndex(p[:i], "::") {
		if to, ok := t.aliases[p[:i]]; ok {
			return to + p[i:]
		}
	}
	return p
}

// Find is the items named path::name (every row: a method of Tensor has a
// row per impl block it is written in).
func (t *Table) Find(path []string) []Item {
	if len(path) < 2 {
		return nil
	}
	full := t.canonical(strings.Join(path, "::"))
	cut := strings.LastIndex(full, "::")
	if cut < 0 {
		return nil
	}
	owner, name := full[:cut], full[cut+2:]
	var out []Item
	for _, i := range t.byMember[owner+"\x00"+name] {
		out = append(out, t.Items[i])
	}
	return out
}

// TensorMethodKinds are the tensor kinds Burn declares a method of Tensor
// for, by the method's name, read once from the table: listed is false for
// a name Tensor has no method row of, and kinds is nil for a method every
// kind has. It is Member("Tensor", name, "", true)'s answer to "for which
// kinds", without building its rows, since the engine asks it of every
// call of a tensor method.
func (t *Table) TensorMethodKinds(name string) (kinds []string, listed bool) {
	t.tensorKindsOnce.Do(func() {
		t.tensorKinds = map[string][]string{}
		all := map[string]bool{}
		for key, rows := range t.byMember {
			owner, method, _ := strings.Cut(key, "\x00")
			if owner != "burn_tensor::Tensor" {
				continue
			}
			for _, i := range rows {
				it := t.Items[i]
				if it.Kind != "method" && it.Kind != "impl-method" {
					continue
				}
				if it.Kinds == nil {
					all[method] = true
				}
				for _, k := range it.Kinds {
					if !slices.Contains(t.tensorKinds[method], k) {
						t.tensorKinds[method] = append(t.tensorKinds[method], k)
					}
				}
				if _, ok := t.tensorKinds[method]; !ok {
					t.tensorKinds[method] = nil
				}
			}
		}
		for method := range all {
			t.tensorKinds[method] = nil
		}
	})
	kinds, listed = t.tensorKinds[name]
	return kinds, listed
}

// TypePath is the public path of a type burn-tensor exports by its name
// (Tensor -> burn_tensor::Tensor), when exactly one has that name.
func (t *Table) TypePath(name string) (string, bool) {
	ps := t.types[name]
	if len(ps) != 1 {
		return "", false
	}
	return ps[0], true
}

// Member is a method or associated function of a type Burn exports,
// found by the type's name: the rows for the tensor kind when kind is
// given ("Float", "Int", "Bool"). method says a method-call syntax
// (`x.name()`), which only methods answer; a path call (`Type::name(..)`)
// takes both. A name burn-tensor's types do not have is looked for in
// every crate's types of that name (burn::nn's InterpolateMode beside
// burn-tensor's), and in the traits each implements (Dataset::iter of
// MnistDataset, Module::num_params of Linear).
func (t *Table) Member(typ, name, kind string, method bool) []Item {
	if p, ok := t.TypePath(typ); ok {
		if out := t.members(p, name, kind, method); len(out) > 0 {
			return out
		}
	}
	var out []Item
	for _, p := range t.allTypes[typ] {
		out = append(out, t.members(p, name, kind, method)...)
	}
	if len(out) > 0 {
		return out
	}
	for _, p := range t.allTypes[typ] {
		out = append(out, t.TraitMember(t.impls[p], name, method)...)
	}
	if len(out) == 0 && t.IsTrait(typ) {
		// A trait's function called by the trait's name
		// (Dataset::get(&items, 0)).
		out = t.TraitMember([]string{typ}, name, method)
	}
	return out
}

func (t *Table) members(p, name, kind string, method bool) []Item {
	var out []Item
	for _, i := range t.byMember[p+"\x00"+name] {
		it := t.Items[i]
		if !it.ForKind(kind) {
			continue
		}
		switch it.Kind {
		case "method", "impl-method":
		case "assoc", "impl-assoc", "variant":
			if method {
				continue
			}
		default:
			continue
		}
		out = append(out, it)
	}
	return out
}

// TraitMember is a method (or, for a path call, an associated function)
// of one of Burn's traits, by the traits' names (Module, Dataset,
// Batcher): the trait's own declaration or a supertrait's. It is how a
// type that implements the trait has it: the program's own struct that
// derives Module, Burn's types through their impl rows.
func (t *Table) TraitMember(traits []string, name string, method bool) []Item {
	var out []Item
	seen := map[string]bool{}
	var visit func(trait string, depth int)
	visit = func(trait string, depth int) {
		if depth > 8 {
			return
		}
		for _, p := range t.traits[trait] {
			if seen[p] {
				continue
			}
			seen[p] = true
			for _, i := range t.byMember[p+"\x00"+name] {
				it := t.Items[i]
				if it.Kind == "trait-method" && (!method || it.Receiver != "") {
					out = append(out, it)
				}
			}
			for _, i := range t.byOwner[p[:strings.LastIndex(p, "::")]] {
				if it := t.Items[i]; it.Kind == "trait" && it.Name == trait && it.Where != "" {
					for _, super := range strings.Split(it.Where, "+") {
						visit(traitHead(super), depth+1)
					}
				}
			}
		}
	}
	for _, tr := range traits {
		visit(traitHead(tr), 0)
	}
	return out
}

// traitHead is a trait's name without its path and generics
// (burn::module::Module<B> -> Module).
func traitHead(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimSpace(s)
}

// IsTrait reports whether Burn exports a trait of that name.
func (t *Table) IsTrait(name string) bool { return len(t.traits[name]) > 0 }

// Closure is every feature of Burn's crates Cargo turns on from those
// the program's features turn on ("crate/feature" keys, as engine/config
// propagates them through burn's, burn-core's and burn-tensor's feature
// graph): what the crates past burn-tensor ask of each other
// (crates/burn-train/Cargo.toml asks burn-core for std and dataset, its
// default is sys-metrics, tui and rl), followed through the table's
// feature and dep rows as Cargo unifies them.
func (t *Table) Closure(features map[string]bool) map[string]bool {
	on := map[string]bool{}
	active := map[string]bool{"burn": true}
	waiting := map[string][]string{} // a crate's weak x?/y keys, until it is active
	var queue []string
	enable := func(k string) {
		if !on[k] {
			on[k] = true
			queue = append(queue, k)
		}
	}
	var activateCrate func(c string)
	activateDep := func(c, dep string) {
		for _, d := range t.deps {
			if d.Path != c || d.Name != dep {
				continue
			}
			activateCrate(dep)
			if d.Params != "" {
				for _, f := range strings.Split(d.Params, ",") {
					enable(dep + "/" + f)
				}
			}
		}
	}
	activateCrate = func(c string) {
		if active[c] {
			return
		}
		active[c] = true
		for _, k := range waiting[c] {
			enable(k)
		}
		delete(waiting, c)
		for _, d := range t.deps {
			if d.Path == c && d.Feature == "" {
				activateDep(c, d.Name)
			}
		}
	}
	keys := make([]string, 0, len(features))
	for k, v := range features {
		if v {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		c, _, _ := strings.Cut(k, "/")
		activateCrate(c)
		enable(k)
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		c, f, _ := strings.Cut(k, "/")
		toks, isFeature := t.features[k]
		if !isFeature {
			// The implicit feature of an optional dependency.
			activateDep(c, f)
			continue
		}
		for _, tok := range toks {
			switch {
			case strings.HasPrefix(tok, "dep:"):
				activateDep(c, tok[4:])
			case strings.Contains(tok, "?/"):
				dep, feat, _ := strings.Cut(tok, "?/")
				if active[dep] {
					enable(dep + "/" + feat)
				} else {
					waiting[dep] = append(waiting[dep], dep+"/"+feat)
				}
			case strings.Contains(tok, "/"):
				dep, feat, _ := strings.Cut(tok, "/")
				activateDep(c, dep)
				enable(dep + "/" + feat)
			default:
				enable(c + "/" + tok)
			}
		}
	}
	return on
}

// Naming are the features of crate whose feature row names the gate
// (burn's metrics turns on burn-train?/sys-metrics), in name order.
func (t *Table) Naming(crate, gateCrate, gateFeature string) []string {
	var out []string
	for k, toks := range t.features {
		c, f, _ := strings.Cut(k, "/")
		if c != crate {
			continue
		}
		for _, tok := range toks {
			if tok == gateCrate+"/"+gateFeature || tok == gateCrate+"?/"+gateFeature {
				out = append(out, f)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// CrateGate is the gate under which burn's facade reaches a crate past
// burn-tensor (burn-train: burn's train), and the crate's Rust name: a
// program that depends on the crate itself reaches its items without it.
func (t *Table) CrateGate(pkg string) (gates []Gate, rustName string, ok bool) {
	for _, i := range t.byOwner["burn"] {
		if it := t.Items[i]; it.Kind == "crate" && it.Name == pkg {
			return it.Gates(), it.Params, true
		}
	}
	return nil, "", false
}

// Crate is the package an item is defined in, from its source
// (crates/burn-train/src/.. -> burn-train).
func (it Item) Crate() string {
	rest, ok := strings.CutPrefix(it.Source, "crates/")
	if !ok {
		return ""
	}
	c, _, _ := strings.Cut(rest, "/")
	return c
}

// Function is a function of a burn-tensor module, by the path a program
// calls it with (burn::tensor::linalg::trace, burn_tensor::signal::hann_window,
// linalg::trace after `use burn::tensor::linalg`).
func (t *Table) Function(path []string) []Item {
	var out []Item
	for _, it := range t.Find(path) {
		if it.Kind == "fn" {
			out = append(out, it)
		}
	}
	if len(out) > 0 || len(path) != 2 {
		return out
	}
	// A module imported by its name: linalg::trace.
	for _, it := range t.Find([]string{"burn_tensor", path[0], path[1]}) {
		if it.Kind == "fn" {
			out = append(out, it)
		}
	}
	return out
}

// Lists reports whether the table lists the members of what a call names
// its owner: a type burn-tensor defines or re-exports from burn-std
// (Tensor, TensorData; not a re-export of a crate it does not read, such
// as Shape or CaptureScope), or a module of functions (linalg). Only then
// does a name missing from the table mean Burn has no such item.
func (t *Table) Lists(owner []string) bool {
	if len(owner) == 0 {
		return false
	}
	if len(owner) == 1 {
		if p, ok := t.TypePath(owner[0]); ok {
			return t.listed[p]
		}
	}
	p := t.canonical(strings.Join(owner, "::"))
	if t.listed[p] {
		return true
	}
	for _, i := range t.byOwner[p] {
		if t.Items[i].Kind == "fn" && !strings.HasPrefix(p, "burn::") {
			return true
		}
	}
	if len(owner) == 1 {
		return t.Lists([]string{"burn_tensor", owner[0]})
	}
	return false
}

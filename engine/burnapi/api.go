package burnapi

import (
	_ "embed"
	"fmt"
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

// Features are the burn-tensor features the item's gate requires: the
// plain feature atoms of its conjunction. Atoms under not(..) or any(..),
// target conditions and other crates' features are not required here
// (the playground's target and burn-tensor's dependencies enable them, or
// the table cannot say).
func (it Item) Features() []string {
	if it.Feature == "" || strings.ContainsAny(it.Feature, "()|") {
		return nil
	}
	var out []string
	for _, a := range strings.Split(it.Feature, "&") {
		if a == "" || strings.ContainsAny(a, "!=/") {
			continue
		}
		out = append(out, a)
	}
	return out
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
	aliases map[string]string // burn::tensor -> burn_tensor
	types   map[string][]string
	listed  map[string]bool // the types whose members the table lists (not extern)
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
	t := &Table{byOwner: map[string][]int{}, aliases: map[string]string{}, types: map[string][]string{}, listed: map[string]bool{}}
	header := false
	for n, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "# The public API of burn-tensor at tracel-ai/burn "); ok {
			t.Commit, _, _ = strings.Cut(rest, ",")
		}
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 13 {
			return nil, fmt.Errorf("api.tsv:%d: %d columns, want 13", n+1, len(f))
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
		switch it.Kind {
		case "alias":
			if it.Name == "*" {
				t.aliases[it.Path] = it.Params
			} else {
				t.aliases[it.Path+"::"+it.Name] = it.Params
			}
		case "struct", "enum", "trait", "type", "extern":
			t.types[it.Name] = append(t.types[it.Name], it.Path+"::"+it.Name)
			if it.Kind != "extern" {
				t.listed[it.Path+"::"+it.Name] = true
			}
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
	for _, i := range t.byOwner[owner] {
		if t.Items[i].Name == name {
			out = append(out, t.Items[i])
		}
	}
	return out
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

// Member is a method or associated function of a type burn-tensor exports,
// found by the type's name: the rows for the tensor kind when kind is
// given ("Float", "Int", "Bool"). method says a method-call syntax
// (`x.name()`), which only methods answer; a path call (`Type::name(..)`)
// takes both.
func (t *Table) Member(typ, name, kind string, method bool) []Item {
	p, ok := t.TypePath(typ)
	if !ok {
		return nil
	}
	var out []Item
	for _, i := range t.byOwner[p] {
		it := t.Items[i]
		if it.Name != name || !it.ForKind(kind) {
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
		if t.Items[i].Kind == "fn" {
			return true
		}
	}
	if len(owner) == 1 {
		return t.Lists([]string{"burn_tensor", owner[0]})
	}
	return false
}

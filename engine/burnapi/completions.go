package burnapi

import (
	"slices"
	"strings"
)

// Completions is what the playground page completes in its editors, made
// from the table: the associated functions and methods of each of Burn's
// types by the type's name (`Tensor::` offers `ones`, `x.` on a tensor
// offers `matmul`), the functions of each module by the module's path, and
// the features of burn with what each turns on. Each entry is a name and
// the signature the editor shows beside it.
type Completions struct {
	Commit   string                     `json:"commit"`
	Types    map[string]TypeCompletions `json:"types"`
	Modules  map[string][]Completion    `json:"modules"`
	Features []Completion               `json:"features"`
}

// TypeCompletions are a type's members.
type TypeCompletions struct {
	Path    string       `json:"path"`
	Assoc   []Completion `json:"assoc"`
	Methods []Completion `json:"methods"`
}

// Completion is one name and its detail.
type Completion struct {
	Name   string `json:"name"`
	Detail string `json:"detail"`
}

// Completions builds the page's completions from the table.
func (t *Table) Completions() Completions {
	c := Completions{Commit: t.Commit, Types: map[string]TypeCompletions{}, Modules: map[string][]Completion{}}
	seen := map[string]bool{}
	for _, it := range t.Items {
		key := it.Kind + "\x00" + it.Path + "\x00" + it.Name
		if seen[key] {
			continue
		}
		seen[key] = true
		owner := it.Path
		if i := strings.LastIndex(owner, "::"); i >= 0 {
			owner = owner[i+2:]
		}
		switch it.Kind {
		case "assoc", "impl-assoc", "method", "impl-method", "trait-method":
			tc := c.Types[owner]
			if tc.Path == "" {
				tc.Path = displayPath(it.Path)
			}
			entry := Completion{Name: it.Name, Detail: signature(it)}
			if it.Receiver == "" {
				tc.Assoc = append(tc.Assoc, entry)
			} else {
				tc.Methods = append(tc.Methods, entry)
			}
			c.Types[owner] = tc
		case "fn":
			p := displayPath(it.Path)
			c.Modules[p] = append(c.Modules[p], Completion{Name: it.Name, Detail: signature(it)})
		case "feature":
			if it.Path == "burn" {
				c.Features = append(c.Features, Completion{Name: it.Name, Detail: strings.ReplaceAll(it.Params, "&", ", ")})
			}
		}
	}
	byName := func(a, b Completion) int { return strings.Compare(a.Name, b.Name) }
	for k, tc := range c.Types {
		slices.SortStableFunc(tc.Assoc, byName)
		slices.SortStableFunc(tc.Methods, byName)
		tc.Assoc = slices.CompactFunc(tc.Assoc, func(a, b Completion) bool { return a.Name == b.Name })
		tc.Methods = slices.CompactFunc(tc.Methods, func(a, b Completion) bool { return a.Name == b.Name })
		c.Types[k] = tc
	}
	for k, fs := range c.Modules {
		slices.SortStableFunc(fs, byName)
		c.Modules[k] = slices.CompactFunc(fs, func(a, b Completion) bool { return a.Name == b.Name })
	}
	slices.SortStableFunc(c.Features, byName)
	return c
}

// displayPath is a path as a program spells it: burn_tensor's under
// burn::tensor.
func displayPath(p string) string {
	if p == "burn_tensor" {
		return "burn::tensor"
	}
	if rest, ok := strings.CutPrefix(p, "burn_tensor::"); ok {
		return "burn::tensor::" + rest
	}
	return p
}

// signature is an item's Rust signature, without its where clause.
func signature(it Item) string {
	var b strings.Builder
	b.WriteString("fn ")
	b.WriteString(it.Name)
	if it.Generics != "" {
		b.WriteString("<" + it.Generics + ">")
	}
	b.WriteByte('(')
	params := it.Params
	if it.Receiver != "" {
		if params != "" {
			params = it.Receiver + ", " + params
		} else {
			params = it.Receiver
		}
	}
	b.WriteString(params)
	b.WriteByte(')')
	if it.Return != "" {
		b.WriteString(" -> " + it.Return)
	}
	return b.String()
}

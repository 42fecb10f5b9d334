package burnapi

import (
	"slices"
	"strings"
)

// Unexported answers whether `use path` names something Burn does not
// export there, as far as the table can tell: rustc's E0432. It answers
// only for a module of burn-tensor (reached as burn_tensor::, burn::tensor::
// or burn_core::tensor::) whose items the table lists, and for a name that
// is neither an item nor a module under it. For the crate root, whose
// glob re-exports of cubecl-zspace (`extern *` rows) the table does not
// expand, it answers only for a name the table places elsewhere: those
// globs export cubecl-zspace's indexing and shape items, none of which has
// the name of an item Burn defines. Every other path (burn::prelude, which
// also re-exports burn-core's and burn-nn's items; burn::nn; a module the
// table has no rows for) is left to the engine's other checks.
//
// instead are the paths, written with the program's prefix, of the items
// of that name the table lists elsewhere in burn-tensor (rustc's "consider
// importing this enum instead"), each with its kind.
func (t *Table) Unexported(path []string) (instead []Import, unexported bool) {
	if len(path) < 2 {
		return nil, false
	}
	written := strings.Join(path, "::")
	full := t.canonical(written)
	if !strings.HasPrefix(full+"::", "burn_tensor::") {
		return nil, false
	}
	cut := strings.LastIndex(full, "::")
	if cut < 0 {
		return nil, false // the crate itself (`use burn::tensor;`)
	}
	owner, name := full[:cut], full[cut+2:]
	rows := t.byOwner[owner]
	if len(rows) == 0 || t.listed[owner] || t.isType(owner) {
		return nil, false
	}
	globbed := false
	for _, i := range rows {
		it := t.Items[i]
		if it.Name == name {
			return nil, false
		}
		if it.Name == "*" {
			globbed = true
		}
	}
	if len(t.byOwner[full]) > 0 {
		return nil, false // a module
	}
	for p := range t.byOwner {
		if strings.HasPrefix(p, full+"::") {
			return nil, false
		}
	}
	// The program's prefix for burn_tensor: what it wrote before the part
	// the canonical path keeps.
	rest := strings.TrimPrefix(full, "burn_tensor")
	prefix := strings.TrimSuffix(written, rest)
	if prefix == written {
		prefix = "burn_tensor"
	}
	for _, it := range t.Items {
		switch it.Kind {
		case "struct", "enum", "trait", "type", "fn", "const", "static", "macro":
		default:
			continue
		}
		if it.Name != name || it.Path == owner || !strings.HasPrefix(it.Path+"::", "burn_tensor::") {
			continue
		}
		p := prefix + strings.TrimPrefix(it.Path, "burn_tensor") + "::" + name
		if !slices.ContainsFunc(instead, func(i Import) bool { return i.Path == p }) {
			instead = append(instead, Import{Path: p, Kind: it.Kind})
		}
	}
	if globbed && len(instead) == 0 {
		return nil, false
	}
	return instead, true
}

// Import is a path a program can import an item by.
type Import struct {
	Path string
	Kind string // the table's item kind: struct, enum, trait, fn, ...
}

// KindWord is how rustc names the item's kind in "consider importing this
// enum instead".
func (i Import) KindWord() string {
	switch i.Kind {
	case "fn":
		return "function"
	case "type":
		return "type alias"
	case "const":
		return "constant"
	}
	return i.Kind
}

func (t *Table) isType(p string) bool {
	for _, ps := range t.types {
		if slices.Contains(ps, p) {
			return true
		}
	}
	return false
}

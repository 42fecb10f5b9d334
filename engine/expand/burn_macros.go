package expand

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/syntax"
)

// burnItemMacro expands the item macros of Burn's crates the engine
// models: burn-cubecl's `kernel_source!(Name, "file.wgsl")`
// (crates/burn-cubecl/src/template/base.rs:68-84), re-exported as
// burn::backend::wgpu::kernel_source. It declares `#[derive(new)] pub
// struct Name;` with a `source(&self) -> SourceTemplate` method. Burn's
// body is `SourceTemplate::new(include_str!(file))`; the playground never
// reads the template (a source kernel is a boundary), so the expansion
// passes the file's path instead of reading the file. ok is false for any
// other macro.
func (x *expander) burnItemMacro(m *syntax.MacroExpr) ([]syntax.Item, bool) {
	if m.Name != "kernel_source" || !x.fromBurn(m) {
		return nil, false
	}
	var name string
	var file []string
	for i, t := range m.Tokens {
		switch {
		case i == 0 && t.Kind == syntax.Ident:
			name = t.Text
		case i == 1 && t.Kind == syntax.Punct && t.Text == ",":
		case i >= 2:
			file = append(file, x.src.Slice(t.Range))
		}
	}
	if name == "" || len(file) == 0 {
		return nil, false
	}
	text := fmt.Sprintf("#[derive(new)] pub struct %s; impl %s { fn source(&self) -> burn::backend::wgpu::SourceTemplate { burn::backend::wgpu::SourceTemplate::new(%s) } }",
		name, name, strings.TrimSuffix(strings.Join(file, " "), ","))
	g := x.src.Generate(text, m.Range, nil)
	g.Macro = m.Name
	items, diags := syntax.ParseItems(syntax.Tokens{Toks: syntax.Lex(text, g.Base), Text: g.Text, Base: g.Base, Macros: x.names}, false)
	if len(diags) > 0 {
		return nil, false
	}
	return x.items(items), true
}

// fromBurn reports a macro call whose path, or the `use` that names it,
// starts in one of Burn's crates.
func (x *expander) fromBurn(m *syntax.MacroExpr) bool {
	root := ""
	switch {
	case len(m.Path) >= 2:
		root = m.Path[0]
	default:
		p, ok := x.imports[m.Name]
		if !ok {
			return false
		}
		root, _, _ = strings.Cut(strings.TrimPrefix(p, "::"), "::")
	}
	return root == "burn" || strings.HasPrefix(root, "burn_")
}

package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
)

// AddFeatureEdit returns the edit to Cargo.toml that enables a feature of
// burn, whatever form the dependency has: a version string becomes a table
// with features, a table without features gets a features array, and an
// existing array gets the feature appended in the style it is written in.
// Without a burn dependency it adds one to [dependencies]. It reports false
// when burn has no such feature, when the dependency already lists it, and
// when Cargo.toml is not valid TOML.
func (c *Config) AddFeatureEdit(feature string) (diag.Edit, bool) {
	if c.doc == nil || !burnGraph.hasFeature("burn", feature) {
		return diag.Edit{}, false
	}
	b := c.burn
	if b == nil || b.synthetic {
		return insertDependency(c.doc, "burn", `{ version = "0.22", features = [`+quoteLike(nil, feature)+`] }`)
	}
	for _, f := range b.features {
		if f.name == feature {
			return diag.Edit{}, false
		}
	}
	if b.featuresValue != nil {
		return appendToArray(c.doc, b.featuresValue, feature), true
	}
	array := "[" + quoteLike(nil, feature) + "]"
	switch b.value.kind {
	case kindString:
		version := c.doc.text[b.value.span.Start:b.value.span.End]
		return replaceEdit(b.value.span, "{ version = "+version+", features = "+array+" }"), true
	case kindTable:
		if wrong := b.value.table.get("features"); wrong != nil {
			return replaceEdit(wrong.span, array), true
		}
		return insertKey(c.doc, b.value, "features", array)
	}
	return diag.Edit{}, false
}

func replaceEdit(span source.Range, newText string) diag.Edit {
	return diag.Edit{File: diag.CargoToml, Range: span, NewText: newText}
}

func insertEdit(at int, newText string) diag.Edit {
	return replaceEdit(source.Range{Start: at, End: at}, newText)
}

// appendToArray adds a string to an array, on a line of its own when the
// array puts its elements on lines of their own.
func appendToArray(doc *document, array *value, s string) diag.Edit {
	if len(array.items) == 0 {
		return replaceEdit(array.span, "["+quoteLike(nil, s)+"]")
	}
	last := array.items[len(array.items)-1]
	quoted := quoteLike(last, s)
	if strings.Contains(doc.text[array.span.Start:array.items[0].span.Start], "\n") {
		return insertEdit(last.span.End, ",\n"+lineIndent(doc.text, last.span.Start)+quoted)
	}
	return insertEdit(last.span.End, ", "+quoted)
}

// lineIndent returns the blanks that start the line holding offset i.
func lineIndent(text string, i int) string {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := start
	for end < len(text) && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	return text[start:end]
}

// insertKey adds `key = val` to a table in the form the table is written.
func insertKey(doc *document, tv *value, key, val string) (diag.Edit, bool) {
	t := tv.table
	switch t.form {
	case formInline:
		if len(t.names) == 0 {
			return replaceEdit(tv.span, "{ "+key+" = "+val+" }"), true
		}
		return insertEdit(t.end, ", "+key+" = "+val), true
	case formHeader:
		return insertLine(doc, t.end, key+" = "+val), true
	case formDotted:
		return insertLine(doc, t.end, t.indent+t.prefix+key+" = "+val), true
	}
	return diag.Edit{}, false
}

// insertLine inserts a line at the start of the line at offset at, or after
// the last line when at is the end of a text without a final newline.
func insertLine(doc *document, at int, line string) diag.Edit {
	if at == len(doc.text) && at > 0 && doc.text[at-1] != '\n' {
		return insertEdit(at, "\n"+line)
	}
	return insertEdit(at, line+"\n")
}

// insertDependency adds `name = val` to [dependencies], creating the table
// at the end of the text when there is none.
func insertDependency(doc *document, name, val string) (diag.Edit, bool) {
	deps := doc.root.get("dependencies")
	if deps == nil || deps.kind == kindTable && deps.table.form == formImplicit {
		text := doc.text
		switch {
		case text == "":
			return insertEdit(0, "[dependencies]\n"+name+" = "+val+"\n"), true
		case strings.HasSuffix(text, "\n"):
			return insertEdit(len(text), "\n[dependencies]\n"+name+" = "+val+"\n"), true
		}
		return insertEdit(len(text), "\n\n[dependencies]\n"+name+" = "+val+"\n"), true
	}
	if deps.kind != kindTable || deps.table.get(name) != nil {
		return diag.Edit{}, false
	}
	return insertKey(doc, deps, name, val)
}

// DeclaredFeatures are the keys of the package's own [features] table, in
// the order they are written (default among them).
func (c *Config) DeclaredFeatures() []string {
	if c.doc == nil {
		return nil
	}
	fs := c.doc.root.get("features")
	if fs == nil || fs.kind != kindTable {
		return nil
	}
	return append([]string(nil), fs.table.names...)
}

// EnablePackageFeatureEdit returns the edit to Cargo.toml that turns on
// the package's own feature name by default, as `cargo run --features
// name` would for one run: name appended to `default` in [features], or a
// `default = ["name"]` added there. It reports false when the package
// declares no such feature, when default already lists it, and when
// Cargo.toml is not valid TOML.
func (c *Config) EnablePackageFeatureEdit(name string) (diag.Edit, bool) {
	if c.doc == nil || name == "default" {
		return diag.Edit{}, false
	}
	fs := c.doc.root.get("features")
	if fs == nil || fs.kind != kindTable || fs.table.get(name) == nil {
		return diag.Edit{}, false
	}
	def := fs.table.get("default")
	if def == nil {
		return insertKey(c.doc, fs, "default", "["+quoteLike(nil, name)+"]")
	}
	if def.kind != kindArray {
		return diag.Edit{}, false
	}
	for _, it := range def.items {
		if it.kind == kindString && it.text == name {
			return diag.Edit{}, false
		}
	}
	return appendToArray(c.doc, def, name), true
}

// ServerEdit returns the edit to Cargo.toml that a fix of the playground's
// servers stands for: a [[package.metadata.playground.servers]] table
// appended at the end of the text, or one fault taken out of a declared
// server's faults (the whole `faults` line when it is the only one). ok is
// false when the text cannot take the edit: it is not valid TOML, its
// servers are not written as tables, or the server or fault is not there.
func (c *Config) ServerEdit(e dispatch.ServerEdit) (diag.Edit, bool) {
	if c.doc == nil {
		return diag.Edit{}, false
	}
	servers := c.doc.root.path("package", "metadata", "playground", "servers")
	if e.Add != "" {
		if servers != nil && servers.kind != kindArrayOfTables {
			return diag.Edit{}, false
		}
		text := c.doc.text
		block := fmt.Sprintf("[[package.metadata.playground.servers]]\naddress = %s\ndevice = %s\n", strconv.Quote(e.Add), strconv.Quote(e.Device))
		switch {
		case text == "":
		case strings.HasSuffix(text, "\n\n"):
		case strings.HasSuffix(text, "\n"):
			block = "\n" + block
		default:
			block = "\n\n" + block
		}
		return insertEdit(len(text), block), true
	}
	if servers == nil || servers.kind != kindArrayOfTables {
		return diag.Edit{}, false
	}
	for _, s := range servers.items {
		address := s.table.get("address")
		faults := s.table.get("faults")
		if address == nil || address.text != e.Address || faults == nil || faults.kind != kindArray {
			continue
		}
		for i, f := range faults.items {
			if f.kind != kindString || f.text != e.DropFault {
				continue
			}
			n := len(faults.items)
			switch {
			case n == 1 && s.table.form == formHeader:
				return replaceEdit(wholeLines(c.doc.text, faults.key.Start, faults.span.End), ""), true
			case n == 1:
				return replaceEdit(faults.span, "[]"), true
			case i < n-1:
				return replaceEdit(source.Range{Start: f.span.Start, End: faults.items[i+1].span.Start}, ""), true
			default:
				return replaceEdit(source.Range{Start: faults.items[i-1].span.End, End: f.span.End}, ""), true
			}
		}
	}
	return diag.Edit{}, false
}

// wholeLines widens start..end to the lines that hold it, with the end's
// newline.
func wholeLines(text string, start, end int) source.Range {
	start = strings.LastIndexByte(text[:start], '\n') + 1
	if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		end += i + 1
	} else {
		end = len(text)
	}
	return source.Range{Start: start, End: end}
}

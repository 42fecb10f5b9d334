package config

import (
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/dispatch-playground/playground/engine/source"
)

// The document model: the TOML text as nested tables whose every key and
// value keeps its byte range, so that diagnostics and edits point at the
// user's own text. go-toml's unstable parser yields expressions with ranges
// on keys and scalars only; the ranges of arrays and inline tables and the
// places where a new key can be inserted are reconstructed here.
//
// The builder runs on text that the parser accepted; go-toml's decoder has
// checked its semantics (duplicate keys, redefined tables) before the model
// is read. It still never trusts that: anything inconsistent is skipped.

type valueKind uint8

const (
	kindString valueKind = iota + 1
	kindInteger
	kindFloat
	kindBool
	kindDatetime
	kindArray
	kindTable
	kindArrayOfTables
)

// value is one TOML value.
type value struct {
	kind valueKind
	// span is the value as written. For a table defined by a [header] it is
	// the header; for a table defined by dotted keys, the first key part
	// that named it.
	span source.Range
	// key is the key part that names this value in its table; zero for
	// array elements.
	key source.Range
	// text is the decoded string of a string value, else the raw text.
	text  string
	quote byte     // a string's opening quote, '"' or '\''
	items []*value // elements of an array, tables of an array of tables
	table *table
}

// tableForm is how a table was written, which decides how to add a key.
type tableForm uint8

const (
	formRoot     tableForm = iota
	formHeader             // [name] or [[name]]
	formInline             // name = { ... }
	formDotted             // name.key = ... at the top level of a section
	formNested             // name.key = ... inside an inline table
	formImplicit           // only named by the header of a sub-table
)

type table struct {
	form    tableForm
	names   []string // keys in the order they were first written
	entries map[string]*value
	// end is where a new key goes: for a header or dotted table the start
	// of the line after its last entry; for an inline table the end of its
	// last entry (or just after '{').
	end int
	// prefix is the dotted path that reaches a dotted table, as written:
	// "burn." for burn.version = "0.22"; indent is the blank space that
	// starts its line.
	prefix string
	indent string
}

func newTable(form tableForm) *table {
	return &table{form: form, entries: map[string]*value{}}
}

func (t *table) get(name string) *value {
	if t == nil {
		return nil
	}
	return t.entries[name]
}

// path follows keys through nested tables: nil when one is missing or not
// a table.
func (t *table) path(keys ...string) *value {
	var v *value
	for i, k := range keys {
		v = t.get(k)
		if v == nil {
			return nil
		}
		if i < len(keys)-1 {
			if v.kind != kindTable {
				return nil
			}
			t = v.table
		}
	}
	return v
}

func (t *table) set(name string, v *value) {
	if _, ok := t.entries[name]; !ok {
		t.names = append(t.names, name)
	}
	t.entries[name] = v
}

// subtable returns the table at name, or nil.
func (t *table) subtable(name string) *table {
	v := t.get(name)
	if v == nil || v.kind != kindTable {
		return nil
	}
	return v.table
}

// document is a parsed Cargo.toml.
type document struct {
	text string
	root *table
}

// parseError is a TOML syntax error with its exact range.
type parseError struct {
	message string
	span    source.Range
}

// buildDocument parses text into the model. It reports the first syntax
// error, if any, in which case the model is incomplete.
func buildDocument(text string) (*document, *parseError) {
	data := []byte(text)
	b := &builder{doc: &document{text: text, root: newTable(formRoot)}}
	b.section = b.doc.root
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() {
		b.expression(p.Expression())
	}
	if err := p.Error(); err != nil {
		return b.doc, b.syntaxError(data, err)
	}
	return b.doc, nil
}

type builder struct {
	doc     *document
	section *table // the table of the current [header], or the root
}

func (b *builder) syntaxError(data []byte, err error) *parseError {
	pe, ok := err.(*unstable.ParserError)
	if !ok {
		return &parseError{message: err.Error()}
	}
	// The highlight is a sub-slice of data; its offset is where its backing
	// array starts relative to data's, which capacities reveal.
	start := cap(data) - cap(pe.Highlight)
	if start < 0 || start+len(pe.Highlight) > len(data) {
		return &parseError{message: pe.Message}
	}
	return &parseError{message: pe.Message, span: source.Range{Start: start, End: start + len(pe.Highlight)}}
}

func rangeOf(r unstable.Range) source.Range {
	return source.Range{Start: int(r.Offset), End: int(r.Offset + r.Length)}
}

// keyParts returns the key nodes of a chain starting at first.
func keyParts(first *unstable.Node) []*unstable.Node {
	var keys []*unstable.Node
	for k := first; k != nil; k = k.Next() {
		if k.Kind == unstable.Key {
			keys = append(keys, k)
		}
	}
	return keys
}

func (b *builder) expression(n *unstable.Node) {
	if n == nil {
		return
	}
	switch n.Kind {
	case unstable.KeyValue:
		end := b.keyValue(n, b.section, true)
		b.section.end = b.lineEnd(end)
	case unstable.Table, unstable.ArrayTable:
		keys := keyParts(n.Child())
		if len(keys) == 0 {
			return
		}
		header := b.headerRange(keys)
		t := b.header(keys, header, n.Kind == unstable.ArrayTable)
		if t == nil {
			// Unreachable on text the decoder accepted; the entries of an
			// inconsistent section are read into a table nobody sees.
			t = newTable(formHeader)
		}
		t.end = b.lineEnd(header.End)
		b.section = t
	}
}

// header walks a [a.b.c] or [[a.b.c]] header from the root and returns the
// table it opens.
func (b *builder) header(keys []*unstable.Node, header source.Range, arrayOfTables bool) *table {
	t := b.doc.root
	for i, k := range keys {
		name := string(k.Data)
		last := i == len(keys)-1
		v := t.get(name)
		if last && arrayOfTables {
			if v == nil {
				v = &value{kind: kindArrayOfTables, span: header, key: rangeOf(k.Raw)}
				t.set(name, v)
			}
			if v.kind != kindArrayOfTables {
				return nil
			}
			nt := newTable(formHeader)
			v.items = append(v.items, &value{kind: kindTable, span: header, key: rangeOf(k.Raw), table: nt})
			return nt
		}
		if v == nil {
			v = &value{kind: kindTable, span: rangeOf(k.Raw), key: rangeOf(k.Raw), table: newTable(formImplicit)}
			t.set(name, v)
		}
		switch v.kind {
		case kindArrayOfTables:
			if last || len(v.items) == 0 {
				return nil
			}
			t = v.items[len(v.items)-1].table
		case kindTable:
			t = v.table
		default:
			return nil
		}
		if last {
			if t.form == formImplicit {
				t.form = formHeader
				v.span = header
				v.key = rangeOf(k.Raw)
			}
			return t
		}
	}
	return nil
}

// headerRange widens the key parts of a header to its brackets.
func (b *builder) headerRange(keys []*unstable.Node) source.Range {
	text := b.doc.text
	start := int(keys[0].Raw.Offset)
	for start > 0 && (text[start-1] == ' ' || text[start-1] == '\t' || text[start-1] == '[') {
		start--
	}
	last := keys[len(keys)-1].Raw
	end := int(last.Offset + last.Length)
	for end < len(text) && (text[end] == ' ' || text[end] == '\t' || text[end] == ']') {
		end++
	}
	return source.Range{Start: start, End: end}
}

// keyValue reads `a.b.c = value` into t and returns the end of the value.
// topLevel is false inside inline tables, where dotted tables cannot take
// new lines.
func (b *builder) keyValue(n *unstable.Node, t *table, topLevel bool) int {
	valueNode := n.Child()
	if valueNode == nil {
		return int(n.Raw.Offset + n.Raw.Length)
	}
	keys := keyParts(valueNode.Next())
	if len(keys) == 0 {
		return int(n.Raw.Offset + n.Raw.Length)
	}
	last := keys[len(keys)-1]
	v, end := b.value(valueNode, b.valueStart(int(last.Raw.Offset+last.Raw.Length)))
	v.key = rangeOf(last.Raw)

	kvStart := int(keys[0].Raw.Offset)
	for i, k := range keys[:len(keys)-1] {
		name := string(k.Data)
		sub := t.get(name)
		if sub == nil {
			form := formDotted
			if !topLevel {
				form = formNested
			}
			nt := newTable(form)
			nt.prefix = b.doc.text[kvStart:keys[i+1].Raw.Offset]
			nt.indent = b.indentOf(kvStart)
			sub = &value{kind: kindTable, span: rangeOf(k.Raw), key: rangeOf(k.Raw), table: nt}
			t.set(name, sub)
		}
		if sub.kind != kindTable {
			return end
		}
		t = sub.table
		if t.form == formDotted {
			t.end = b.lineEnd(end)
		}
	}
	t.set(string(last.Data), v)
	return end
}

// valueStart finds the value after a key: past blanks, '=' and blanks.
func (b *builder) valueStart(keyEnd int) int {
	text := b.doc.text
	i := keyEnd
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i < len(text) && text[i] == '=' {
		i++
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

// value reads the value node n that starts at start, and returns it with
// the offset just past it.
func (b *builder) value(n *unstable.Node, start int) (*value, int) {
	switch n.Kind {
	case unstable.Array:
		v := &value{kind: kindArray}
		pos := min(start+1, len(b.doc.text))
		for c := n.Child(); c != nil; c = c.Next() {
			if c.Kind == unstable.Comment {
				continue
			}
			item, end := b.value(c, b.skipTrivia(pos))
			v.items = append(v.items, item)
			pos = end
		}
		pos = b.skipTrivia(pos)
		if pos < len(b.doc.text) && b.doc.text[pos] == ']' {
			pos++
		}
		v.span = source.Range{Start: start, End: pos}
		v.text = b.doc.text[start:pos]
		return v, pos
	case unstable.InlineTable:
		start = int(n.Raw.Offset)
		t := newTable(formInline)
		t.end = start + 1
		for c := n.Child(); c != nil; c = c.Next() {
			if c.Kind != unstable.KeyValue {
				continue
			}
			t.end = b.keyValue(c, t, false)
		}
		pos := b.skipTrivia(t.end)
		if pos < len(b.doc.text) && b.doc.text[pos] == '}' {
			pos++
		}
		return &value{kind: kindTable, span: source.Range{Start: start, End: pos}, table: t}, pos
	}
	v := &value{span: rangeOf(n.Raw), text: string(n.Data)}
	switch n.Kind {
	case unstable.String:
		v.kind = kindString
		if v.span.Len() > 0 {
			v.quote = b.doc.text[v.span.Start]
		}
	case unstable.Integer:
		v.kind = kindInteger
	case unstable.Float:
		v.kind = kindFloat
	case unstable.Bool:
		v.kind = kindBool
	default:
		v.kind = kindDatetime
	}
	return v, v.span.End
}

// skipTrivia moves past what may separate array elements and inline table
// entries: blanks, newlines, commas and comments.
func (b *builder) skipTrivia(i int) int {
	text := b.doc.text
	for i < len(text) {
		switch text[i] {
		case ' ', '\t', '\n', '\r', ',':
			i++
		case '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// indentOf returns the blanks between the start of i's line and i.
func (b *builder) indentOf(i int) string {
	text := b.doc.text
	start := i
	for start > 0 && (text[start-1] == ' ' || text[start-1] == '\t') {
		start--
	}
	return text[start:i]
}

// lineEnd returns the start of the line after offset i, or the end of the
// text when i is on the last line.
func (b *builder) lineEnd(i int) int {
	text := b.doc.text
	for i < len(text) {
		if text[i] == '\n' {
			return i + 1
		}
		i++
	}
	return len(text)
}

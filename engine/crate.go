package engine

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// A Request with files is a crate (contract version 2): the entry file is
// the crate's root, each `mod x;` is read from the file Cargo would read it
// from, and a binary, example or test reaches the package's library
// (src/lib.rs) as `<crate_name>::`, as Cargo links it. The files are laid
// end to end in one source.File (its segments), so the evaluator sees one
// text and the Result names each file.

// Limits of a crate: its files count against the snippet's limit together.
const (
	MaxCrateFiles = 64
	// CodeModuleFile is rustc's E0583.
	CodeModuleFile = "file-not-found-for-module"
)

// isCrate tells a Request of contract version 2 from one of version 1.
func isCrate(req Request) bool {
	return len(req.Files) > 0 || (req.Entry != "" && req.Entry != EntryTests)
}

// entryPath is the path of the crate root the Request runs.
func entryPath(req Request) string {
	if req.Entry == "" || req.Entry == EntryTests {
		return EntryMain
	}
	return req.Entry
}

// crateLoader reads a crate's files into one source.File and one tree.
type crateLoader struct {
	texts map[string]string
	text  strings.Builder
	file  *source.File
	diags diag.List
	// segments are the files read so far, in the order they were laid out.
	segments []loaded
	loading  map[string]bool
}

type loaded struct {
	path string
	base int
	text string
}

// loadCrate parses the crate of a version-2 Request. crateName is the
// package's name as Rust writes it (`my-app` is `my_app`). Each of deps
// whose library the Request carries (its src/lib.rs, at its folder from
// the package's root) is linked in by its name, as Cargo links a path
// dependency.
func loadCrate(req Request, crateName string, deps []config.PathCrate) (*source.File, *syntax.File, diag.List) {
	l := &crateLoader{texts: map[string]string{}, loading: map[string]bool{}}
	for p, t := range req.Files {
		l.texts[path.Clean(p)] = t
	}
	entry := entryPath(req)
	l.texts[entry] = req.Snippet

	root := l.parse(entry)
	if lib := "src/lib.rs"; entry != lib && hasKey(l.texts, lib) {
		libTree := l.parse(lib)
		root.Items = append(root.Items, &syntax.ModDecl{Range: libTree.Range, Name: crateName, Items: l.moduleItems(libTree), Inline: true, Crate: true, Pub: true})
	}
	for _, d := range deps {
		if lib := path.Join(d.Dir, "src/lib.rs"); hasKey(l.texts, lib) {
			tree := l.parse(lib)
			root.Items = append(root.Items, &syntax.ModDecl{Range: tree.Range, Name: d.Name, Items: l.moduleItems(tree), Inline: true, Crate: true, Pub: true})
		}
	}
	l.file = source.NewFile(diag.MainRS, l.text.String())
	for _, s := range l.segments {
		l.file.AddSegment(s.path, s.base, s.text)
	}
	l.diags.Sort()
	return l.file, root, l.diags
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// parse lays out the file at p and parses it with the modules it declares.
func (l *crateLoader) parse(p string) *syntax.File {
	text := l.texts[p]
	base := l.text.Len()
	l.text.WriteString(text)
	l.text.WriteByte('\n')
	l.segments = append(l.segments, loaded{path: p, base: base, text: text})
	f, diags := syntax.ParseAt(text, base)
	l.diags = append(l.diags, diags...)
	l.loading[p] = true
	l.modules(f.Items, moduleDir(p))
	delete(l.loading, p)
	return f
}

// moduleDir is the folder where the modules a file declares live: beside
// a crate root or mod.rs, in a folder named after any other file.
func moduleDir(p string) string {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if base == "main.rs" || base == "lib.rs" || base == "mod.rs" || isCrateRoot(p) {
		return dir
	}
	return path.Join(dir, strings.TrimSuffix(base, ".rs"))
}

// isCrateRoot tells the targets Cargo builds from one file.
func isCrateRoot(p string) bool {
	for _, dir := range []string{"src/bin/", "examples/", "tests/", "benches/"} {
		if rest, ok := strings.CutPrefix(p, dir); ok && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// modules reads the files of the `mod x;` items among items, declared in
// a file whose modules live in dir.
func (l *crateLoader) modules(items []syntax.Item, dir string) {
	for _, it := range items {
		m, ok := it.(*syntax.ModDecl)
		if !ok {
			continue
		}
		if m.Inline {
			l.modules(m.Items, path.Join(dir, m.Name))
			continue
		}
		candidates := []string{path.Join(dir, m.Name+".rs"), path.Join(dir, m.Name, "mod.rs")}
		if p, ok := pathAttr(m.Attrs); ok {
			candidates = []string{path.Join(dir, p)}
		}
		found := ""
		for _, c := range candidates {
			if _, ok := l.texts[c]; ok {
				found = c
				break
			}
		}
		switch {
		case found == "":
			help := fmt.Sprintf("to create the module `%s`, create file %q or %q", m.Name, candidates[0], path.Join(dir, m.Name, "mod.rs"))
			if len(candidates) == 1 {
				help = fmt.Sprintf("to create the module `%s`, create file %q", m.Name, candidates[0])
			}
			l.diags.Add(diag.Diagnostic{Code: CodeModuleFile, Severity: diag.Error, Phase: diag.Check, File: diag.MainRS,
				Range: m.Range, Message: fmt.Sprintf("file not found for module `%s`", m.Name), Help: []string{help}})
		case l.loading[found]:
			l.diags.Add(diag.Diagnostic{Code: CodeModuleFile, Severity: diag.Error, Phase: diag.Check, File: diag.MainRS,
				Range: m.Range, Message: fmt.Sprintf("circular modules: %s -> %s", found, found)})
		default:
			m.Items = l.moduleItems(l.parse(found))
		}
	}
}

// moduleItems are the items of a file read as a module or a library: the
// parser reads any file as a snippet, whose top level may hold
// statements, but a module holds only items, so a macro call there is an
// item macro (`kernel_source!(Name, "k.wgsl");`) in its place among the
// items, and any other statement is rustc's error.
func (l *crateLoader) moduleItems(f *syntax.File) []syntax.Item {
	if len(f.Stmts) == 0 {
		return f.Items
	}
	items := slices.Clone(f.Items)
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *syntax.ItemStmt:
			items = append(items, st.Item)
		case *syntax.ExprStmt:
			if m, ok := st.X.(*syntax.MacroExpr); ok {
				items = append(items, &syntax.MacroItem{Range: st.Range, Call: m})
				continue
			}
			l.notItem(st)
		default:
			l.notItem(st)
		}
	}
	slices.SortStableFunc(items, func(a, b syntax.Item) int { return a.Span().Start - b.Span().Start })
	return items
}

// notItem reports a statement at the top level of a module's file.
func (l *crateLoader) notItem(st syntax.Stmt) {
	r := st.Span()
	word := firstWord(l.text.String()[r.Start:r.End])
	found := "`" + word + "`"
	if word == "let" {
		found = "keyword `let`"
	}
	l.diags.Add(diag.Diagnostic{Code: syntax.CodeSyntaxError, Severity: diag.Error, Phase: diag.Parse, File: diag.MainRS,
		Range: source.Range{Start: r.Start, End: r.Start + len(word)}, Message: "expected item, found " + found})
}

// firstWord is the identifier or punctuation a text starts with.
func firstWord(s string) string {
	end := strings.IndexFunc(s, func(r rune) bool { return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) })
	switch {
	case end == 0:
		_, size := utf8.DecodeRuneInString(s)
		return s[:size]
	case end < 0:
		return s
	}
	return s[:end]
}

// pathAttr reads `#[path = "file.rs"]`.
func pathAttr(attrs []*syntax.Attr) (string, bool) {
	for _, a := range attrs {
		if a.Path == "path" && a.Eq && len(a.Args) > 0 && a.Args[len(a.Args)-1].Kind == syntax.String {
			return a.Args[len(a.Args)-1].Value, true
		}
	}
	return "", false
}

// otherManifests are the Cargo.toml files of a Request besides the
// package's own: its workspace root's and its path dependencies', by path
// from the package's root.
func otherManifests(req Request) config.Manifests {
	var out config.Manifests
	for p, t := range req.Files {
		p = path.Clean(p)
		if path.Base(p) == diag.CargoToml && p != diag.CargoToml {
			if out == nil {
				out = config.Manifests{}
			}
			out[p] = t
		}
	}
	return out
}

// crateSize is the size of a crate's text, for the snippet limit.
func crateSize(req Request) (n int) {
	n = len(req.Snippet)
	for p, t := range req.Files {
		if path.Clean(p) != entryPath(req) {
			n += len(t)
		}
	}
	return n
}

// missingModules reports the `mod x;` items of a one-file snippet, whose
// files the Request does not carry.
func missingModules(f *syntax.File) diag.List {
	l := &crateLoader{texts: map[string]string{}, loading: map[string]bool{}}
	l.modules(f.Items, "src")
	return l.diags
}

package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/similar"
	"github.com/dispatch-playground/playground/engine/source"
)

// DefaultManifest is what an empty Cargo.toml stands for.
const DefaultManifest = "[dependencies]\nburn = \"0.22\"\n"

// Config is what the playground reads from the user's Cargo.toml.
type Config struct {
	// Dispatch is what the dispatch model needs. Its Features hold every
	// enabled "crate/feature", closed under Burn's feature graph, plus the
	// pseudo-feature DefaultBackend when burn-dispatch's build script would
	// set cfg(default_backend). Its Hardware is what
	// [package.metadata.playground.hardware] says, and for each key it
	// leaves out, one device per GPU backend the features compile in:
	// cuda = 1 with the cuda feature, rocm = 1 with rocm, one DiscreteGpu
	// wgpu adapter with any wgpu flavour, metal and vulkan true with their
	// features; nothing otherwise.
	Dispatch dispatch.Config
	// BurnFeatures are the features of burn as the user listed them, in
	// order, across every declaration of burn (for the UI).
	BurnFeatures []string
	// DefaultFeatures reports whether burn's default features are on, by
	// any declaration or by the package's own default features.
	DefaultFeatures bool
	// BurnDeclared is false when Cargo.toml does not declare burn (or is
	// empty) and the implicit `burn = "0.22"` stands in.
	BurnDeclared bool
	// BurnVersion is the version requirement of burn as written.
	BurnVersion string
	// FeaturesArray is the range of the features array of the burn
	// dependency, or zero.
	FeaturesArray source.Range
	// BurnDep is the range of the burn dependency's value: the string, the
	// inline table, the [dependencies.burn] header, or the first key of a
	// dotted `burn.version = ...`. Zero when burn is not declared.
	BurnDep source.Range
	// EnvRanges holds where each variable of Dispatch.Env is set (its value).
	EnvRanges map[string]source.Range
	// ServerRanges holds where each of Dispatch.Servers is declared, in the
	// same order.
	ServerRanges []source.Range
	// Package is the user's own package: its [package] table and its
	// enabled features.
	Package Package
	// PathCrates are the path dependencies whose manifests ParseIn was
	// given, and theirs, in declaration order.
	PathCrates []PathCrate

	// The document and the burn declaration, for AddFeatureEdit; doc is nil
	// when the text is not valid TOML.
	doc  *document
	burn *dependency
}

// parser carries one Parse call.
type parser struct {
	doc   *document
	diags diag.List
	env   map[string]*value // the values of [package.metadata.playground] env
	// set holds the other manifests of a ParseIn call (nil for Parse);
	// dir is the folder of this parser's package from the root package's,
	// file its manifest's path ("" for the root package's Cargo.toml),
	// depth how many path dependencies down it is.
	set   *manifestSet
	dir   string
	file  string
	depth int
	// ws is the package's workspace root, when its manifest is known.
	ws *workspace
	// unreadableBurn is set when a declaration of a Burn crate has the
	// wrong type: its error says enough, without a missing-burn warning.
	unreadableBurn bool
}

func (p *parser) add(d diag.Diagnostic) { p.diags.Add(d) }

// Parse reads a Cargo.toml. It never fails: what it cannot read becomes a
// diagnostic, and the Config falls back to what an empty Cargo.toml means.
// A TOML syntax error leaves nothing readable, so the Config is then the
// default one.
//
// Text past MaxBytes or MaxNesting is refused the same way, before go-toml
// sees it (see bounds.go).
func Parse(text string) (*Config, diag.List) { return parseIn(text, nil) }

// readDocument reads a manifest's text: its document, or the one
// diagnostic that kept it from being read (bounds, TOML syntax, go-toml's
// semantic checks).
func readDocument(text string) (*document, *diag.Diagnostic) {
	if d, ok := checkBounds(text); !ok {
		return nil, &d
	}
	doc, perr := buildDocument(text)
	if perr == nil {
		perr = decodeError(text)
	}
	if perr != nil {
		d := errInvalidTOML(perr.message, perr.span)
		if fix, ok := closeAt(text, perr.span.Start); ok {
			d.Fixes = []diag.Fix{fix}
		}
		return nil, &d
	}
	return doc, nil
}

// closeAt is the fix of a TOML syntax error that a missing closing or
// separating character causes (`["cuda", "autodiff" }`): the first of `]`,
// `,`, `}` and `"` which, put where the parser stopped, makes the whole
// text read.
func closeAt(text string, at int) (diag.Fix, bool) {
	if at < 0 || at > len(text) {
		return diag.Fix{}, false
	}
	// Right after the last value, not after the blanks that follow it.
	for at > 0 && (text[at-1] == ' ' || text[at-1] == '\t') {
		at--
	}
	for _, c := range []string{"]", ",", "}", `"`} {
		fixed := text[:at] + c + text[at:]
		if _, perr := buildDocument(fixed); perr == nil && decodeError(fixed) == nil {
			return diag.Fix{Title: fmt.Sprintf("Insert `%s`", c), Edits: []diag.Edit{insertEdit(at, c)}}, true
		}
	}
	return diag.Fix{}, false
}

// unreadable is the default Config, with the one error that kept the text
// from being read.
func unreadable(d diag.Diagnostic) (*Config, diag.List) {
	c := build(&parser{doc: &document{text: DefaultManifest, root: newTable(formRoot)}}, true)
	c.doc = nil
	return c, diag.List{d}
}

// decodeError runs go-toml's decoder, which checks what the parser leaves
// to the consumer: duplicate keys, tables defined twice, dates and numbers
// out of range. Its errors carry a line and a byte column.
func decodeError(text string) *parseError {
	var discard map[string]any
	err := toml.Unmarshal([]byte(text), &discard)
	if err == nil {
		return nil
	}
	de, ok := err.(*toml.DecodeError)
	if !ok {
		return &parseError{message: err.Error()}
	}
	row, col := de.Position()
	start := offsetOf(text, row, col)
	return &parseError{message: decodeMessage(de), span: source.Range{Start: start, End: tokenEnd(text, start)}}
}

// decodeMessage strips the "toml: " prefix go-toml puts on its errors.
func decodeMessage(de *toml.DecodeError) string {
	msg := de.Error()
	const prefix = "toml: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

// offsetOf turns a 1-based line and byte column into an offset.
func offsetOf(text string, line, col int) int {
	offset := 0
	for l := 1; l < line && offset < len(text); offset++ {
		if text[offset] == '\n' {
			l++
		}
	}
	offset += col - 1
	return max(0, min(offset, len(text)))
}

// tokenEnd extends an error position over the key or word it starts, so
// that the span covers what the message talks about.
func tokenEnd(text string, start int) int {
	end := start
	if end < len(text) && (text[end] == '"' || text[end] == '\'') {
		quote := text[end]
		end++
		for end < len(text) && text[end] != quote && text[end] != '\n' {
			end++
		}
		if end < len(text) && text[end] == quote {
			end++
		}
		return end
	}
	for end < len(text) {
		c := text[end]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '=' || c == ',' || c == ']' || c == '}' || c == '[' || c == '{' || c == '.' && end > start {
			break
		}
		end++
	}
	if end == start && end < len(text) {
		end++
	}
	return end
}

// build reads everything from a parsed document. implicit is true when the
// document declares nothing, which means the default manifest.
func build(p *parser, implicit bool) *Config {
	c := &Config{doc: p.doc}
	p.env = map[string]*value{}
	p.checkTopLevel()
	deps := p.readDependencies()
	p.ws = p.findWorkspace()
	p.inherit(deps)
	own := p.readOwnFeatures(deps)

	declared := false
	for _, d := range deps {
		if burnCrates[d.pkg] {
			declared = true
		}
	}
	if !declared {
		if !implicit && !p.unreadableBurn {
			p.add(p.noBurnWarning())
		}
		deps = append(deps, &dependency{
			table: "dependencies", name: "burn", pkg: "burn", version: "0.22",
			defaultFeatures: true, synthetic: true, value: &value{kind: kindString, text: "0.22"},
		})
	}

	r := newResolver(burnGraph, own, deps)
	r.run()
	for _, d := range deps {
		if burnCrates[d.pkg] && r.isOptionalDep(d.name) && !r.activeDeps[d.name] {
			p.add(warnOptional(d.name, d.value.span))
			r.forceActivate(d.name)
		}
	}
	c.PathCrates = p.pathCrates(r, deps)
	c.Dispatch.Features = r.features()
	c.Package = p.readPackage(r)
	c.Package.Crates = crateNames(deps)
	c.Package.Unseen = unseenCrates(deps, c.PathCrates)

	c.BurnDeclared = declared
	c.DefaultFeatures = c.Dispatch.Features["burn/default"]
	c.burn = primaryBurn(deps)
	seen := map[string]bool{}
	for _, d := range deps {
		if d.pkg != "burn" {
			continue
		}
		for _, f := range d.features {
			if f.valid && !seen[f.name] {
				seen[f.name] = true
				c.BurnFeatures = append(c.BurnFeatures, f.name)
			}
		}
	}
	if b := c.burn; b != nil {
		c.BurnVersion = b.version
		if !b.synthetic {
			c.BurnDep = b.value.span
		}
		if b.featuresValue != nil {
			c.FeaturesArray = b.featuresValue.span
		}
	}
	p.readPlayground(c)
	return c
}

// primaryBurn is the declaration of burn that edits go to: the first in
// [dependencies], else the first anywhere.
func primaryBurn(deps []*dependency) *dependency {
	var first *dependency
	for _, d := range deps {
		if d.pkg != "burn" {
			continue
		}
		if d.table == "dependencies" {
			return d
		}
		if first == nil {
			first = d
		}
	}
	return first
}

// cargoTopLevelKeys are the top-level keys Cargo knows.
var cargoTopLevelKeys = []string{
	"package", "dependencies", "dev-dependencies", "build-dependencies", "features",
	"target", "workspace", "profile", "lib", "bin", "example", "test", "bench",
	"badges", "patch", "replace", "lints", "hints", "cargo-features", "project",
	"dev_dependencies", "build_dependencies",
}

// readTopLevelKeys are the top-level tables the playground reads.
var readTopLevelKeys = []string{"dependencies", "dev-dependencies", "package", "features", "target"}

// checkTopLevel warns about a top-level key that looks like a misspelling
// of a table the playground reads, in the words Cargo warns with. Other
// unknown tables are left alone: Cargo accepts them.
func (p *parser) checkTopLevel() {
	for _, name := range p.doc.root.names {
		if contains(cargoTopLevelKeys, name) {
			continue
		}
		if suggestion, ok := similar.Name(name, readTopLevelKeys); ok {
			p.add(warnUnusedManifestKey(quoteKey(name), p.doc.root.get(name).key, suggestion))
		}
	}
}

// noBurnWarning points at [dependencies] when there is one, and offers to
// add burn there.
func (p *parser) noBurnWarning() diag.Diagnostic {
	var span source.Range
	if v := p.doc.root.get("dependencies"); v != nil {
		span = v.span
	}
	var fix *diag.Fix
	if edit, ok := insertDependency(p.doc, "burn", `"0.22"`); ok {
		fix = &diag.Fix{Title: "Add `burn = \"0.22\"` to [dependencies]", Edits: []diag.Edit{edit}}
	}
	return warnNoBurn(span, fix)
}

// crateNames are the names Rust code reaches the dependencies by: the key
// a dependency is declared under, `-` read as `_`.
// unseenCrates are the path and git dependencies besides Burn's own, by
// their Rust names, sorted.
func unseenCrates(deps []*dependency, seen []PathCrate) []string {
	var local []*dependency
	for _, d := range deps {
		read := slices.ContainsFunc(seen, func(c PathCrate) bool { return c.Name == strings.ReplaceAll(d.name, "-", "_") })
		if d.local && !read && !burnCrates[d.pkg] && !strings.HasPrefix(d.pkg, "burn") {
			local = append(local, d)
		}
	}
	if len(local) == 0 {
		return nil
	}
	return crateNames(local)
}

func crateNames(deps []*dependency) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, d := range deps {
		if d.synthetic {
			continue
		}
		name := strings.ReplaceAll(d.name, "-", "_")
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

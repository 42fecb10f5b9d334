package syntax

import (
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

// Parse reads a snippet into a File. It never panics; problems come back as
// parse-phase diagnostics on main.rs, sorted by position. When the snippet's
// delimiters do not balance, only the lexical and delimiter errors are
// reported and the File is empty: anything else would be guesswork.
func Parse(src string) (*File, diag.List) {
	p := &parser{src: src, lineStarts: lineStarts(src), braceMacroEnd: -1}
	f := &File{Range: source.Range{Start: 0, End: len(src)}}
	p.run(func() {
		if p.checkDelimiters() {
			p.lx = newLexer(src, nil)
			p.tok = p.lx.next()
			p.parseFile(f)
		}
	})
	p.diags.Sort()
	return f, p.diags
}

// ParseAt is Parse for one file of a crate whose text starts at offset
// base of the crate's offsets (see source.File's segments): every range of
// the tree and of the diagnostics is an offset of the crate.
func ParseAt(src string, base int) (*File, diag.List) {
	if base <= 0 {
		return Parse(src)
	}
	// Blank space before the text gives every node its crate offset and
	// changes nothing else: the parser skips it as it skips indentation.
	f, diags := Parse(strings.Repeat(" ", base) + src)
	f.Range.Start = base
	return f, diags
}

// bailout unwinds the parser: fatal when the diagnostic cap is reached,
// otherwise after nesting-too-deep, to resynchronise at the top level.
type bailout struct{ fatal bool }

type parser struct {
	src        string
	lineStarts []int
	lx         lexer
	tok        Token
	ahead      []Token
	// prevEnd is the end of the last consumed token: nodes end there.
	prevEnd int
	// delims counts the delimiters opened by consumed tokens and not yet
	// closed; recovery uses it to skip whole groups.
	delims int
	depth  int
	// noStruct forbids struct literals, in the heads of if, while, for and
	// match, as Rust does; delimiters lift the restriction.
	noStruct bool
	// braceMacroEnd is where the last `name! { ... }` call ended: like a
	// block, such a call needs no `;` in statement position.
	braceMacroEnd int

	diags       diag.List
	errors      int
	lastErrLine int
	// lexCutoff and lexLines come from the reporting lex pass: parse errors
	// after an unterminated literal, or on a line with a lexical error, are
	// echoes of that error and are dropped.
	lexCutoff int
	lexLines  map[int]bool

	// macros names the program's own macro_rules! macros: a call of one
	// keeps its token tree even when a built-in has the same name.
	macros map[string]bool
	// A parser over a token slice (see Tokens) reads toks instead of the
	// lexer; base is the offset of src in the ranges of the tokens.
	fromTokens bool
	toks       []Token
	ti         int
	base       int
	// splitRest is set while the current token is what splitFirst left
	// of a compound token.
	splitRest bool
}

// run calls fn, absorbing the parser's own bailouts.
func (p *parser) run(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	fn()
}

// add records a diagnostic, bailing out at the cap.
func (p *parser) add(d diag.Diagnostic) {
	if p.errors >= MaxDiagnostics {
		panic(bailout{fatal: true})
	}
	p.errors++
	p.diags.Add(d)
}

// error records a parse error unless it echoes an earlier one: Go's parser
// keeps one error per line, and so do we.
func (p *parser) error(d diag.Diagnostic) {
	if d.Range.Start >= p.lexCutoff {
		return
	}
	line := p.lineOf(d.Range.Start)
	if line == p.lastErrLine || p.lexLines[line] {
		return
	}
	p.lastErrLine = line
	p.add(d)
}

// checkDelimiters is the reporting lex pass: it reports lexical errors and
// unbalanced delimiters, and tells whether the delimiters balance.
func (p *parser) checkDelimiters() bool {
	lx := newLexer(p.src, p.add)
	// open holds the offsets of the delimiters not yet closed: a whole
	// Token each (72 bytes) made 200,000 unclosed parentheses allocate
	// 77 MB, more than the sandbox's memory allows once a run has left
	// some heap behind. A delimiter is one byte of the source.
	var open []int
	opener := func(i int) Token {
		at := open[i]
		return Token{Kind: Punct, Text: p.src[at : at+1], Range: source.Range{Start: at, End: at + 1}}
	}
	balanced := true
	var prev Token
	for {
		t := lx.next()
		if t.Kind == EOF {
			break
		}
		if t.Kind != Punct {
			prev = t
			continue
		}
		if t.Text == "!" && prev.Kind == Ident && prev.Text == "macro_rules" {
			if name := lx.peekIdent(); name != "" {
				if p.macros == nil {
					p.macros = map[string]bool{}
				}
				p.macros[name] = true
			}
		}
		prev = t
		switch t.Text {
		case "(", "[", "{":
			open = append(open, t.Range.Start)
		case ")", "]", "}":
			if n := len(open); n > 0 && p.src[open[n-1]:open[n-1]+1] == openerOf(t.Text) {
				open = open[:n-1]
				continue
			}
			balanced = false
			if len(open) == 0 {
				p.add(errUnexpectedCloser(t))
				continue
			}
			p.add(errMismatchedDelimiter(t, opener(len(open)-1)))
			match := -1
			for i := len(open) - 1; i >= 0; i-- {
				if p.src[open[i]:open[i]+1] == openerOf(t.Text) {
					match = i
					break
				}
			}
			if match >= 0 {
				open = open[:match]
			} else {
				open = open[:len(open)-1]
			}
		}
	}
	for i := range open {
		balanced = false
		p.add(errUnclosedDelimiter(opener(i), len(p.src)))
	}
	p.lexCutoff = lx.cutoff
	if len(lx.errOffsets) > 0 {
		p.lexLines = make(map[int]bool, len(lx.errOffsets))
		for _, off := range lx.errOffsets {
			p.lexLines[p.lineOf(off)] = true
		}
	}
	return balanced
}

// lineStarts indexes the byte offset at which each line begins.
func lineStarts(src string) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf is the 1-based line of a byte offset.
func (p *parser) lineOf(offset int) int {
	offset -= p.base
	if p.lineStarts == nil {
		p.lineStarts = lineStarts(p.src)
	}
	return sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > offset })
}

// startsLine reports whether the current token is the first on its line:
// a newline separates it from the previous token.
func (p *parser) startsLine() bool {
	if p.prevEnd == 0 || p.prevEnd > p.tok.Range.Start {
		return p.prevEnd == 0
	}
	if p.fromTokens {
		return false
	}
	return strings.IndexByte(p.src[p.prevEnd:p.tok.Range.Start], '\n') >= 0
}

func openerOf(closer string) string {
	switch closer {
	case ")":
		return "("
	case "]":
		return "["
	}
	return "{"
}

func closerOf(opener string) string {
	switch opener {
	case "(":
		return ")"
	case "[":
		return "]"
	}
	return "}"
}

// ---- token stream ----

// next consumes the current token.
func (p *parser) next() {
	if p.tok.Kind == EOF {
		return
	}
	p.prevEnd = p.tok.Range.End
	if p.tok.Kind == Punct {
		switch p.tok.Text {
		case "(", "[", "{":
			p.delims++
		case ")", "]", "}":
			p.delims--
		}
	}
	p.splitRest = false
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		// Shift rather than reslice, so that the buffer keeps its
		// capacity and peek does not allocate a new one every time.
		p.ahead = p.ahead[:copy(p.ahead, p.ahead[1:])]
		return
	}
	p.tok = p.lex()
}

// lex reads the next token from the lexer, or from the token slice.
func (p *parser) lex() Token {
	if !p.fromTokens {
		return p.lx.next()
	}
	if p.ti < len(p.toks) {
		t := p.toks[p.ti]
		p.ti++
		return t
	}
	end := p.base
	if n := len(p.toks); n > 0 {
		end = p.toks[n-1].Range.End
	}
	return Token{Kind: EOF, Range: source.Range{Start: end, End: end}}
}

// peek returns the token n places after the current one (n >= 1).
func (p *parser) peek(n int) Token {
	for len(p.ahead) < n {
		p.ahead = append(p.ahead, p.lex())
	}
	return p.ahead[n-1]
}

// is reports whether the current token is the punctuation or keyword text.
func (p *parser) is(text string) bool {
	return (p.tok.Kind == Punct || p.tok.Kind == Keyword) && p.tok.Text == text
}

func isTok(t Token, text string) bool {
	return (t.Kind == Punct || t.Kind == Keyword) && t.Text == text
}

func (p *parser) isIdent(name string) bool { return p.tok.Kind == Ident && p.tok.Text == name }

// got consumes the current token if it is text.
func (p *parser) got(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

// expect consumes text or reports that it is missing.
func (p *parser) expect(text string) bool {
	if p.got(text) {
		return true
	}
	p.error(errExpected(p.tok, "`"+text+"`"))
	return false
}

// splitFirst consumes the first character of a compound punctuation token
// (`>>`, `>=`, `&&`, `||`, ...) and leaves the rest as the current token,
// the way rustc breaks `>>` when closing two generic lists.
func (p *parser) splitFirst() {
	t := p.tok
	p.prevEnd = t.Range.Start + 1
	p.tok = Token{Kind: Punct, Text: t.Text[1:], Range: source.Range{Start: t.Range.Start + 1, End: t.Range.End}}
	p.splitRest = true
}

// isGT reports whether the current token starts with `>`.
func (p *parser) isGT() bool {
	return p.tok.Kind == Punct && len(p.tok.Text) > 0 && p.tok.Text[0] == '>'
}

// gotGT consumes one `>`, splitting `>>`, `>=` and `>>=`.
func (p *parser) gotGT() bool {
	if !p.isGT() {
		return false
	}
	if p.tok.Text == ">" {
		p.next()
	} else {
		p.splitFirst()
	}
	return true
}

func (p *parser) expectGT() bool {
	if p.gotGT() {
		return true
	}
	p.error(errExpected(p.tok, "`>`"))
	return false
}

// rangeFrom is the range from start to the end of the last consumed token.
// When nothing was consumed since start, it is the empty range at the end
// of the last consumed token, like missing.
func (p *parser) rangeFrom(start int) source.Range {
	if p.prevEnd < start {
		return p.missing()
	}
	return source.Range{Start: start, End: p.prevEnd}
}

// missing is an empty range just after the last consumed token, for nodes
// that stand in for missing syntax: there it never sticks out of its parent
// nor overlaps the next sibling.
func (p *parser) missing() source.Range {
	return source.Range{Start: p.prevEnd, End: p.prevEnd}
}

// ---- nesting ----

// enter guards one level of recursion. Past MaxNesting it reports once and
// unwinds to the enclosing top-level item or statement.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxNesting {
		p.add(errNestingTooDeep(p.tok.Range))
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

// ---- recovery ----

func isOpener(t Token) bool {
	return t.Kind == Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{")
}

func isCloser(t Token) bool {
	return t.Kind == Punct && (t.Text == ")" || t.Text == "]" || t.Text == "}")
}

// skipGroup consumes a whole delimited group (the current token opens it),
// or one token when the current token is not an opener.
func (p *parser) skipGroup() {
	if !isOpener(p.tok) {
		p.next()
		return
	}
	depth := p.delims
	p.next()
	for p.delims > depth && p.tok.Kind != EOF {
		p.next()
	}
}

// skipTo skips whole groups until one of stops, a closing delimiter, or EOF.
// The stop token is not consumed.
func (p *parser) skipTo(stops ...string) {
	for p.tok.Kind != EOF && !isCloser(p.tok) {
		for _, s := range stops {
			if p.is(s) {
				return
			}
		}
		p.skipGroup()
	}
}

// syncStmt skips past a broken statement: through the next `;`, or up to a
// closing brace or a keyword that starts a statement. It always consumes at
// least one token unless at a closer or EOF.
func (p *parser) syncStmt() {
	if p.tok.Kind == EOF || isCloser(p.tok) {
		return
	}
	p.skipGroup()
	for p.tok.Kind != EOF && !isCloser(p.tok) {
		if p.got(";") {
			return
		}
		if p.startsStmtKeyword() {
			return
		}
		p.skipGroup()
	}
}

func (p *parser) startsStmtKeyword() bool {
	if p.tok.Kind != Keyword {
		return p.is("#")
	}
	switch p.tok.Text {
	case "let", "fn", "use", "struct", "enum", "trait", "impl", "mod", "pub", "static", "type", "extern",
		"if", "for", "while", "loop", "match", "return":
		return true
	}
	return false
}

// ---- the file ----

// parseFile reads top-level items and bare statements until EOF. A bailout
// from nesting-too-deep abandons the current one and resumes after it.
func (p *parser) parseFile(f *File) {
	p.skipInnerAttrs()
	for p.tok.Kind != EOF {
		// A program is often several files pasted one after another, so an
		// inner attribute that opened one of them is taken between items too.
		p.skipInnerAttrs()
		if p.tok.Kind == EOF {
			break
		}
		start := p.tok.Range.Start
		if !p.tryTopLevel(f) {
			p.depth = 0
			p.noStruct = false
			p.resyncTopLevel()
			continue
		}
		if p.tok.Range.Start == start && p.tok.Kind != EOF {
			p.syncStmt()
		}
	}
}

// tryTopLevel parses one top-level item or statement, reporting false when
// it was abandoned for nesting too deep. The diagnostic cap still unwinds
// all the way out of Parse.
func (p *parser) tryTopLevel(f *File) (completed bool) {
	defer func() {
		if r := recover(); r != nil {
			if b, ok := r.(bailout); !ok || b.fatal {
				panic(r)
			}
		}
	}()
	p.parseTopLevel(f)
	return true
}

// resyncTopLevel skips to the end of the top-level construct that was
// abandoned: out of every open group, then through its `;` if it has one.
// Only a keyword that begins a line counts as the next statement: the
// abandoned construct may well be a long chain of `return`s or `else if`s.
func (p *parser) resyncTopLevel() {
	closedGroup := p.delims > 0
	for p.delims > 0 && p.tok.Kind != EOF {
		p.next()
	}
	if closedGroup && !p.is(";") && p.startsLine() {
		return
	}
	for p.tok.Kind != EOF {
		if p.got(";") {
			return
		}
		if p.startsStmtKeyword() && p.startsLine() {
			return
		}
		p.skipGroup()
	}
}

// parseTopLevel reads one item or statement into f.
func (p *parser) parseTopLevel(f *File) {
	item, stmt := p.parseStmt(true)
	if item != nil {
		f.Items = append(f.Items, item)
	}
	if stmt != nil {
		f.Stmts = append(f.Stmts, stmt)
	}
}

// skipInnerAttrs skips `#![...]` inner attributes at the start of a file or
// block: they configure lints and features, which the playground ignores.
func (p *parser) skipInnerAttrs() {
	for p.is("#") && isTok(p.peek(1), "!") && isTok(p.peek(2), "[") {
		p.next()
		p.next()
		p.skipGroup()
	}
}

package syntax

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/source"
)

// macroShape tells how a supported macro's arguments are read.
type macroShape int

const (
	macroUnsupported macroShape = iota
	macroExprs                  // comma-separated expressions
	macroVec                    // vec![a, b] or vec![x; n]
	macroSlice                  // s![range[; step], ...]
	macroMatches                // matches!(expr, pat [if guard])
)

func macroShapeOf(name string) macroShape {
	switch name {
	case "println", "print", "eprintln", "eprint", "format", "format_args", "write", "writeln", "dbg",
		"assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq", "debug_assert_ne",
		"panic", "todo", "unimplemented", "unreachable":
		return macroExprs
	case "vec":
		return macroVec
	case "s":
		return macroSlice
	case "matches":
		return macroMatches
	}
	return macroUnsupported
}

// supportedMacroNames lists the macros the playground reads, for help text.
func supportedMacroNames() []string {
	return []string{
		"println!", "print!", "eprintln!", "eprint!", "format!", "format_args!", "write!", "writeln!", "dbg!",
		"assert!", "assert_eq!", "assert_ne!", "debug_assert!", "debug_assert_eq!", "debug_assert_ne!",
		"panic!", "todo!", "unimplemented!", "unreachable!", "vec!", "s!", "matches!",
	}
}

// parseMacro reads a macro call whose path segs started at start; the
// current token is `!`. A path prefix (`std::println!`, `burn::tensor::s!`)
// is accepted and dropped. An unsupported macro is reported and its token
// tree skipped.
func (p *parser) parseMacro(start int, segs []PathSegment) Expr {
	p.next() // !
	nameSpan := p.rangeFrom(start)
	name := segs[len(segs)-1].Name
	shape := macroShapeOf(name)
	braced := p.is("{")
	if shape == macroUnsupported {
		names := make([]string, len(segs))
		for i, s := range segs {
			names[i] = s.Name
		}
		p.error(errUnsupportedMacro(nameSpan, strings.Join(names, "::")))
		p.skipGroup()
		if braced {
			p.braceMacroEnd = p.prevEnd
		}
		return &BadExpr{Range: p.rangeFrom(start)}
	}
	m := &MacroExpr{Name: name, NameSpan: nameSpan, Delim: p.tok.Text}
	closer := closerOf(p.tok.Text)
	p.next()
	old := p.noStruct
	p.noStruct = false
	switch shape {
	case macroExprs:
		p.parseCommaList(closer, func() { m.Args = append(m.Args, p.parseExpr()) })
	case macroVec:
		p.parseVecArgs(m, closer)
	case macroSlice:
		p.parseCommaList(closer, func() {
			m.Args = append(m.Args, p.parseExpr())
			var step Expr
			if p.got(";") {
				step = p.parseExpr()
			}
			m.Steps = append(m.Steps, step)
		})
	case macroMatches:
		p.parseMatchesArgs(m, closer)
	}
	p.noStruct = old
	m.Range = p.rangeFrom(start)
	if braced {
		p.braceMacroEnd = p.prevEnd
	}
	return m
}

func (p *parser) parseVecArgs(m *MacroExpr, closer string) {
	if p.got(closer) {
		return
	}
	first := p.parseExpr()
	m.Args = []Expr{first}
	switch {
	case p.got(";"):
		m.Repeat = true
		m.Args = append(m.Args, p.parseExpr())
		p.closeDelim(closer)
	case p.got(","):
		p.parseCommaList(closer, func() { m.Args = append(m.Args, p.parseExpr()) })
	default:
		p.closeDelim(closer)
	}
}

func (p *parser) parseMatchesArgs(m *MacroExpr, closer string) {
	m.Args = []Expr{p.parseExpr()}
	if !p.expect(",") {
		p.skipTo()
		p.got(closer)
		return
	}
	arm := &MatchArm{Pats: p.parseAltPatterns()}
	if p.got("if") {
		arm.Guard = p.parseExpr()
	}
	arm.Range = source.Range{Start: arm.Pats[0].Span().Start, End: p.prevEnd}
	m.Arm = arm
	p.got(",")
	p.closeDelim(closer)
}

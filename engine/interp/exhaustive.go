package interp

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// rustc's exhaustiveness check of `match` (E0004) and of `let` patterns
// (E0005), after the usefulness algorithm rustc implements (Maranget,
// "Warnings for pattern matching"): the arms are rows of a matrix, each
// column's constructors come from the type its patterns name (an enum's
// variants, Option, Result, bool, tuples, structs, integer ranges split at
// the patterns' bounds, slice lengths), and the values no row covers are
// the witnesses rustc lists. A guarded arm covers nothing. A pattern the
// playground cannot read (a const, a macro) ends the check without a
// diagnostic, so the check never rejects a program rustc accepts.

type tyKind int

const (
	tyOther tyKind = iota // strings, floats, chars: only a wildcard covers
	tyEnum
	tyStruct
	tyTuple
	tyBool
	tyInt
	tySlice
)

// pty is a column's type as the patterns tell it.
type pty struct {
	kind     tyKind
	name     string // enum or struct name; int suffix
	variants []pvar // tyEnum; tyStruct has one
	arity    int    // tyTuple
	lo, hi   int64  // tyInt bounds
	fixedLen int    // tySlice: the length of an array, -1 for a slice
	ref      bool   // the scrutinee is a reference (witnesses get `&`)
}

type pvar struct {
	name   string
	shape  syntax.Shape
	fields []string // named fields, in declaration order
	arity  int
}

// ppat is a pattern of the matrix: a wildcard (ctor == nil) or a
// constructor with its sub-patterns.
type ppat struct {
	ty   *pty
	wild bool
	ctor ctor
	args []*ppat
}

// ctor is a constructor: a variant index, a bool, an integer range, a
// slice length (varLen: that length or more).
type ctor struct {
	variant int
	lo, hi  int64
	length  int
	varLen  bool
	prefix  int // varLen slice patterns: elements before and after `..`
	suffix  int
}

var wildPat = &ppat{wild: true}

// errNoCheck ends the check when a pattern cannot be read.
type errNoCheck struct{}

// checkMatch reports a non-exhaustive match (E0004) and arms after a
// catch-all arm (rustc's `unreachable pattern` warning).
func (in *interp) checkMatch(e *syntax.MatchExpr, v value) {
	if in.checked(e) {
		return
	}
	var alts []syntax.Pattern
	for _, arm := range e.Arms {
		if arm.Guard == nil {
			alts = append(alts, arm.Pats...)
		}
	}
	for i, arm := range e.Arms {
		if i > 0 && arm.Guard == nil && in.catchAllBefore(e.Arms[:i]) {
			in.report(diag.Diagnostic{Code: "unreachable-pattern", Severity: diag.Warning,
				Message: "unreachable pattern", File: diag.MainRS, Range: arm.Pats[0].Span(),
				Help: []string{"no value can reach this arm: an earlier arm matches every value"}})
		}
	}
	ws, ok := in.missingPatterns(alts, v)
	if !ok || len(ws) == 0 {
		return
	}
	list := witnessList(ws)
	in.report(diag.Diagnostic{Code: "non-exhaustive-patterns", Severity: diag.Error,
		Message: "non-exhaustive patterns: " + list + " not covered", File: diag.MainRS, Range: e.X.Span(),
		Labels: []diag.Label{{File: diag.MainRS, Range: e.X.Span(), Message: patternWord(ws) + " " + list + " not covered"}},
		Help:   []string{"ensure that all possible cases are being handled by adding a match arm with a wildcard pattern or an explicit pattern"}})
}

// checkLetPattern reports a refutable pattern in a `let` without else
// (E0005).
func (in *interp) checkLetPattern(s *syntax.LetStmt, v value) {
	if _, isSlice := s.Pat.(*syntax.SlicePat); isSlice && isUnknown(v) {
		// An unknown value's type is not known either: `let [a, b] = ..`
		// may be an array's.
		return
	}
	if s.Else != nil || in.checked(s) {
		return
	}
	if s.Type != nil && strings.HasPrefix(strings.TrimSpace(s.Type.Text), "[") && strings.Contains(s.Type.Text, ";") {
		return // `let [a, b]: [T; 2]`: an array pattern of the array's length
	}
	switch s.Pat.(type) {
	case *syntax.IdentPat, *syntax.WildPat:
		if id, ok := s.Pat.(*syntax.IdentPat); !ok || id.Sub == nil {
			return
		}
	}
	ws, ok := in.missingPatterns([]syntax.Pattern{s.Pat}, v)
	if !ok || len(ws) == 0 {
		return
	}
	list := witnessList(ws)
	in.report(diag.Diagnostic{Code: "refutable-pattern-in-local-binding", Severity: diag.Error,
		Message: "refutable pattern in local binding", File: diag.MainRS, Range: s.Pat.Span(),
		Labels: []diag.Label{{File: diag.MainRS, Range: s.Pat.Span(), Message: patternWord(ws) + " " + list + " not covered"}},
		Help:   []string{"`let` bindings require an \"irrefutable pattern\", like a `struct` or an `enum` with only one variant; you might want to use `let else` to handle the variant that isn't matched"}})
}

// checked reports whether n was checked before, and marks it.
func (in *interp) checked(n syntax.Node) bool {
	key := "exhaustive|" + strconv.Itoa(n.Span().Start) + "|" + strconv.Itoa(n.Span().End)
	if in.seen[key] {
		return true
	}
	in.seen[key] = true
	return false
}

func patternWord(ws []string) string {
	if len(ws) == 1 {
		return "pattern"
	}
	return "patterns"
}

// witnessList writes witnesses as rustc does: `a`, `a` and `b`, `a`, `b`
// and `c`, `a`, `b`, `c` and N more.
func witnessList(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "`" + w + "`"
	}
	switch {
	case len(q) == 1:
		return q[0]
	case len(q) <= 3:
		return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	}
	return strings.Join(q[:3], ", ") + fmt.Sprintf(" and %d more", len(q)-3)
}

// catchAllBefore reports whether an unguarded earlier arm matches every
// value (a wildcard or a plain binding).
func (in *interp) catchAllBefore(arms []*syntax.MatchArm) bool {
	for _, a := range arms {
		if a.Guard != nil {
			continue
		}
		for _, p := range a.Pats {
			if isCatchAll(p) {
				return true
			}
		}
	}
	return false
}

func isCatchAll(p syntax.Pattern) bool {
	switch p := p.(type) {
	case *syntax.WildPat:
		return true
	case *syntax.IdentPat:
		return p.Sub == nil || isCatchAll(p.Sub)
	case *syntax.ParenPat:
		return isCatchAll(p.Pat)
	case *syntax.OrPat:
		for _, a := range p.Alts {
			if isCatchAll(a) {
				return true
			}
		}
	}
	return false
}

// missingPatterns lists the witnesses no pattern of alts covers; ok is
// false when the patterns could not be read.
func (in *interp) missingPatterns(alts []syntax.Pattern, v value) (ws []string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isNo := r.(errNoCheck); !isNo {
				panic(r)
			}
			ws, ok = nil, false
		}
	}()
	var pats []syntax.Pattern
	for _, p := range alts {
		pats = append(pats, expandOr(p)...)
	}
	t := in.typeOf(pats, v)
	rows := make([][]*ppat, 0, len(pats))
	for _, p := range pats {
		rows = append(rows, []*ppat{in.lower(p, t)})
	}
	found := in.witnesses(rows, []*pty{t}, 0)
	for _, w := range found {
		s := w[0]
		if t.ref {
			s = "&" + s
		}
		ws = append(ws, s)
		if len(ws) >= 16 {
			break
		}
	}
	return ws, true
}

func expandOr(p syntax.Pattern) []syntax.Pattern {
	switch x := p.(type) {
	case *syntax.OrPat:
		var out []syntax.Pattern
		for _, a := range x.Alts {
			out = append(out, expandOr(a)...)
		}
		return out
	case *syntax.ParenPat:
		return expandOr(x.Pat)
	}
	return []syntax.Pattern{p}
}

// strip removes references, parentheses and bindings around a pattern;
// nil stands for a wildcard.
func strip(p syntax.Pattern) syntax.Pattern {
	for {
		switch x := p.(type) {
		case *syntax.RefPat:
			p = x.Pat
		case *syntax.ParenPat:
			p = x.Pat
		case *syntax.IdentPat:
			if x.Sub == nil {
				return nil
			}
			p = x.Sub
		case *syntax.WildPat:
			return nil
		case *syntax.MacroPat, *syntax.BadPat:
			panic(errNoCheck{})
		default:
			return p
		}
	}
}

// typeOf is the type a column's patterns name, with the value being
// matched when it is known.
func (in *interp) typeOf(pats []syntax.Pattern, v value) *pty {
	t := &pty{kind: tyOther, fixedLen: -1}
	if _, isRef := v.(*dispatch.Ref); isRef {
		t.ref = true
	}
	dv := dispatch.Deref(v)
	if _, isStr := dv.(dispatch.Str); isStr {
		t.ref = true // &str
	}
	for _, p := range pats {
		p = strip(p)
		if p == nil {
			continue
		}
		switch x := p.(type) {
		case *syntax.TupleStructPat:
			return in.adtType(x.Path, t)
		case *syntax.StructPat:
			return in.adtType(x.Path, t)
		case *syntax.TuplePat:
			t.kind = tyTuple
			t.arity = -1
			if tv, ok := dv.(dispatch.Tuple); ok {
				t.arity = len(tv)
			}
			for _, q := range pats {
				if tp, ok := strip(q).(*syntax.TuplePat); ok && !hasRest(tp.Elems) {
					t.arity = len(tp.Elems)
				}
			}
			if t.arity < 0 {
				panic(errNoCheck{})
			}
			return t
		case *syntax.SlicePat:
			t.kind = tySlice
			if arr, ok := dv.(*dispatch.Array); ok && !arr.Vec && !t.ref {
				t.fixedLen = len(arr.Elems)
			} else {
				t.ref = true // a slice is matched through a reference
			}
			return t
		case *syntax.LitPat, *syntax.RangePat:
			n, kind, suffix := in.litKind(p)
			_ = n
			switch kind {
			case "bool":
				t.kind = tyBool
				return t
			case "int":
				if iv, ok := dv.(dispatch.Int); ok && iv.Suffix != "" {
					suffix = iv.Suffix
				}
				if suffix == "" {
					suffix = "i32"
				}
				lo, hi, ok := intBounds(suffix)
				if !ok {
					panic(errNoCheck{})
				}
				t.kind, t.name, t.lo, t.hi = tyInt, suffix, lo, hi
				return t
			}
			return t
		default:
			panic(errNoCheck{})
		}
	}
	return t
}

func hasRest(ps []syntax.Pattern) bool {
	for _, p := range ps {
		if _, ok := p.(*syntax.RestPat); ok {
			return true
		}
	}
	return false
}

// adtType is the enum or struct a pattern's path names.
func (in *interp) adtType(path []syntax.PathSegment, t *pty) *pty {
	names := segNames(path)
	last := names[len(names)-1]
	if len(names) == 1 {
		switch last {
		case "Some", "None":
			t.kind, t.name = tyEnum, "Option"
			t.variants = []pvar{{name: "None"}, {name: "Some", shape: syntax.TupleShape, arity: 1}}
			return t
		case "Ok", "Err":
			t.kind, t.name = tyEnum, "Result"
			t.variants = []pvar{{name: "Ok", shape: syntax.TupleShape, arity: 1}, {name: "Err", shape: syntax.TupleShape, arity: 1}}
			return t
		}
	}
	var decl *syntax.StructDecl
	if len(names) >= 2 {
		typ := names[len(names)-2]
		if typ == "Self" && in.selfType != nil {
			typ = lastSeg(in.selfType)
		}
		decl = in.structs[typ]
		if decl != nil && !decl.Enum {
			decl = nil
		}
	} else {
		decl = in.structs[last]
		if decl == nil {
			// A variant brought in by `use Enum::*`.
			for _, d := range in.structs {
				if d.Enum {
					for _, f := range d.Fields {
						if f.Name == last {
							if decl != nil && decl != d {
								panic(errNoCheck{})
							}
							decl = d
						}
					}
				}
			}
		}
	}
	if decl == nil {
		panic(errNoCheck{})
	}
	t.name = decl.Name
	if !decl.Enum {
		t.kind = tyStruct
		t.variants = []pvar{makeVar(decl.Name, decl.Shape, decl.Fields)}
		return t
	}
	t.kind = tyEnum
	for _, f := range decl.Fields {
		t.variants = append(t.variants, makeVar(f.Name, f.Shape, f.Fields))
	}
	return t
}

func makeVar(name string, shape syntax.Shape, fields []*syntax.Field) pvar {
	v := pvar{name: name, shape: shape, arity: len(fields)}
	for _, f := range fields {
		v.fields = append(v.fields, f.Name)
	}
	return v
}

// litKind reads a literal or range pattern: its kind ("bool", "int" or
// "other") and an integer literal's suffix.
func (in *interp) litKind(p syntax.Pattern) (int64, string, string) {
	var x syntax.Expr
	switch p := p.(type) {
	case *syntax.LitPat:
		x = p.Lit
	case *syntax.RangePat:
		x = p.Lo
		if x == nil {
			x = p.Hi
		}
	}
	if u, ok := x.(*syntax.UnaryExpr); ok && u.Op == "-" {
		x = u.X
	}
	if lit, ok := x.(*syntax.LitExpr); ok {
		switch lit.Kind {
		case syntax.BoolLit:
			return 0, "bool", ""
		case syntax.IntLit:
			if strings.HasPrefix(lit.Suffix, "f") {
				return 0, "other", ""
			}
			return 0, "int", lit.Suffix
		case syntax.ByteLit:
			return 0, "int", "u8"
		}
		return 0, "other", ""
	}
	if _, isPath := x.(*syntax.PathExpr); isPath {
		// i32::MAX, a const: the value decides.
		if n, ok := asInt(in.evalPatExpr(x)); ok {
			_ = n
			return 0, "int", ""
		}
	}
	return 0, "other", ""
}

func (in *interp) evalPatExpr(x syntax.Expr) value {
	v, sig := in.expr(x)
	if sig != nil || v == nil {
		panic(errNoCheck{})
	}
	return v
}

func intBounds(suffix string) (int64, int64, bool) {
	switch suffix {
	case "i8":
		return math.MinInt8, math.MaxInt8, true
	case "i16":
		return math.MinInt16, math.MaxInt16, true
	case "i32":
		return math.MinInt32, math.MaxInt32, true
	case "i64", "isize":
		return math.MinInt64, math.MaxInt64, true
	case "u8":
		return 0, math.MaxUint8, true
	case "u16":
		return 0, math.MaxUint16, true
	case "u32":
		return 0, math.MaxUint32, true
	case "u64", "usize":
		return 0, math.MaxInt64, true
	}
	return 0, 0, false
}

// lower turns a pattern of type t into a matrix pattern.
func (in *interp) lower(p syntax.Pattern, t *pty) *ppat {
	r := in.lower0(p, t)
	if !r.wild {
		r.ty = t
	}
	return r
}

func (in *interp) lower0(p syntax.Pattern, t *pty) *ppat {
	p = strip(p)
	if p == nil {
		return wildPat
	}
	switch x := p.(type) {
	case *syntax.OrPat:
		// Nested or-patterns: the playground does not split them.
		panic(errNoCheck{})
	case *syntax.TupleStructPat:
		if t.kind != tyEnum && t.kind != tyStruct {
			panic(errNoCheck{})
		}
		i := t.variantIndex(x.Path[len(x.Path)-1].Name)
		v := t.variants[i]
		args := make([]*ppat, v.arity)
		for j := range args {
			args[j] = wildPat
		}
		elems := x.Elems
		rest := -1
		for j, el := range elems {
			if _, ok := el.(*syntax.RestPat); ok {
				rest = j
			}
		}
		for j, el := range elems {
			switch {
			case j == rest:
			case rest >= 0 && j > rest:
				k := v.arity - (len(elems) - j)
				if k >= 0 && k < v.arity {
					args[k] = in.lower(el, in.fieldType(t, v, k, el))
				}
			case j < v.arity:
				args[j] = in.lower(el, in.fieldType(t, v, j, el))
			}
		}
		return &ppat{ctor: ctor{variant: i}, args: args}
	case *syntax.StructPat:
		if t.kind != tyEnum && t.kind != tyStruct {
			panic(errNoCheck{})
		}
		i := t.variantIndex(x.Path[len(x.Path)-1].Name)
		v := t.variants[i]
		args := make([]*ppat, v.arity)
		for j := range args {
			args[j] = wildPat
		}
		for _, f := range x.Fields {
			for j, name := range v.fields {
				if name == f.Name {
					args[j] = in.lower(f.Pat, in.fieldType(t, v, j, f.Pat))
				}
			}
		}
		return &ppat{ctor: ctor{variant: i}, args: args}
	case *syntax.TuplePat:
		if t.kind != tyTuple {
			panic(errNoCheck{})
		}
		args := make([]*ppat, t.arity)
		for j := range args {
			args[j] = wildPat
		}
		rest := -1
		for j, el := range x.Elems {
			if _, ok := el.(*syntax.RestPat); ok {
				rest = j
			}
		}
		for j, el := range x.Elems {
			switch {
			case j == rest:
			case rest >= 0 && j > rest:
				k := t.arity - (len(x.Elems) - j)
				if k >= 0 {
					args[k] = in.lower(el, in.typeOf([]syntax.Pattern{el}, unknown))
				}
			case j < t.arity:
				args[j] = in.lower(el, in.typeOf([]syntax.Pattern{el}, unknown))
			}
		}
		return &ppat{args: args}
	case *syntax.LitPat:
		switch t.kind {
		case tyBool:
			lit, _ := x.Lit.(*syntax.LitExpr)
			if lit == nil {
				panic(errNoCheck{})
			}
			return &ppat{ctor: ctor{variant: boolInt(lit.Text == "true")}}
		case tyInt:
			n, ok := asInt(in.evalPatExpr(x.Lit))
			if !ok {
				panic(errNoCheck{})
			}
			return &ppat{ctor: ctor{lo: n, hi: n}}
		}
		return &ppat{ctor: ctor{variant: -1}} // covers no witness of tyOther
	case *syntax.RangePat:
		if t.kind != tyInt {
			return &ppat{ctor: ctor{variant: -1}}
		}
		lo, hi := t.lo, t.hi
		if x.Lo != nil {
			n, ok := asInt(in.evalPatExpr(x.Lo))
			if !ok {
				panic(errNoCheck{})
			}
			lo = n
		}
		if x.Hi != nil {
			n, ok := asInt(in.evalPatExpr(x.Hi))
			if !ok {
				panic(errNoCheck{})
			}
			hi = n
			if !x.Inclusive {
				hi--
			}
		}
		return &ppat{ctor: ctor{lo: lo, hi: hi}}
	case *syntax.SlicePat:
		if t.kind != tySlice {
			panic(errNoCheck{})
		}
		rest := -1
		for j, el := range x.Elems {
			if _, ok := strip(el).(*syntax.RestPat); ok {
				rest = j
			}
			if id, ok := el.(*syntax.IdentPat); ok {
				if _, isRest := id.Sub.(*syntax.RestPat); isRest {
					rest = j
				}
			}
		}
		var args []*ppat
		for j, el := range x.Elems {
			if j == rest {
				continue
			}
			args = append(args, in.lower(el, in.typeOf([]syntax.Pattern{el}, unknown)))
		}
		if rest < 0 {
			return &ppat{ctor: ctor{length: len(x.Elems)}, args: args}
		}
		return &ppat{ctor: ctor{varLen: true, length: len(x.Elems) - 1, prefix: rest, suffix: len(x.Elems) - 1 - rest}, args: args}
	}
	panic(errNoCheck{})
}

func (t *pty) variantIndex(name string) int {
	for i, v := range t.variants {
		if v.name == name {
			return i
		}
	}
	panic(errNoCheck{})
}

// fieldType is the type of field k of variant v, as the sub-pattern p
// tells it.
func (in *interp) fieldType(t *pty, v pvar, k int, p syntax.Pattern) *pty {
	return in.typeOf([]syntax.Pattern{p}, unknown)
}

// ---- the usefulness algorithm ----

// maxWitnessDepth bounds the recursion on deeply nested patterns.
const maxWitnessDepth = 32

// witnesses lists value vectors (as pattern text) that no row covers.
func (in *interp) witnesses(rows [][]*ppat, tys []*pty, depth int) [][]string {
	if depth > maxWitnessDepth {
		panic(errNoCheck{})
	}
	if len(tys) == 0 {
		if len(rows) > 0 {
			return nil
		}
		return [][]string{{}}
	}
	t := tys[0]
	ctors, complete := in.ctorsOf(t, rows)
	if !complete {
		// Only the rows with a wildcard head cover what no constructor
		// names.
		var def [][]*ppat
		for _, r := range rows {
			if r[0].wild {
				def = append(def, r[1:])
			}
		}
		rest := in.witnesses(def, tys[1:], depth+1)
		if len(rest) == 0 {
			return nil
		}
		var missing []ctor
		switch t.kind {
		case tyOther:
			return prefix("_", rest)
		default:
			missing = in.missingCtors(t, rows, ctors)
		}
		var out [][]string
		for _, c := range missing {
			out = append(out, prefix(in.ctorText(t, c, nil), rest)...)
		}
		return out
	}
	var out [][]string
	for _, c := range ctors {
		n := in.ctorArity(t, c)
		var spec [][]*ppat
		for _, r := range rows {
			if args, ok := in.specialize(t, r[0], c, n); ok {
				spec = append(spec, append(args, r[1:]...))
			}
		}
		sub := make([]*pty, n)
		for i := range sub {
			sub[i] = in.argType(t, c, i, spec)
		}
		for _, w := range in.witnesses(spec, append(sub, tys[1:]...), depth+1) {
			out = append(out, append([]string{in.ctorText(t, c, w[:n])}, w[n:]...))
		}
		if len(out) > 16 {
			break
		}
	}
	return out
}

func prefix(head string, rest [][]string) [][]string {
	out := make([][]string, len(rest))
	for i, r := range rest {
		out[i] = append([]string{head}, r...)
	}
	return out
}

// argType is the type of argument i of constructor c, read from the
// specialized rows.
func (in *interp) argType(t *pty, c ctor, i int, rows [][]*ppat) *pty {
	for _, r := range rows {
		if p := r[i]; !p.wild && p.ty != nil {
			return p.ty
		}
	}
	return &pty{kind: tyOther, fixedLen: -1}
}

// ctorsOf is the constructors of t to split on; complete is false when
// the heads of the rows do not name them all (or t has infinitely many).
func (in *interp) ctorsOf(t *pty, rows [][]*ppat) ([]ctor, bool) {
	switch t.kind {
	case tyEnum, tyStruct:
		cs := make([]ctor, len(t.variants))
		for i := range cs {
			cs[i] = ctor{variant: i}
		}
		return cs, in.allNamed(rows, cs, t)
	case tyTuple:
		return []ctor{{}}, true
	case tyBool:
		cs := []ctor{{variant: 0}, {variant: 1}}
		return cs, in.allNamed(rows, cs, t)
	case tyInt:
		cs := splitRanges(t, rows)
		return cs, in.allNamed(rows, cs, t)
	case tySlice:
		cs := sliceCtors(t, rows)
		return cs, in.allNamed(rows, cs, t)
	}
	return nil, false
}

func (in *interp) allNamed(rows [][]*ppat, cs []ctor, t *pty) bool {
	for _, c := range cs {
		named := false
		for _, r := range rows {
			if !r[0].wild && covers(t, r[0].ctor, c) {
				named = true
				break
			}
		}
		if !named {
			return false
		}
	}
	return true
}

// missingCtors are the constructors of t no head names, adjacent integer
// ranges merged as rustc prints them.
func (in *interp) missingCtors(t *pty, rows [][]*ppat, cs []ctor) []ctor {
	var out []ctor
	for _, c := range cs {
		named := false
		for _, r := range rows {
			if !r[0].wild && covers(t, r[0].ctor, c) {
				named = true
				break
			}
		}
		if named {
			continue
		}
		if t.kind == tyInt && len(out) > 0 && out[len(out)-1].hi+1 == c.lo {
			out[len(out)-1].hi = c.hi
			continue
		}
		out = append(out, c)
	}
	return out
}

// covers reports whether head constructor h covers constructor c of t.
func covers(t *pty, h, c ctor) bool {
	switch t.kind {
	case tyInt:
		return h.lo <= c.lo && c.hi <= h.hi
	case tySlice:
		if h.varLen {
			return c.length >= h.length
		}
		return !c.varLen && c.length == h.length
	case tyTuple:
		return true
	}
	return h.variant == c.variant
}

// splitRanges splits t's range at the bounds of the heads' ranges, so
// that each piece is inside or outside every head.
func splitRanges(t *pty, rows [][]*ppat) []ctor {
	cuts := map[int64]bool{t.lo: true}
	for _, r := range rows {
		if h := r[0]; !h.wild {
			lo, hi := max(h.ctor.lo, t.lo), min(h.ctor.hi, t.hi)
			if lo > hi {
				continue
			}
			cuts[lo] = true
			if hi < t.hi {
				cuts[hi+1] = true
			}
		}
	}
	starts := make([]int64, 0, len(cuts))
	for s := range cuts {
		starts = append(starts, s)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	out := make([]ctor, len(starts))
	for i, s := range starts {
		end := t.hi
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		}
		out[i] = ctor{lo: s, hi: end}
	}
	return out
}

// sliceCtors are the lengths a slice column splits into: each length up
// to the longest pattern, then "that long or longer".
func sliceCtors(t *pty, rows [][]*ppat) []ctor {
	if t.fixedLen >= 0 {
		return []ctor{{length: t.fixedLen}}
	}
	maxFixed, maxVar := -1, -1
	for _, r := range rows {
		if h := r[0]; !h.wild {
			if h.ctor.varLen {
				maxVar = max(maxVar, h.ctor.length)
			} else {
				maxFixed = max(maxFixed, h.ctor.length)
			}
		}
	}
	l := max(maxFixed+1, maxVar)
	if l < 0 {
		l = 0
	}
	var out []ctor
	for n := 0; n < l; n++ {
		out = append(out, ctor{length: n})
	}
	return append(out, ctor{length: l, varLen: true})
}

func (in *interp) ctorArity(t *pty, c ctor) int {
	switch t.kind {
	case tyEnum, tyStruct:
		return t.variants[c.variant].arity
	case tyTuple:
		return t.arity
	case tySlice:
		return c.length
	}
	return 0
}

// specialize is row head h seen through constructor c: its arguments, or
// ok false when h does not cover c.
func (in *interp) specialize(t *pty, h *ppat, c ctor, n int) ([]*ppat, bool) {
	wild := func() []*ppat {
		out := make([]*ppat, n)
		for i := range out {
			out[i] = wildPat
		}
		return out
	}
	if h.wild {
		return wild(), true
	}
	if !covers(t, h.ctor, c) {
		return nil, false
	}
	switch t.kind {
	case tyEnum, tyStruct, tyTuple:
		return h.args, true
	case tySlice:
		if !h.ctor.varLen {
			return h.args, true
		}
		out := wild()
		for i := 0; i < h.ctor.prefix; i++ {
			out[i] = h.args[i]
		}
		for i := 0; i < h.ctor.suffix; i++ {
			out[n-h.ctor.suffix+i] = h.args[h.ctor.prefix+i]
		}
		return out, true
	}
	return nil, true
}

// ctorText writes constructor c of t with its arguments' witnesses (all
// wildcards when args is nil) as rustc prints a pattern.
func (in *interp) ctorText(t *pty, c ctor, args []string) string {
	n := in.ctorArity(t, c)
	if args == nil {
		args = make([]string, n)
		for i := range args {
			args[i] = "_"
		}
	}
	switch t.kind {
	case tyBool:
		if c.variant == 1 {
			return "true"
		}
		return "false"
	case tyInt:
		return intRangeText(t, c.lo, c.hi)
	case tyTuple:
		if len(args) == 1 {
			return "(" + args[0] + ",)"
		}
		return "(" + strings.Join(args, ", ") + ")"
	case tySlice:
		if c.varLen {
			return "[" + strings.Join(append(args, ".."), ", ") + "]"
		}
		return "[" + strings.Join(args, ", ") + "]"
	case tyEnum, tyStruct:
		v := t.variants[c.variant]
		name := v.name
		if t.kind == tyEnum && t.name != "Option" && t.name != "Result" {
			name = t.name + "::" + v.name
		}
		switch v.shape {
		case syntax.TupleShape:
			return name + "(" + strings.Join(args, ", ") + ")"
		case syntax.NamedShape:
			var parts []string
			for i, a := range args {
				if a != "_" {
					parts = append(parts, v.fields[i]+": "+a)
				}
			}
			if len(parts) < len(args) {
				parts = append(parts, "..")
			}
			if len(parts) == 0 {
				return name + " {}"
			}
			return name + " { " + strings.Join(parts, ", ") + " }"
		}
		return name
	}
	return "_"
}

// intRangeText is rustc's text of an integer range witness:
// `i32::MIN..=0_i32`, `5_u8`, `6_i32..=i32::MAX`.
func intRangeText(t *pty, lo, hi int64) string {
	bound := func(n int64) string {
		switch {
		case n == t.hi:
			return t.name + "::MAX"
		case n == t.lo && t.lo < 0:
			return t.name + "::MIN"
		}
		return strconv.FormatInt(n, 10) + "_" + t.name
	}
	if lo == hi {
		return bound(lo)
	}
	return bound(lo) + "..=" + bound(hi)
}

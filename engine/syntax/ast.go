package syntax

import "github.com/dispatch-playground/playground/engine/source"

// Node is implemented by every AST node. Span is the byte range of the node's
// text in main.rs.
type Node interface {
	Span() source.Range
}

// File is a parsed snippet: items (use, fn, trait, impl, struct) and, for
// doc-test style snippets, bare statements outside any function.
type File struct {
	Range source.Range // the whole text
	Items []Item
	Stmts []Stmt // bare top-level statements, in order
}

func (f *File) Span() source.Range { return f.Range }

// ---- attributes and types ----

// Attr is an outer attribute such as #[backend_extension(Flex, Autodiff)].
type Attr struct {
	Range source.Range
	Path  string  // "backend_extension", "derive", "cfg", ...
	Args  []Token // the tokens between the parentheses, if any
	// ArgsRange covers the parenthesised arguments, empty when there are none.
	ArgsRange source.Range
	// Eq is set for the `#[path = value]` form; Args then holds the value.
	Eq bool
}

func (a *Attr) Span() source.Range { return a.Range }

// Type is a written type: a path with generic arguments, a reference, a tuple,
// an array or slice, or `impl Trait`. Text is the source text, normalised only
// in whitespace.
type Type struct {
	Range source.Range
	Text  string
	Kind  TypeKind
	Path  []PathSegment // TypePath, TypeImpl and TypeDyn
	Elems []*Type       // TypeTuple elements; TypeRef/TypeSlice/TypeArray: Elems[0]
	Len   Expr          // TypeArray length
	Mut   bool          // TypeRef: &mut
	// Lifetime is the lifetime of a TypeRef (`&'a T`) or the name of a
	// TypeLifetime bound, with its quote.
	Lifetime string
	// QSelf and QTrait are set for a qualified path `<QSelf as QTrait>::Name`
	// (Kind TypePath; Path holds what follows).
	QSelf  *Type
	QTrait *Type
	// Bounds are the `+`-separated bounds of TypeImpl and TypeDyn; Path
	// repeats the first bound's path.
	Bounds []*Type
	// Maybe marks a `?Sized` bound.
	Maybe bool
	// Result is the return type of a TypeFn (`fn(A) -> R`), nil for ().
	// Its parameters are in Elems.
	Result *Type
	// Macro is the call of a TypeMacro, which expansion replaces.
	Macro *MacroExpr
}

func (t *Type) Span() source.Range { return t.Range }

// TypeKind tells the shape of a Type.
type TypeKind int

const (
	TypePath TypeKind = iota
	TypeRef
	TypeTuple
	TypeArray
	TypeSlice
	TypeImpl
	TypeInfer    // _
	TypeDyn      // dyn Trait
	TypeFn       // fn(A) -> R
	TypeNever    // !
	TypePtr      // *const T, *mut T (Mut): Elems[0]
	TypeParen    // (T): Elems[0]
	TypeLifetime // 'a, as a bound
	TypeBad      // stands where no type could be read; already reported
	TypeMacro    // a macro call in type position: Macro
)

// PathSegment is one segment of a path, with turbofish or type generics:
// `Tensor::<2, Int>` has segments {Tensor, [2, Int]}.
type PathSegment struct {
	Range    source.Range
	Name     string
	Generics []GenericArg
	// FnArgs and FnResult hold parenthesised arguments, as in
	// `Fn(i32) -> i32`; FnSugar is set when they were written.
	FnSugar  bool
	FnArgs   []*Type
	FnResult *Type
}

// GenericArg is a const expression (`2`) or a type (`Int`).
type GenericArg struct {
	Range source.Range
	Type  *Type // a type, or a bare identifier
	Const Expr  // a literal or braced const expression
	// Lifetime is set for a lifetime argument (`'a`).
	Lifetime string
	// Assoc names an associated type binding `Output = T` (Type holds T).
	Assoc string
}

// ---- items ----

// Item is a top-level or nested item.
type Item interface {
	Node
	item()
}

// UseDecl is `use a::b::{c, d};`. Tree is kept as text: the playground does not
// resolve imports, but reports unknown crates.
type UseDecl struct {
	Range source.Range
	Path  string // the tree, whitespace normalised: "burn::{tensor::{Tensor, Int}, backend::*}"
	Attrs []*Attr
	Pub   bool
	// Leaves flattens the tree into one entry per imported name.
	Leaves []UseLeaf
}

// UseLeaf is one imported path of a use tree: `burn::tensor::Tensor`,
// `burn::backend::*` (Glob), `a::b as c` (Alias "c").
type UseLeaf struct {
	Range source.Range
	Path  string
	Alias string
	Glob  bool
}

// Param is a function parameter.
type Param struct {
	Range source.Range
	Attrs []*Attr // e.g. #[extension_type]
	Pat   Pattern // nil for `self`
	Self  bool    // self, &self, &mut self
	Type  *Type   // nil for a closure parameter without one and for a bare self
	// SelfRef and SelfMut tell `&self`, `&mut self` and `mut self` apart.
	SelfRef bool
	SelfMut bool
}

// Generic is a generic parameter of a fn, trait or impl: `B: Backend`,
// `const D: usize`, `'a`.
type Generic struct {
	Range  source.Range
	Name   string // a lifetime keeps its quote: "'a"
	Const  bool
	Bounds []*Type // for a const generic, its type
	// Lifetime marks a lifetime parameter.
	Lifetime bool
	// Default is `= T` or `= 3`, nil when absent.
	Default *GenericArg
}

// WherePredicate is one predicate of a where-clause: `B: Backend + Clone`
// or `'a: 'b` (Type nil, Lifetime set).
type WherePredicate struct {
	Range    source.Range
	Type     *Type
	Lifetime string
	Bounds   []*Type
}

// FnDecl is a function, or a method in a trait (Body nil for a required
// method) or impl.
type FnDecl struct {
	Range    source.Range
	Attrs    []*Attr
	Pub      bool
	Async    bool
	Name     string
	NameSpan source.Range
	Generics []*Generic
	Params   []*Param
	Result   *Type // nil for ()
	Body     *BlockExpr
	Unsafe   bool
	Const    bool
	Where    []*WherePredicate
}

// TraitDecl is `trait Name: Bounds { fn ...; }`.
type TraitDecl struct {
	Range    source.Range
	Attrs    []*Attr
	Pub      bool
	Name     string
	NameSpan source.Range
	Generics []*Generic
	Supers   []*Type
	Methods  []*FnDecl
	Where    []*WherePredicate
	// Assoc holds the other items: associated types and consts.
	Assoc  []Item
	Unsafe bool
}

// ImplDecl is `impl<G> Trait for Type { ... }` or an inherent impl.
type ImplDecl struct {
	Range    source.Range
	Attrs    []*Attr
	Generics []*Generic
	Trait    *Type // nil for an inherent impl
	For      *Type
	Methods  []*FnDecl
	Where    []*WherePredicate
	// Assoc holds the other items: associated types and consts.
	Assoc  []Item
	Unsafe bool
}

// StructDecl is a struct or enum declaration; fields are kept as types only.
type StructDecl struct {
	Range    source.Range
	Attrs    []*Attr
	Enum     bool
	Name     string
	NameSpan source.Range
	Generics []*Generic
	Fields   []*Field // struct fields, or enum variants (Type nil for unit variants)
	Pub      bool
	Where    []*WherePredicate
	// Shape is how a struct's fields are written (enums: NamedShape).
	Shape Shape
	// Union is set for `union` (reported as unsupported).
	Union bool
}

// Shape tells unit, tuple and named-field structs and variants apart.
type Shape int

const (
	UnitShape  Shape = iota // struct S; / Variant
	TupleShape              // struct S(A, B); / Variant(A, B)
	NamedShape              // struct S { a: A } / Variant { a: A }
)

// Field is a named struct field or an enum variant. Tuple fields are named
// "0", "1", ... A tuple variant has Type set to the tuple of its field types
// and Fields to those fields; a struct variant has Fields and no Type.
type Field struct {
	Range source.Range
	Name  string
	Type  *Type
	Attrs []*Attr
	Pub   bool
	// NameSpan is empty for tuple fields.
	NameSpan source.Range
	Shape    Shape
	Fields   []*Field
	// Discriminant is an enum variant's `= value`.
	Discriminant Expr
}

// ModDecl is an inline module `mod name { items }`.
type ModDecl struct {
	Range source.Range
	Attrs []*Attr
	Name  string
	Items []Item
	Pub   bool
	// Inline is false for `mod name;`, whose Items the crate's loader
	// reads from the module's file.
	Inline bool
	// Crate is set for the package's library as a binary of the package
	// sees it: a crate of its own, named by the package, whose `crate::`
	// is itself.
	Crate bool
}

// ConstDecl is `const NAME: T = expr;` or `static`.
type ConstDecl struct {
	Range source.Range
	Name  string
	Type  *Type
	Value Expr // nil for a trait's const without default
	Attrs []*Attr
	Pub   bool
	// Static is set for `static`, Mut for `static mut`.
	Static bool
	Mut    bool
}

// TypeAliasDecl is `type Name<G> = T;`, or an associated type in a trait
// (`type Output: Bound;`, Type nil).
type TypeAliasDecl struct {
	Range    source.Range
	Attrs    []*Attr
	Pub      bool
	Name     string
	NameSpan source.Range
	Generics []*Generic
	Bounds   []*Type
	Type     *Type
}

// ExternCrateDecl is `extern crate name [as alias];`.
type ExternCrateDecl struct {
	Range source.Range
	Attrs []*Attr
	Pub   bool
	Name  string
	// Alias is the name after `as`, empty without one.
	Alias string
}

func (d *ExternCrateDecl) Span() source.Range { return d.Range }
func (*ExternCrateDecl) item()                {}

// MacroRulesDecl is `macro_rules! name { (matcher) => { transcriber }; ... }`.
// The rules are kept as tokens; expand reads them.
type MacroRulesDecl struct {
	Range    source.Range
	Attrs    []*Attr // #[macro_export], #[macro_use], ...
	Name     string
	NameSpan source.Range
	Rules    []*MacroRule
}

// MacroRule is one `(matcher) => { transcriber }` rule: the tokens inside
// each side's delimiters, and the ranges of the delimited groups.
type MacroRule struct {
	Range            source.Range
	Matcher          []Token
	MatcherRange     source.Range
	Transcriber      []Token
	TranscriberRange source.Range
}

// MacroItem is a macro call where an item stands: at the top of a module,
// or in a trait or impl. Expansion replaces it with the items it expands to.
type MacroItem struct {
	Range source.Range
	Attrs []*Attr
	Call  *MacroExpr
}

func (d *MacroRulesDecl) Span() source.Range { return d.Range }
func (r *MacroRule) Span() source.Range      { return r.Range }
func (d *MacroItem) Span() source.Range      { return d.Range }
func (*MacroRulesDecl) item()                {}
func (*MacroItem) item()                     {}

func (d *UseDecl) Span() source.Range        { return d.Range }
func (d *FnDecl) Span() source.Range         { return d.Range }
func (d *TraitDecl) Span() source.Range      { return d.Range }
func (d *ImplDecl) Span() source.Range       { return d.Range }
func (d *StructDecl) Span() source.Range     { return d.Range }
func (d *ConstDecl) Span() source.Range      { return d.Range }
func (d *ModDecl) Span() source.Range        { return d.Range }
func (d *TypeAliasDecl) Span() source.Range  { return d.Range }
func (*TypeAliasDecl) item()                 {}
func (p *Param) Span() source.Range          { return p.Range }
func (g *Generic) Span() source.Range        { return g.Range }
func (w *WherePredicate) Span() source.Range { return w.Range }
func (f *Field) Span() source.Range          { return f.Range }
func (*ModDecl) item()                       {}
func (*UseDecl) item()                       {}
func (*FnDecl) item()                        {}
func (*TraitDecl) item()                     {}
func (*ImplDecl) item()                      {}
func (*StructDecl) item()                    {}
func (*ConstDecl) item()                     {}

// ---- statements ----

// Stmt is a statement inside a block.
type Stmt interface {
	Node
	stmt()
}

// LetStmt is `let [mut] pat [: T] [= init] [else { ... }];`.
type LetStmt struct {
	Range source.Range
	Pat   Pattern
	Type  *Type
	Init  Expr // may be nil
	Else  *BlockExpr
	Attrs []*Attr
}

// ExprStmt is an expression used as a statement. Semi is false for a block's
// tail expression (its value) and for block-like expressions without `;`.
type ExprStmt struct {
	Range source.Range
	X     Expr
	Semi  bool
	Attrs []*Attr
}

// ItemStmt is an item declared inside a block.
type ItemStmt struct {
	Item Item
}

func (s *LetStmt) Span() source.Range  { return s.Range }
func (s *ExprStmt) Span() source.Range { return s.Range }
func (s *ItemStmt) Span() source.Range { return s.Item.Span() }
func (*LetStmt) stmt()                 {}
func (*ExprStmt) stmt()                {}
func (*ItemStmt) stmt()                {}

// ---- patterns ----

// Pattern is a binding pattern.
type Pattern interface {
	Node
	pattern()
}

// IdentPat binds a name: `x`, `mut x`, `ref x`.
type IdentPat struct {
	Range source.Range
	Name  string
	Mut   bool
	Ref   bool
	// Sub is the pattern after `@` in `name @ pat`.
	Sub      Pattern
	NameSpan source.Range
}

// WildPat is `_`.
type WildPat struct{ Range source.Range }

// TuplePat is `(a, b)`.
type TuplePat struct {
	Range source.Range
	Elems []Pattern
}

// TupleStructPat is `Some(x)` or `Ok(v)`; also a path pattern `None` when
// Elems is nil and Paren is false. A lone identifier is a path pattern when
// it starts with an uppercase letter (`None`, `Empty`) and an IdentPat
// otherwise, following Rust's naming conventions.
type TupleStructPat struct {
	Range source.Range
	Path  []PathSegment
	Elems []Pattern
	Paren bool
}

// LitPat is a literal pattern in a match arm. Lit is a *LitExpr, or a
// *UnaryExpr `-` of one for a negative number.
type LitPat struct {
	Range source.Range
	Lit   Expr
}

// StructPat is `Path { field, name: pat, .. }`.
type StructPat struct {
	Range  source.Range
	Path   []PathSegment
	Fields []*FieldPat
	Rest   bool // `..`
}

// FieldPat is one field of a StructPat; a shorthand `{ x }` or
// `{ ref mut x }` has Shorthand set and Pat an *IdentPat.
type FieldPat struct {
	Range     source.Range
	Name      string
	Pat       Pattern
	Shorthand bool
}

// RefPat is `&pat` or `&mut pat`.
type RefPat struct {
	Range source.Range
	Mut   bool
	Pat   Pattern
}

// RangePat is `lo..=hi`, `lo..hi`, `lo..` or `..=hi`; the bounds are
// literals (possibly negated) or paths.
type RangePat struct {
	Range     source.Range
	Lo, Hi    Expr
	Inclusive bool
}

// RestPat is `..` inside a tuple, tuple-struct or slice pattern.
type RestPat struct{ Range source.Range }

// SlicePat is `[a, b, ..]`.
type SlicePat struct {
	Range source.Range
	Elems []Pattern
}

// OrPat is `a | b`: in match arms, let, and inside parentheses.
type OrPat struct {
	Range source.Range
	Alts  []Pattern
}

// BadPat stands where the parser could not build a pattern; a parse
// diagnostic has already been reported for it.
type BadPat struct{ Range source.Range }

// ParenPat is `(pat)`.
type ParenPat struct {
	Range source.Range
	Pat   Pattern
}

// MacroPat is a macro call in pattern position; expansion replaces it.
type MacroPat struct {
	Range source.Range
	Call  *MacroExpr
}

func (p *MacroPat) Span() source.Range { return p.Range }
func (*MacroPat) pattern()             {}

func (p *IdentPat) Span() source.Range       { return p.Range }
func (p *WildPat) Span() source.Range        { return p.Range }
func (p *TuplePat) Span() source.Range       { return p.Range }
func (p *TupleStructPat) Span() source.Range { return p.Range }
func (p *LitPat) Span() source.Range         { return p.Range }
func (*IdentPat) pattern()                   {}
func (*WildPat) pattern()                    {}
func (*TuplePat) pattern()                   {}
func (*TupleStructPat) pattern()             {}
func (*LitPat) pattern()                     {}
func (p *StructPat) Span() source.Range      { return p.Range }
func (p *FieldPat) Span() source.Range       { return p.Range }
func (p *RefPat) Span() source.Range         { return p.Range }
func (p *RangePat) Span() source.Range       { return p.Range }
func (p *RestPat) Span() source.Range        { return p.Range }
func (p *SlicePat) Span() source.Range       { return p.Range }
func (p *OrPat) Span() source.Range          { return p.Range }
func (p *ParenPat) Span() source.Range       { return p.Range }
func (*StructPat) pattern()                  {}
func (*RefPat) pattern()                     {}
func (*RangePat) pattern()                   {}
func (*RestPat) pattern()                    {}
func (*SlicePat) pattern()                   {}
func (*OrPat) pattern()                      {}
func (*ParenPat) pattern()                   {}
func (p *BadPat) Span() source.Range         { return p.Range }
func (*BadPat) pattern()                     {}

// ---- expressions ----

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// PathExpr is a path: `x`, `Device::cuda`, `Tensor::<2, Int>::ones`,
// `burn::server::start`, `DType::F16`, `Default::default`.
type PathExpr struct {
	Range    source.Range
	Segments []PathSegment
	// QSelf and QTrait are set for a qualified path `<QSelf as QTrait>::seg`
	// (QTrait nil for `<QSelf>::seg`); Segments then holds what follows.
	QSelf  *Type
	QTrait *Type
}

// LitKind tells a literal's kind.
type LitKind int

const (
	IntLit LitKind = iota
	FloatLit
	StrLit
	CharLit
	BoolLit
	ByteLit    // b'x'; Value holds the byte
	ByteStrLit // b"..."; Value holds the bytes
)

// LitExpr is a literal. Text is the source text; Value holds the decoded
// value for strings and chars (escapes resolved) and, for numbers, the digits
// without `_` separators or suffix ("1000", "0x1F", "1e-3"); Suffix is a
// type suffix such as "u64" or "f32". A decimal integer with a float suffix
// (`2f32`) is a FloatLit.
type LitExpr struct {
	Range  source.Range
	Kind   LitKind
	Text   string
	Value  string
	Suffix string
}

// CallExpr is `f(args)`.
type CallExpr struct {
	Range source.Range
	Fun   Expr
	Args  []Expr
	// ParenRange covers `(` to `)`.
	ParenRange source.Range
}

// MethodCallExpr is `recv.name::<G>(args)`.
type MethodCallExpr struct {
	Range      source.Range
	Recv       Expr
	Name       string
	NameSpan   source.Range
	Generics   []GenericArg
	Args       []Expr
	ParenRange source.Range
}

// FieldExpr is `x.name` or a tuple index `x.0`.
type FieldExpr struct {
	Range    source.Range
	X        Expr
	Name     string
	NameSpan source.Range
}

// IndexExpr is `x[i]`.
type IndexExpr struct {
	Range source.Range
	X     Expr
	Index Expr
}

// UnaryExpr is `-x`, `!x`, `*x`, `&x` or `&mut x` (Op "&mut").
type UnaryExpr struct {
	Range source.Range
	Op    string
	X     Expr
}

// BinaryExpr is `x op y` for arithmetic, comparison and logical operators.
type BinaryExpr struct {
	Range  source.Range
	Op     string
	OpSpan source.Range
	X, Y   Expr
}

// AssignExpr is `lhs = rhs` or a compound assignment (`+=`, ...).
type AssignExpr struct {
	Range source.Range
	Op    string // "=", "+=", "-=", "*=", "/=", "%="
	Lhs   Expr
	Rhs   Expr
}

// CastExpr is `x as T`.
type CastExpr struct {
	Range source.Range
	X     Expr
	Type  *Type
}

// ArrayExpr is `[a, b, c]`; ArrayRepeatExpr is `[x; n]`.
type ArrayExpr struct {
	Range source.Range
	Elems []Expr
}

type ArrayRepeatExpr struct {
	Range source.Range
	Elem  Expr
	Len   Expr
}

// TupleExpr is `(a, b)` or `()`.
type TupleExpr struct {
	Range source.Range
	Elems []Expr
}

// ParenExpr is `(x)`.
type ParenExpr struct {
	Range source.Range
	X     Expr
}

// RangeExpr is `lo..hi`, `lo..=hi`, `..hi`, `lo..` or `..`.
type RangeExpr struct {
	Range     source.Range
	Lo, Hi    Expr // either may be nil
	Inclusive bool
}

// BlockExpr is `{ stmts }`. The value of the block is the last statement when
// it is an ExprStmt without a semicolon.
type BlockExpr struct {
	Range source.Range
	Stmts []Stmt
	// Unsafe or async blocks are accepted and treated as plain blocks.
	Label string
	// Modifier is "unsafe", "async", "async move" or "const" for such
	// blocks, empty for a plain one.
	Modifier string
}

// IfExpr is `if cond { } else ...`; with Let set it is `if let Pat = cond`.
type IfExpr struct {
	Range source.Range
	Let   Pattern // nil for a plain if
	Cond  Expr
	Then  *BlockExpr
	Else  Expr // nil, *BlockExpr or *IfExpr
}

// ForExpr is `for pat in iter { body }`.
type ForExpr struct {
	Range source.Range
	Pat   Pattern
	Iter  Expr
	Body  *BlockExpr
	Label string // 'outer, with its quote
}

// WhileExpr is `while cond { body }` (Let set for `while let`).
type WhileExpr struct {
	Range source.Range
	Let   Pattern
	Cond  Expr
	Body  *BlockExpr
	Label string
}

// LoopExpr is `loop { body }`.
type LoopExpr struct {
	Range source.Range
	Body  *BlockExpr
	Label string
}

// MatchExpr is `match x { arms }`.
type MatchExpr struct {
	Range source.Range
	X     Expr
	Arms  []*MatchArm
}

// MatchArm is `pat [if guard] => body`.
type MatchArm struct {
	Range source.Range
	Attrs []*Attr
	Pats  []Pattern // alternatives separated by |
	Guard Expr
	Body  Expr
}

// BreakExpr, ContinueExpr and ReturnExpr.
type BreakExpr struct {
	Range source.Range
	Value Expr
	Label string
}

type ContinueExpr struct {
	Range source.Range
	Label string
}

type ReturnExpr struct {
	Range source.Range
	Value Expr
}

// MacroExpr is a macro call. The built-ins the parser knows the shape of
// (println!, print!, eprintln!, eprint!, format!, format_args!, write!,
// writeln!, dbg!, assert!, assert_eq!, assert_ne!, debug_assert*!, vec!,
// panic!, todo!, unimplemented!, unreachable!, s! and matches!) have their
// arguments parsed: Args are comma-separated expressions (vec![x; n] sets
// Repeat). Any other macro, and a built-in's name that the program defines
// with macro_rules!, keeps its arguments as Tokens, the token tree between
// the delimiters, for expand to read. Name has no `!` and no path prefix
// (`std::println!` is "println"); Path holds every segment as written
// (`log::info!` is ["log", "info"]).
//
// A MacroExpr alone in statement position (an ExprStmt whose X it is) is a
// statement macro: it may expand to statements and items, as in rustc.
//
// s! (Burn's slice macro) takes `range[; step]` items: Steps runs parallel to
// Args, with nil where no step was written. matches!(x, pat if guard) keeps
// its scrutinee in Args[0] and its pattern and guard in Arm (Arm.Body nil).
// Named format arguments (`x = 1`) are AssignExprs.
type MacroExpr struct {
	Range    source.Range
	Name     string
	NameSpan source.Range // the name and its `!`
	Args     []Expr
	Repeat   bool // vec![elem; len]: Args = [elem, len]
	Steps    []Expr
	Arm      *MatchArm
	Delim    string // "(", "[" or "{"
	Path     []string
	// Tokens is the token tree between the delimiters of a call whose
	// arguments the parser does not read; nil for the built-ins above.
	Tokens []Token
	// Foreign marks a call of a macro of a crate the engine does not
	// model, its crate first in Path: expansion leaves it to the
	// evaluator as a boundary.
	Foreign bool
	// Close is the closing delimiter's range.
	Close source.Range
	// Fields holds the field values of a log or tracing macro
	// (`info!(key = %value, "msg")`), which expand separates from its
	// format arguments in Args.
	Fields []Expr
}

// ClosureExpr is `|a, b| body` or `move |x: T| { ... }`.
type ClosureExpr struct {
	Range  source.Range
	Params []*Param
	Body   Expr
	Move   bool
	Result *Type // `|x| -> T { ... }`, nil when absent
}

// StructExpr is a struct literal: `Channel::WebSocket { port: 3000 }`.
// A field written as shorthand (`{ port }`) has Value set to a PathExpr.
type StructExpr struct {
	Range  source.Range
	Path   []PathSegment
	Fields []*FieldInit
	Base   Expr // ..base
}

// FieldInit is `name: value` inside a struct literal.
type FieldInit struct {
	Range     source.Range
	Name      string
	Value     Expr
	Shorthand bool
}

func (f *FieldInit) Span() source.Range { return f.Range }
func (a *MatchArm) Span() source.Range  { return a.Range }

// TryExpr is `x?`; AwaitExpr is `x.await`.
type TryExpr struct {
	Range source.Range
	X     Expr
}

type AwaitExpr struct {
	Range source.Range
	X     Expr
}

// BadExpr stands where the parser could not build an expression, or where
// a macro call did not expand (or stands for a value the playground cannot
// know, such as include_str!'s); a diagnostic has already been reported
// for it.
type BadExpr struct{ Range source.Range }

func (e *PathExpr) Span() source.Range        { return e.Range }
func (e *LitExpr) Span() source.Range         { return e.Range }
func (e *CallExpr) Span() source.Range        { return e.Range }
func (e *MethodCallExpr) Span() source.Range  { return e.Range }
func (e *FieldExpr) Span() source.Range       { return e.Range }
func (e *IndexExpr) Span() source.Range       { return e.Range }
func (e *UnaryExpr) Span() source.Range       { return e.Range }
func (e *BinaryExpr) Span() source.Range      { return e.Range }
func (e *AssignExpr) Span() source.Range      { return e.Range }
func (e *CastExpr) Span() source.Range        { return e.Range }
func (e *ArrayExpr) Span() source.Range       { return e.Range }
func (e *ArrayRepeatExpr) Span() source.Range { return e.Range }
func (e *TupleExpr) Span() source.Range       { return e.Range }
func (e *ParenExpr) Span() source.Range       { return e.Range }
func (e *RangeExpr) Span() source.Range       { return e.Range }
func (e *BlockExpr) Span() source.Range       { return e.Range }
func (e *IfExpr) Span() source.Range          { return e.Range }
func (e *ForExpr) Span() source.Range         { return e.Range }
func (e *WhileExpr) Span() source.Range       { return e.Range }
func (e *LoopExpr) Span() source.Range        { return e.Range }
func (e *MatchExpr) Span() source.Range       { return e.Range }
func (e *BreakExpr) Span() source.Range       { return e.Range }
func (e *ContinueExpr) Span() source.Range    { return e.Range }
func (e *ReturnExpr) Span() source.Range      { return e.Range }
func (e *MacroExpr) Span() source.Range       { return e.Range }
func (e *ClosureExpr) Span() source.Range     { return e.Range }
func (e *StructExpr) Span() source.Range      { return e.Range }
func (e *TryExpr) Span() source.Range         { return e.Range }
func (e *AwaitExpr) Span() source.Range       { return e.Range }
func (e *BadExpr) Span() source.Range         { return e.Range }

func (*PathExpr) expr()        {}
func (*LitExpr) expr()         {}
func (*CallExpr) expr()        {}
func (*MethodCallExpr) expr()  {}
func (*FieldExpr) expr()       {}
func (*IndexExpr) expr()       {}
func (*UnaryExpr) expr()       {}
func (*BinaryExpr) expr()      {}
func (*AssignExpr) expr()      {}
func (*CastExpr) expr()        {}
func (*ArrayExpr) expr()       {}
func (*ArrayRepeatExpr) expr() {}
func (*TupleExpr) expr()       {}
func (*ParenExpr) expr()       {}
func (*RangeExpr) expr()       {}
func (*BlockExpr) expr()       {}
func (*IfExpr) expr()          {}
func (*ForExpr) expr()         {}
func (*WhileExpr) expr()       {}
func (*LoopExpr) expr()        {}
func (*MatchExpr) expr()       {}
func (*BreakExpr) expr()       {}
func (*ContinueExpr) expr()    {}
func (*ReturnExpr) expr()      {}
func (*MacroExpr) expr()       {}
func (*ClosureExpr) expr()     {}
func (*StructExpr) expr()      {}
func (*TryExpr) expr()         {}
func (*AwaitExpr) expr()       {}
func (*BadExpr) expr()         {}

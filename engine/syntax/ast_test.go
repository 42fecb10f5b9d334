package syntax

import (
	"reflect"
	"strings"
	"testing"
)

// parseClean parses src and fails on any diagnostic or broken range.
func parseClean(t *testing.T, src string) *File {
	t.Helper()
	f, diags := Parse(src)
	for _, d := range diags {
		t.Fatalf("%q: unexpected %s at %v: %s", src, d.Code, d.Range, d.Message)
	}
	checkRanges(t, src, f)
	return f
}

// oneLine undoes Dump's line breaking.
func oneLine(dump string) string { return strings.Join(strings.Fields(dump), " ") }

// letType returns the annotated type of `let x: T = ...;`.
func letType(t *testing.T, src string) *Type {
	t.Helper()
	f := parseClean(t, src)
	return f.Stmts[0].(*LetStmt).Type
}

func TestTypes(t *testing.T) {
	tests := []struct {
		typ   string
		kind  TypeKind
		text  string
		check func(t *testing.T, ty *Type)
	}{
		{"Tensor<2, Int>", TypePath, "Tensor<2, Int>", func(t *testing.T, ty *Type) {
			seg := ty.Path[0]
			if seg.Name != "Tensor" || len(seg.Generics) != 2 || seg.Generics[0].Const.(*LitExpr).Value != "2" || seg.Generics[1].Type.Text != "Int" {
				t.Errorf("segment %+v", seg)
			}
		}},
		{"Tensor < 2 ,Int >", TypePath, "Tensor<2, Int>", nil},
		{"Vec<Vec<u8>>", TypePath, "Vec<Vec<u8>>", func(t *testing.T, ty *Type) {
			inner := ty.Path[0].Generics[0].Type
			if inner.Text != "Vec<u8>" || inner.Path[0].Generics[0].Type.Text != "u8" {
				t.Errorf("inner %+v", inner)
			}
		}},
		{"&'a mut T", TypeRef, "&'a mut T", func(t *testing.T, ty *Type) {
			if !ty.Mut || ty.Lifetime != "'a" || ty.Elems[0].Text != "T" {
				t.Errorf("%+v", ty)
			}
		}},
		{"&&T", TypeRef, "&&T", func(t *testing.T, ty *Type) {
			if ty.Elems[0].Kind != TypeRef || ty.Elems[0].Text != "&T" {
				t.Errorf("inner %+v", ty.Elems[0])
			}
		}},
		{"Box<dyn Fn(i32) -> i32>", TypePath, "Box<dyn Fn(i32) -> i32>", func(t *testing.T, ty *Type) {
			dyn := ty.Path[0].Generics[0].Type
			if dyn.Kind != TypeDyn || len(dyn.Bounds) != 1 {
				t.Fatalf("dyn %+v", dyn)
			}
			fn := dyn.Path[0]
			if fn.Name != "Fn" || !fn.FnSugar || len(fn.FnArgs) != 1 || fn.FnArgs[0].Text != "i32" || fn.FnResult.Text != "i32" {
				t.Errorf("Fn segment %+v", fn)
			}
		}},
		{"impl Iterator<Item = u32> + Send + 'a", TypeImpl, "impl Iterator<Item = u32> + Send + 'a", func(t *testing.T, ty *Type) {
			if len(ty.Bounds) != 3 || ty.Bounds[2].Kind != TypeLifetime || ty.Path[0].Generics[0].Assoc != "Item" {
				t.Errorf("%+v", ty)
			}
		}},
		{"fn(i32, f32) -> bool", TypeFn, "fn(i32, f32) -> bool", func(t *testing.T, ty *Type) {
			if len(ty.Elems) != 2 || ty.Result.Text != "bool" {
				t.Errorf("%+v", ty)
			}
		}},
		{"[f32; 3]", TypeArray, "[f32; 3]", func(t *testing.T, ty *Type) {
			if ty.Elems[0].Text != "f32" || ty.Len.(*LitExpr).Value != "3" {
				t.Errorf("%+v", ty)
			}
		}},
		{"[u8]", TypeSlice, "[u8]", nil},
		{"(A, B)", TypeTuple, "(A, B)", nil},
		{"()", TypeTuple, "()", nil},
		{"(T)", TypeParen, "(T)", nil},
		{"*const u8", TypePtr, "*const u8", nil},
		{"!", TypeNever, "!", nil},
		{"_", TypeInfer, "_", nil},
		{"<Self as Backend>::FloatTensorPrimitive", TypePath, "<Self as Backend>::FloatTensorPrimitive", func(t *testing.T, ty *Type) {
			if ty.QSelf.Text != "Self" || ty.QTrait.Text != "Backend" || ty.Path[0].Name != "FloatTensorPrimitive" {
				t.Errorf("%+v", ty)
			}
		}},
		{"burn::tensor::Tensor<3>", TypePath, "burn::tensor::Tensor<3>", func(t *testing.T, ty *Type) {
			if len(ty.Path) != 3 {
				t.Errorf("%+v", ty.Path)
			}
		}},
		{"Option<Box<dyn Fn() /* comment */>>", TypePath, "Option<Box<dyn Fn()>>", nil},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			src := "let x: " + tt.typ + " = y;"
			ty := letType(t, src)
			if ty.Kind != tt.kind || ty.Text != tt.text {
				t.Errorf("kind %v text %q, want %v %q", ty.Kind, ty.Text, tt.kind, tt.text)
			}
			if got := src[ty.Range.Start:ty.Range.End]; got != tt.typ {
				t.Errorf("range covers %q", got)
			}
			if tt.check != nil {
				tt.check(t, ty)
			}
		})
	}
}

func TestGreaterThanSplitting(t *testing.T) {
	f := parseClean(t, "let x: Vec<u8>= y;\nlet z = a >> 2;\nlet w = a >= b;")
	if f.Stmts[0].(*LetStmt).Type.Text != "Vec<u8>" {
		t.Errorf("`>=` after a type: %s", Dump(f.Stmts[0], false))
	}
	if got := Dump(f.Stmts[1], false); got != "(let z (>> a 2))" {
		t.Errorf("shift: %s", got)
	}
	if got := Dump(f.Stmts[2], false); got != "(let w (>= a b))" {
		t.Errorf("comparison: %s", got)
	}
}

func TestItems(t *testing.T) {
	src := `use burn::{tensor::{Tensor, Int}, backend::*};
use std::fmt::{self, Display as Show};

#[backend_extension(Autodiff, Wgpu)]
pub trait Backend: burn::backend::Backend {
    fn required(input: FloatTensor<Self>) -> FloatTensor<Self>;
    fn provided(&self) -> u8 { 1 }
    type Output: Clone;
    const N: usize;
}

pub(crate) async unsafe fn f<'a, B: Backend + 'a, const D: usize>(#[extension_type] x: &'a mut B, mut y: u8) -> impl Future<Output = u8> + 'a where B: Clone {}

impl<B: Backend, C: CheckpointStrategy> Backend for Autodiff<B, C> {}
impl DoubleBackend for Flex {}
impl<T> Wrapper<T> { pub fn new(self, other: &mut Self) -> Self { Self { inner: other } } }

#[derive(Debug, Clone)]
pub struct Named<B: Backend> { pub a: FloatTensor<B>, #[allow(dead_code)] b: u64 }
struct Pair(pub f32, f32);
struct Unit;

enum Selection<B: Backend> {
    All,
    Rows { weights: FloatTensor<B>, ids: IntTensor<B> },
    Single(FloatTensor<B>),
    Code = 3,
}

mod inner { pub const LIMIT: usize = 1_024; static mut COUNT: u32 = 0; type Alias<T> = Vec<T>; }
`
	f := parseClean(t, src)
	if len(f.Items) != 12 || len(f.Stmts) != 0 {
		t.Fatalf("want 12 items, got %d items and %d statements", len(f.Items), len(f.Stmts))
	}

	use := f.Items[0].(*UseDecl)
	var leaves []string
	for _, l := range use.Leaves {
		leaves = append(leaves, l.Path+"|"+l.Alias+"|"+src[l.Range.Start:l.Range.End])
	}
	if use.Path != "burn::{tensor::{Tensor, Int}, backend::*}" || !reflect.DeepEqual(leaves, []string{
		"burn::tensor::Tensor||Tensor", "burn::tensor::Int||Int", "burn::backend::*||backend::*",
	}) {
		t.Errorf("use: %q %v", use.Path, leaves)
	}
	use2 := f.Items[1].(*UseDecl)
	if len(use2.Leaves) != 2 || use2.Leaves[0].Path != "std::fmt" || use2.Leaves[1].Alias != "Show" || !use2.Leaves[0].Glob && use2.Leaves[0].Path == "" {
		t.Errorf("use self/as: %+v", use2.Leaves)
	}

	tr := f.Items[2].(*TraitDecl)
	if tr.Name != "Backend" || !tr.Pub || tr.Attrs[0].Path != "backend_extension" || tokensText(tr.Attrs[0].Args) != "Autodiff, Wgpu" ||
		tr.Supers[0].Text != "burn::backend::Backend" || len(tr.Methods) != 2 || tr.Methods[0].Body != nil ||
		tr.Methods[1].Body == nil || !tr.Methods[1].Params[0].Self || !tr.Methods[1].Params[0].SelfRef || len(tr.Assoc) != 2 {
		t.Errorf("trait: %s", Dump(tr, false))
	}
	if src[tr.NameSpan.Start:tr.NameSpan.End] != "Backend" || !strings.HasPrefix(src[tr.Range.Start:], "#[backend_extension") {
		t.Errorf("trait spans %v %v", tr.NameSpan, tr.Range)
	}

	fn := f.Items[3].(*FnDecl)
	if !fn.Pub || !fn.Async || !fn.Unsafe || fn.Name != "f" || len(fn.Generics) != 3 ||
		!fn.Generics[0].Lifetime || fn.Generics[1].Bounds[1].Kind != TypeLifetime || !fn.Generics[2].Const || fn.Generics[2].Bounds[0].Text != "usize" ||
		fn.Params[0].Attrs[0].Path != "extension_type" || fn.Params[0].Type.Text != "&'a mut B" ||
		!fn.Params[1].Pat.(*IdentPat).Mut || fn.Result.Kind != TypeImpl || len(fn.Where) != 1 || fn.Where[0].Type.Text != "B" {
		t.Errorf("fn: %s", Dump(fn, false))
	}

	im := f.Items[4].(*ImplDecl)
	if im.Trait.Text != "Backend" || im.For.Text != "Autodiff<B, C>" || len(im.Generics) != 2 || len(im.Methods) != 0 {
		t.Errorf("impl: %s", Dump(im, false))
	}
	inherent := f.Items[6].(*ImplDecl)
	if inherent.Trait != nil || inherent.For.Text != "Wrapper<T>" || len(inherent.Methods) != 1 {
		t.Errorf("inherent impl: %s", Dump(inherent, false))
	}
	newFn := inherent.Methods[0]
	if !newFn.Params[0].Self || newFn.Params[0].SelfRef || newFn.Params[1].Type.Text != "&mut Self" {
		t.Errorf("self params: %s", Dump(newFn, false))
	}

	named := f.Items[7].(*StructDecl)
	if named.Shape != NamedShape || !named.Pub || len(named.Fields) != 2 || !named.Fields[0].Pub || named.Fields[1].Attrs[0].Path != "allow" || named.Fields[1].Type.Text != "u64" {
		t.Errorf("named struct: %s", Dump(named, false))
	}
	pair := f.Items[8].(*StructDecl)
	if pair.Shape != TupleShape || len(pair.Fields) != 2 || pair.Fields[0].Name != "0" || !pair.Fields[0].Pub || pair.Fields[1].Name != "1" {
		t.Errorf("tuple struct: %s", Dump(pair, false))
	}
	if unit := f.Items[9].(*StructDecl); unit.Shape != UnitShape || len(unit.Fields) != 0 {
		t.Errorf("unit struct: %s", Dump(unit, false))
	}

	enum := f.Items[10].(*StructDecl)
	if !enum.Enum || len(enum.Fields) != 4 {
		t.Fatalf("enum: %s", Dump(enum, false))
	}
	all, rows, single, code := enum.Fields[0], enum.Fields[1], enum.Fields[2], enum.Fields[3]
	if all.Type != nil || all.Shape != UnitShape ||
		rows.Shape != NamedShape || rows.Type != nil || len(rows.Fields) != 2 || rows.Fields[1].Name != "ids" ||
		single.Shape != TupleShape || single.Type.Kind != TypeTuple || single.Type.Text != "(FloatTensor<B>)" || single.Fields[0].Type.Text != "FloatTensor<B>" ||
		code.Discriminant.(*LitExpr).Value != "3" {
		t.Errorf("variants: %s", Dump(enum, false))
	}

	mod := f.Items[11].(*ModDecl)
	if mod.Name != "inner" || !mod.Inline || len(mod.Items) != 3 {
		t.Fatalf("mod: %s", Dump(mod, false))
	}
	if c := mod.Items[0].(*ConstDecl); !c.Pub || c.Static || c.Value.(*LitExpr).Value != "1024" {
		t.Errorf("const: %s", Dump(c, false))
	}
	if s := mod.Items[1].(*ConstDecl); !s.Static || !s.Mut {
		t.Errorf("static mut: %s", Dump(s, false))
	}
	if a := mod.Items[2].(*TypeAliasDecl); a.Name != "Alias" || a.Type.Text != "Vec<T>" || len(a.Generics) != 1 {
		t.Errorf("type alias: %s", Dump(a, false))
	}
}

func TestStatements(t *testing.T) {
	tests := []struct{ src, want string }{
		// a block-like expression ends its statement...
		{"if a {} -1", "(expr (if a (block))) (expr (neg 1))"},
		{"match x {} (y)", "(expr (match x)) (expr (paren y))"},
		// ...unless `.` or `?` continues it
		{"match x { _ => y }.unwrap() + 1;", "(semi (+ (method (match x (arm _ => y)) unwrap) 1))"},
		{"{ a }?;", "(semi (? (block (expr a))))"},
		// tail expressions and semicolons
		{"fn main() { let x = 1; x }", "(fn main (params) (block (let x 1) (expr x)))"},
		{"fn main() { loop {} for i in 0..1 {} }", "(fn main (params) (block (expr (loop (block))) (expr (for i (.. 0 1) (block)))))"},
		// let forms
		{"let (a, mut b): (u8, u8) = (1, 2);", "(let (tuple a (mut b)) (: (u8, u8)) (tuple 1 2))"},
		{"let Some(x) = opt else { return };", "(let (Some x) opt (else (block (expr (return)))))"},
		{"let x;", "(let x)"},
		// struct literals are not allowed in condition heads
		{"if x == S { f() }", "(expr (if (== x S) (block (expr (call f)))))"},
		{"for p in ps { p }", "(expr (for p ps (block (expr p))))"},
		{"while running { step() }", "(expr (while running (block (expr (call step)))))"},
		{"match (S { a: 1 }) { _ => () }", "(expr (match (paren (S {} (a: 1))) (arm _ => (tuple))))"},
		// items and statements mix at the top level
		{"use a::b;\nlet x = 1;\nfn f() {}\nx;", "(use a::b) (let x 1) (fn f (params) (block)) (semi x)"},
		// shebang and inner attributes
		{"#!/usr/bin/env rust-script\n#![allow(unused)]\nlet x = 1;", "(let x 1)"},
		{"fn main() { #![allow(unused)] x }", "(fn main (params) (block (expr x)))"},
		// attributes on statements
		{"#[allow(unused)] let x = 1;\n#[rustfmt::skip] f();", "(let #[allow(unused)] x 1) (semi #[rustfmt::skip] (call f))"},
		// macros with braces need no semicolon
		{"println! { \"a\" } x;", "(expr (println! \"a\")) (semi x)"},
		// `_` on the left of an assignment
		{"_ = f();", "(semi (= _ (call f)))"},
		// patterns
		{"match v { Some(n @ 1..=9) | None => n, [a, .., z] => a, &(ref x, _) => 0, Rows { weights, .. } => 1, -1 | 'a'..='z' => 2 }",
			"(expr (match v (arm (Some (@ n (..= 1 9))) None => n) (arm (slice a .. z) => a) (arm (& (tuple (ref x) _)) => 0) (arm (Rows {} weights ..) => 1) (arm (neg 1) (..= 'a' 'z') => 2)))"},
		{"let Point { x: px, ref mut y } = p;", "(let (Point {} (x: px) (ref mut y)) p)"},
		{"if let Ok(v) | Err(v) = r {}", "(expr (if-let (| (Ok v) (Err v)) r (block)))"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f := parseClean(t, tt.src)
			var got []string
			f.Walk(func(n Node) bool {
				if n == Node(f) {
					return true
				}
				got = append(got, oneLine(Dump(n, false)))
				return false
			})
			if strings.Join(got, " ") != tt.want {
				t.Errorf("\n got: %s\nwant: %s", strings.Join(got, " "), tt.want)
			}
		})
	}
}

func TestLiterals(t *testing.T) {
	f := parseClean(t, `let v = (3u64, 1_000usize, 0x1F, 1., 2f32, "a\tb", r#"r"#, b"by", b'x', 'c', true);`)
	tuple := f.Stmts[0].(*LetStmt).Init.(*TupleExpr)
	type lit struct {
		kind          LitKind
		value, suffix string
	}
	want := []lit{{IntLit, "3", "u64"}, {IntLit, "1000", "usize"}, {IntLit, "0x1F", ""}, {FloatLit, "1.", ""}, {FloatLit, "2", "f32"},
		{StrLit, "a\tb", ""}, {StrLit, "r", ""}, {ByteStrLit, "by", ""}, {ByteLit, "x", ""}, {CharLit, "c", ""}, {BoolLit, "true", ""}}
	for i, w := range want {
		l := tuple.Elems[i].(*LitExpr)
		if l.Kind != w.kind || l.Value != w.value || l.Suffix != w.suffix {
			t.Errorf("literal %d %s: got {%v %q %q}, want %+v", i, l.Text, l.Kind, l.Value, l.Suffix, w)
		}
	}
}

func TestMacros(t *testing.T) {
	f := parseClean(t, "let s = t.slice(s![0..10;2, ..]);\nlet m = matches!(x, Some(_) if ok);\nlet v = vec![0; 3];\nassert!(ok, \"{}\", n);")
	slice := f.Stmts[0].(*LetStmt).Init.(*MethodCallExpr).Args[0].(*MacroExpr)
	if slice.Name != "s" || len(slice.Args) != 2 || len(slice.Steps) != 2 || slice.Steps[0] == nil || slice.Steps[1] != nil || slice.Delim != "[" {
		t.Errorf("s!: %+v", slice)
	}
	matches := f.Stmts[1].(*LetStmt).Init.(*MacroExpr)
	if len(matches.Args) != 1 || matches.Arm == nil || matches.Arm.Guard == nil || matches.Arm.Body != nil {
		t.Errorf("matches!: %+v", matches)
	}
	vec := f.Stmts[2].(*LetStmt).Init.(*MacroExpr)
	if !vec.Repeat || len(vec.Args) != 2 {
		t.Errorf("vec!: %+v", vec)
	}
	assert := f.Stmts[3].(*ExprStmt).X.(*MacroExpr)
	src := "assert!(ok, \"{}\", n)"
	if assert.Name != "assert" || len(assert.Args) != 3 || assert.NameSpan.Len() != len("assert!") || assert.Range.Len() != len(src) {
		t.Errorf("assert!: %+v", assert)
	}
}

func TestInspectOrderAndPruning(t *testing.T) {
	src := "fn main() { let a = f(x, y); }\nlet b = [1, 2];"
	f := parseClean(t, src)
	var starts []int
	var paths []string
	f.Walk(func(n Node) bool {
		starts = append(starts, n.Span().Start)
		if p, ok := n.(*PathExpr); ok {
			paths = append(paths, p.Segments[0].Name)
		}
		return true
	})
	for i := 1; i < len(starts); i++ {
		if starts[i] < starts[i-1] {
			t.Fatalf("nodes out of source order: %v", starts)
		}
	}
	if strings.Join(paths, ",") != "f,x,y" {
		t.Errorf("paths in order: %v", paths)
	}
	// Returning false skips a node's children.
	count := 0
	f.Walk(func(n Node) bool {
		count++
		_, isFn := n.(*FnDecl)
		return !isFn
	})
	// file, fn (pruned), let b, pattern b, array, 1, 2
	if count != 7 {
		t.Errorf("visited %d nodes with the fn pruned, want 7", count)
	}
}

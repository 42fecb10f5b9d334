package syntax

import (
	"testing"
)

// parseExprForTest parses src as the one expression statement of a snippet.
func parseExprForTest(t *testing.T, src string) Expr {
	t.Helper()
	f, diags := Parse(src)
	for _, d := range diags {
		t.Fatalf("%q: unexpected %s at %v: %s", src, d.Code, d.Range, d.Message)
	}
	if len(f.Stmts) != 1 || len(f.Items) != 0 {
		t.Fatalf("%q: want one statement, got %d statements and %d items", src, len(f.Stmts), len(f.Items))
	}
	s, ok := f.Stmts[0].(*ExprStmt)
	if !ok {
		t.Fatalf("%q: want an expression statement, got %T", src, f.Stmts[0])
	}
	checkRanges(t, src, f)
	return s.X
}

func TestExprShapes(t *testing.T) {
	tests := []struct{ src, want string }{
		// precedence and associativity
		{"a + b * c", "(+ a (* b c))"},
		{"a * b + c", "(+ (* a b) c)"},
		{"a - b - c", "(- (- a b) c)"},
		{"a / b % c", "(% (/ a b) c)"},
		{"a << b + c", "(<< a (+ b c))"},
		{"a & b ^ c | d", "(| (^ (& a b) c) d)"},
		{"a | b ^ c & d", "(| a (^ b (& c d)))"},
		{"a == b && c != d || e", "(|| (&& (== a b) (!= c d)) e)"},
		{"a || b && c", "(|| a (&& b c))"},
		{"(a < b) == (c > d)", "(== (paren (< a b)) (paren (> c d)))"},
		{"a = b = c", "(= a (= b c))"},
		{"x += y * 2", "(+= x (* y 2))"},
		{"x <<= 1", "(<<= x 1)"},
		{"-a * b", "(* (neg a) b)"},
		{"!a && b", "(&& (not a) b)"},
		{"-x as u64", "(as (neg x) u64)"},
		{"a * b as f32", "(* a (as b f32))"},
		{"x as i64 as f64", "(as (as x i64) f64)"},
		{"*r + 1", "(+ (deref r) 1)"},
		{"&mut x", "(ref-mut x)"},
		{"&&x", "(ref (ref x))"},
		{"&&mut x", "(ref (ref-mut x))"},
		{"--x", "(neg (neg x))"},
		// ranges
		{"0..10", "(.. 0 10)"},
		{"0..=n", "(..= 0 n)"},
		{"..", "(.. _ _)"},
		{"2..", "(.. 2 _)"},
		{"..2", "(.. _ 2)"},
		{"a + 1..b * 2", "(.. (+ a 1) (* b 2))"},
		{"x = 0..n", "(= x (.. 0 n))"},
		// postfix
		{"a.b.c", "(field (field a b) c)"},
		{"t.0", "(field t 0)"},
		{"t.0.1", "(field (field t 0) 1)"},
		{"t.1.0.x", "(field (field (field t 1) 0) x)"},
		{"f(1)(2)", "(call (call f 1) 2)"},
		{"x.f()?.g().await?", "(? (await (method (? (method x f)) g)))"},
		{"x[..2]", "(index x (.. _ 2))"},
		{"x[[0..2, 1..3]]", "(index x (array (.. 0 2) (.. 1 3)))"},
		{"x.into_data().to_vec::<f32>()", "(method (method x into_data) to_vec::<f32>)"},
		{"labels.one_hot::<2>(3)", "(method labels one_hot::<2> 3)"},
		{"1.0.max(2.0)", "(method 1.0 max 2.0)"},
		{"1.max(2)", "(method 1 max 2)"},
		// paths
		{"Tensor::<2, Int>::zeros([2], &d)", "(call Tensor::<2, Int>::zeros (array 2) (ref d))"},
		{"<Dispatch as PickOps>::pick(x)", "(call <Dispatch as PickOps>::pick x)"},
		{"<Vec<u8>>::new()", "(call <Vec<u8>>::new)"},
		{"::std::mem::swap(a, b)", "(call std::mem::swap a b)"},
		{"Self::float_add(v.clone(), v)", "(call Self::float_add (method v clone) v)"},
		{"xs.iter().collect::<Vec<_>>()", "(method (method xs iter) collect::<Vec<_>>)"},
		// literals and compound expressions
		{"(1, 2.5, \"s\", 'c', true)", "(tuple 1 2.5 \"s\" 'c' true)"},
		{"(x,)", "(tuple x)"},
		{"()", "(tuple)"},
		{"[x; n]", "(array-repeat x n)"},
		{"[1, 2, 3,]", "(array 1 2 3)"},
		{"[[1.0, 2.0], [3.0, 4.0]]", "(array (array 1.0 2.0) (array 3.0 4.0))"},
		{"Channel::WebSocket { port: 3000 }", "(Channel::WebSocket {} (port: 3000))"},
		{"S { port, ..Default::default() }", "(S {} port (.. (call Default::default)))"},
		{"Point { 0: a, 1: b }", "(Point {} (0: a) (1: b))"},
		// closures
		{"|x| x + 1", "(closure (params (param x)) (+ x 1))"},
		{"|| 0", "(closure (params) 0)"},
		{"move |x: Tensor<2>| { x }", "(closure move (params (param x Tensor<2>)) (block (expr x)))"},
		{"|a, (b, c)| -> i32 { a }", "(closure (params (param a) (param (tuple b c))) (-> i32) (block (expr a)))"},
		{"|&x| x", "(closure (params (param (& x))) x)"},
		{"xs.map(|x| x * 2).sum()", "(method (method xs map (closure (params (param x)) (* x 2))) sum)"},
		// control flow as expressions
		{"if a { 1 } else if b { 2 } else { 3 }", "(if a (block (expr 1)) (if b (block (expr 2)) (block (expr 3))))"},
		{"if let Some(x) = y { x } else { 0 }", "(if-let (Some x) y (block (expr x)) (block (expr 0)))"},
		{"if x == S { 1 }", "(if (== x S) (block (expr 1)))"},
		{"match x { S { a } => a, _ => 0 }", "(match x (arm (S {} a) => a) (arm _ => 0))"},
		{"while let Some(top) = stack.pop() { n += 1 }", "(while-let (Some top) (method stack pop) (block (expr (+= n 1))))"},
		{"'outer: loop { break 'outer 5; }", "(loop 'outer (block (semi (break 'outer 5))))"},
		{"for (i, x) in xs.iter().enumerate() {}", "(for (tuple i x) (method (method xs iter) enumerate) (block))"},
		{"for i in 0.. { continue }", "(for i (.. 0 _) (block (expr (continue))))"},
		{"unsafe { f() }", "(unsafe block (expr (call f)))"},
		{"async move { x.await }", "(async move block (expr (await x)))"},
		{"return", "(return)"},
		{"break", "(break)"},
		// macros
		{"println!(\"{} {x}\", a, x = 1)", "(println! \"{} {x}\" a (= x 1))"},
		{"assert_eq!(a, b, \"msg\")", "(assert_eq! a b \"msg\")"},
		{"vec![1, 2]", "(vec! 1 2)"},
		{"vec![0.0; 3]", "(vec! repeat 0.0 3)"},
		{"vec![]", "(vec!)"},
		{"s![.., 0..9;3, 5]", "(s! (.. _ _) (step (.. 0 9) 3) 5)"},
		{"s![..;-1]", "(s! (step (.. _ _) (neg 1)))"},
		{"matches!(x, A | B(_) if ok)", "(matches! x (arm A (B _) (if ok)))"},
		{"dbg!(x)", "(dbg! x)"},
		{"std::println!(\"hi\")", "(println! \"hi\")"},
		{"burn::tensor::s![0..2]", "(s! (.. 0 2))"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			x := parseExprForTest(t, tt.src)
			if got := Dump(x, false); got != tt.want {
				t.Errorf("Dump(%q)\n got: %s\nwant: %s", tt.src, got, tt.want)
			}
		})
	}
}

func TestExprSpans(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a + b*c", "(+@0..7 a@0..1 (*@4..7 b@4..5 c@6..7))"},
		{"x.f(1, 2)", "(method@0..9 x@0..1 f 1@4..5 2@7..8)"},
		{"t.0.1", "(field@0..5 (field@0..3 t@0..1 0) 1)"},
		{"-x as u8", "(as@0..8 (neg@0..2 x@1..2) u8@6..8)"},
		{"x?", "(?@0..2 x@0..1)"},
		{"f (a)", "(call@0..5 f@0..1 a@3..4)"},
		{"(a)", "(paren@0..3 a@1..2)"},
		{"..=n", "(..=@0..4 _ n@3..4)"},
		{"S { a: 1 }", "(S {}@0..10 (a:@4..8 1@7..8))"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			x := parseExprForTest(t, tt.src)
			if got := Dump(x, true); got != tt.want {
				t.Errorf("Dump(%q, spans)\n got: %s\nwant: %s", tt.src, got, tt.want)
			}
		})
	}
}

func TestMethodCallSpans(t *testing.T) {
	src := "weights.to_device(&cuda)"
	m, ok := parseExprForTest(t, src).(*MethodCallExpr)
	if !ok {
		t.Fatalf("want a method call")
	}
	check := func(what string, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s covers %q, want %q", what, got, want)
		}
	}
	check("Range", src[m.Range.Start:m.Range.End], src)
	check("NameSpan", src[m.NameSpan.Start:m.NameSpan.End], "to_device")
	check("ParenRange", src[m.ParenRange.Start:m.ParenRange.End], "(&cuda)")
	check("Recv", src[m.Recv.Span().Start:m.Recv.Span().End], "weights")
}

func TestChainedComparisonIsAnError(t *testing.T) {
	for _, src := range []string{"a < b < c", "a < b == c"} {
		_, diags := Parse(src)
		if len(diags) != 1 || diags[0].Message != "comparison operators cannot be chained" || diags[0].Range.Start != 6 {
			t.Errorf("%q: got %+v", src, diags)
		}
	}
}

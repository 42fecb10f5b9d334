package syntax

import "testing"

func TestParseFragment(t *testing.T) {
	cases := []struct {
		kind, src string
		n         int // tokens taken; -1 for a parse error
	}{
		{"expr", "1 + 2 , x", 3},
		{"expr", "f(a, b).c => d", 8},
		{"expr", "S { a: 1 } ; y", 6},
		{"expr", ") x", -1},
		{"ty", "Vec<u8> , z", 4},
		{"ty", "&'a mut [T; 3] =>", 8},
		{"pat", "Some(x) | None => 1", 6},
		{"pat_param", "Some(x) | None", 4},
		{"path", "a::b::<C>::d x", 9},
		{"block", "{ let x = 1; x } y", 8},
		{"block", "x", -1},
		{"stmt", "let x = 1 ; y", 4},
		{"stmt", "x += 1 ;", 3},
		{"item", "fn f() {} g", 6},
		{"meta", "derive(Clone, Debug) ]", 6},
		{"meta", "path = \"x\" ]", 3},
		{"vis", "pub(crate) fn", 4},
		{"vis", "fn", 0},
	}
	for _, c := range cases {
		toks := Lex(c.src, 0)
		n, ok, diags := ParseFragment(c.kind, Tokens{Toks: toks, Text: c.src})
		if c.n < 0 {
			if !diags.HasErrors() {
				t.Errorf("%s %q: no error, took %d tokens", c.kind, c.src, n)
			}
			continue
		}
		if diags.HasErrors() || !ok {
			t.Errorf("%s %q: %v (ok %v)", c.kind, c.src, diags, ok)
			continue
		}
		if n != c.n {
			t.Errorf("%s %q: took %d tokens, want %d", c.kind, c.src, n, c.n)
		}
	}
}

func TestParseTokensRanges(t *testing.T) {
	// Tokens of a generated region at base 100: the tree's ranges and a
	// type's text come from that region.
	text := "let v: Vec<u8> = vec![1, 2];"
	stmts, diags := ParseStmts(Tokens{Toks: Lex(text, 100), Text: text, Base: 100})
	if diags.HasErrors() || len(stmts) != 1 {
		t.Fatalf("stmts %v, diags %v", stmts, diags)
	}
	let := stmts[0].(*LetStmt)
	if let.Range.Start != 100 || let.Range.End != 100+len(text) {
		t.Errorf("let range %v", let.Range)
	}
	if let.Type.Text != "Vec<u8>" {
		t.Errorf("type text %q", let.Type.Text)
	}
	x, rest, _ := ParseExpr(Tokens{Toks: Lex("a b", 0), Text: "a b"})
	if p, ok := x.(*PathExpr); !ok || p.Segments[0].Name != "a" || rest.Text != "b" {
		t.Errorf("ParseExpr(a b) = %v, rest %v", Dump(x, false), rest)
	}
}

func TestInvisibleGroupKeepsPrecedence(t *testing.T) {
	// `$e * 2` with $e = `1 + 1`: the fragment is one operand.
	inner := Lex("1 + 1", 0)
	toks := append([]Token{{Kind: OpenInvisible}}, inner...)
	toks = append(toks, Token{Kind: CloseInvisible})
	toks = append(toks, Lex(" * 2", 5)...)
	x, _, diags := ParseExpr(Tokens{Toks: toks, Text: "1 + 1 * 2"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := Dump(x, false); got != "(* (+ 1 1) 2)" {
		t.Errorf("got %s", got)
	}
}

func TestTokensText(t *testing.T) {
	cases := map[string]string{
		"a + b":                   "a + b",
		"a+b":                     "a+b",
		"foo ( x , y )":           "foo(x, y)",
		"x . y":                   "x.y",
		"# [ test ] fn f ( ) { }": "#[test] fn f() {}",
		"vec ! [ 1 ]":             "vec! [1]",
		"if ! x { y }":            "if ! x { y }",
		"Vec<i32>":                "Vec<i32>",
	}
	for src, want := range cases {
		if got := TokensText(Lex(src, 0)); got != want {
			t.Errorf("TokensText(%q) = %q, want %q", src, got, want)
		}
	}
}

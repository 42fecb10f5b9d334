package source

import "testing"

func TestGeneratedResolve(t *testing.T) {
	text := "m!(a + b);\nfn main() {}\n"
	f := NewFile("main.rs", text)
	call := Range{Start: 0, End: 9}
	// The expansion `{ let x = a + b ; x }`: `a + b` was copied from the
	// invocation's arguments, the rest is the macro's own text.
	gen := "{ let x = a + b ; x }"
	g := f.Generate(gen, call, []Piece{{Start: 10, End: 15, Origin: Range{Start: 3, End: 8}}})
	g.Macro = "m"
	if g.Base <= len(text) {
		t.Fatalf("region base %d inside the text (len %d)", g.Base, len(text))
	}
	at := func(s, e int) Range { return Range{Start: g.Base + s, End: g.Base + e} }
	cases := []struct {
		name string
		r    Range
		want Range
	}{
		{"text itself", Range{Start: 11, End: 13}, Range{Start: 11, End: 13}},
		{"copied argument", at(10, 15), Range{Start: 3, End: 8}},
		{"part of an argument", at(14, 15), Range{Start: 7, End: 8}},
		{"macro's own tokens", at(2, 5), call},
		{"spanning both", at(6, 15), call},
		{"empty range in an argument", at(10, 10), Range{Start: 3, End: 3}},
	}
	for _, c := range cases {
		if got := f.Resolve(c.r); got != c.want {
			t.Errorf("%s: Resolve(%v) = %v, want %v", c.name, c.r, got, c.want)
		}
	}
	if got := f.Slice(at(10, 15)); got != "a + b" {
		t.Errorf("Slice of generated text = %q", got)
	}
	if got := f.Slice(Range{Start: 3, End: 8}); got != "a + b" {
		t.Errorf("Slice of the text = %q", got)
	}
	if p := f.Position(g.Base + 3); p.Line != 1 || p.Column != 1 {
		t.Errorf("Position in the macro's own text = %+v, want the call site 1:1", p)
	}
	if s := f.Span(at(10, 15)); s.Start.Column != 4 || s.End.Column != 9 {
		t.Errorf("Span of a copied argument = %+v, want columns 4..9", s)
	}

	// A second expansion, produced inside the first: its call site is in
	// generated text and resolves in two steps.
	g2 := f.Generate("a + b", at(10, 15), []Piece{{Start: 0, End: 5, Origin: at(10, 15)}})
	if g2.Base <= g.Base+len(gen) {
		t.Fatalf("regions overlap: %d after %d+%d", g2.Base, g.Base, len(gen))
	}
	if got := f.Resolve(Range{Start: g2.Base, End: g2.Base + 1}); got != (Range{Start: 3, End: 4}) {
		t.Errorf("nested resolve = %v, want 3..4", got)
	}
	if m := f.Macro(at(2, 5)); m != "m" {
		t.Errorf("Macro of the macro's own text = %q", m)
	}
	if m := f.Macro(at(10, 15)); m != "" {
		t.Errorf("Macro of a copied argument = %q", m)
	}
	if f.IsGenerated(Range{Start: 0, End: 5}) || !f.IsGenerated(at(0, 1)) {
		t.Errorf("IsGenerated mixes up the text and generated regions")
	}
}

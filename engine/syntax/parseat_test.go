package syntax

import "testing"

func TestParseAtGivesCrateOffsets(t *testing.T) {
	src := "fn f() { let x = 1; }\nmod m;\n"
	f, diags := ParseAt(src, 1000)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	fn := f.Items[0].(*FnDecl)
	if fn.Range.Start != 1000 || fn.NameSpan.Start != 1003 {
		t.Errorf("fn at %d, name at %d; want 1000 and 1003", fn.Range.Start, fn.NameSpan.Start)
	}
	if m := f.Items[1].(*ModDecl); m.Range.Start != 1000+22 || m.Inline {
		t.Errorf("mod at %d inline %v", m.Range.Start, m.Inline)
	}
	_, diags = ParseAt("fn g( {", 500)
	if len(diags) == 0 || diags[0].Range.Start < 500 {
		t.Errorf("diagnostics %v: want offsets past 500", diags)
	}
}

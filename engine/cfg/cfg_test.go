package cfg

import (
	"testing"

	"github.com/dispatch-playground/playground/engine/syntax"
)

// tokens lexes a predicate as it stands inside `cfg(..)`.
func tokens(t *testing.T, pred string) []syntax.Token {
	t.Helper()
	src := "#[cfg(" + pred + ")] fn f() {}"
	f, diags := syntax.Parse(src)
	if diags.HasErrors() || len(f.Items) != 1 {
		t.Fatalf("parse %q: %v", src, diags)
	}
	return f.Items[0].(*syntax.FnDecl).Attrs[0].Args
}

func TestHolds(t *testing.T) {
	host := New([]string{"default", "cuda"}, false, "")
	wasm := New(nil, true, "wasm32-unknown-unknown")
	cases := []struct {
		b    Build
		pred string
		want bool
	}{
		{host, `feature = "cuda"`, true},
		{host, `feature = "wgpu"`, false},
		{host, `test`, false},
		{wasm, `test`, true},
		{host, `debug_assertions`, true},
		{host, `unix`, true},
		{host, `windows`, false},
		{host, `target_os = "linux"`, true},
		{host, `target_family = "wasm"`, false},
		{wasm, `target_family = "wasm"`, true},
		{wasm, `unix`, false},
		{host, `target_arch = "x86_64"`, true},
		{host, `target_pointer_width = "64"`, true},
		{host, `all(unix, feature = "cuda")`, true},
		{host, `all(unix, feature = "wgpu")`, false},
		{host, `any(windows, feature = "cuda")`, true},
		{host, `not(test)`, true},
		{host, `not(any(test, feature = "cuda"))`, false},
		{host, `miri`, false},
		{host, `doc`, false},
		{host, `panic = "unwind"`, true},
	}
	for _, c := range cases {
		if got := c.b.Holds(tokens(t, c.pred)); got != c.want {
			t.Errorf("cfg(%s) = %v, want %v", c.pred, got, c.want)
		}
	}
}

func TestCompiledAndOffEverywhere(t *testing.T) {
	f, _ := syntax.Parse("#[cfg(test)] fn a() {}\n#[cfg(feature = \"x\")] fn b() {}\n#[inline] fn c() {}")
	attrs := func(i int) []*syntax.Attr { return f.Items[i].(*syntax.FnDecl).Attrs }
	run := New(nil, false, "")
	if run.Compiled(attrs(0)) || !run.Test(true).Compiled(attrs(0)) {
		t.Error("cfg(test) must hold in the test build only")
	}
	if run.OffEverywhere(attrs(0)) || !run.OffEverywhere(attrs(1)) {
		t.Error("cfg(test) is on in some build; feature x in none")
	}
	if !run.Compiled(attrs(2)) {
		t.Error("an attribute that is not cfg gates nothing")
	}
}

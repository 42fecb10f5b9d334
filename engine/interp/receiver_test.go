package interp

import "testing"

// TestReceiverText: an expression a fix calls a method on keeps its text
// when a method call binds to all of it, and is parenthesized otherwise.
func TestReceiverText(t *testing.T) {
	for src, want := range map[string]string{
		"b":                                  "b",
		"x.clone()":                          "x.clone()",
		"self.layers[0].w":                   "self.layers[0].w",
		"model.forward(x, y)":                "model.forward(x, y)",
		"a + b":                              "(a + b)",
		"&x":                                 "(&x)",
		"-y":                                 "(-y)",
		"x.matmul(w) * 2.0":                  "(x.matmul(w) * 2.0)",
		"Tensor::<2>::ones([2, 3], &device)": "(Tensor::<2>::ones([2, 3], &device))",
	} {
		if got := receiverText(src); got != want {
			t.Errorf("receiverText(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestTitleText: a fix's title names an input on one line, cut when long.
func TestTitleText(t *testing.T) {
	if got := titleText("a\n    .clone()"); got != "a .clone()" {
		t.Errorf("titleText = %q", got)
	}
	long := "Tensor::<2>::ones([2, 3], &Device::wgpu(Default::default()))"
	if got := titleText(long); got != long[:39]+"…" {
		t.Errorf("titleText = %q", got)
	}
}

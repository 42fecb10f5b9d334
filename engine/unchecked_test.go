package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// big is a tensor past the value budget (4 million elements): the engine
// knows its shape, not its values, so whatever is read from it is unknown
// for a cause other than an error.
const big = "let big = Tensor::<2>::ones([2000, 2000], &device);\n"

// uncheckedAt is one playground-unchecked warning a case expects: the
// source text its span covers and a fragment of its message.
type uncheckedAt struct {
	text, message string
}

func TestUncheckedWarnings(t *testing.T) {
	cases := []struct {
		name  string
		entry string
		body  string // the statements of main, after `let device`
		items string // items beside main
		want  []uncheckedAt
		// status is the Result's status; complete is derived from want.
		status string
	}{
		{
			name: "assert_eq! of an unknown scalar",
			body: big + "let s: f32 = big.sum().into_scalar();\nassert_eq!(s, 123.0);\n",
			want: []uncheckedAt{{"assert_eq!(s, 123.0)", "`assert_eq!` was not checked: the playground does not know the value of `s`"}},
		},
		{
			name: "assert_ne! with the unknown on the right",
			body: big + "let s: f32 = big.sum().into_scalar();\nassert_ne!(0.0, s);\n",
			want: []uncheckedAt{{"assert_ne!(0.0, s)", "the value of `s`"}},
		},
		{
			name: "debug_assert! of an unknown condition",
			body: big + "let s: f32 = big.sum().into_scalar();\ndebug_assert!(s > 0.0);\n",
			want: []uncheckedAt{{"debug_assert!(s > 0.0)", "`debug_assert!` was not checked: the playground does not know the value of `s > 0.0`"}},
		},
		{
			name: "TensorData::assert_eq on values that are not computed",
			body: big + "big.clone().into_data().assert_eq(&big.into_data(), true);\n",
			want: []uncheckedAt{{"big.clone().into_data().assert_eq(&big.into_data(), true)", "`assert_eq` was not checked: the playground does not know the values of `big.clone().into_data()` and `&big.into_data()`"}},
		},
		{
			name: "assert_approx_eq against known values",
			body: big + "let s = big.sum();\ns.into_data().assert_approx_eq::<f32>(&TensorData::from([4.0e6]), Tolerance::default());\n",
			want: []uncheckedAt{{"s.into_data().assert_approx_eq::<f32>(&TensorData::from([4.0e6]), Tolerance::default())", "the values of `s.into_data()`"}},
		},
		{
			name: "a TensorData comparison as the condition of assert!",
			body: big + "assert!(big.clone().into_data() == big.into_data());\n",
			want: []uncheckedAt{{"assert!(big.clone().into_data() == big.into_data())", "`assert!` was not checked"}},
		},
		{
			name: "a branch on an unknown value",
			body: big + "let s: f32 = big.sum().into_scalar();\nif s > 1.0 {\n    println!(\"big\");\n}\n",
			want: []uncheckedAt{{"s > 1.0", "this `if` was not checked: the playground does not know the value of `s > 1.0`"}},
		},
		{
			name: "a print of an unknown value",
			body: big + "let s: f32 = big.sum().into_scalar();\nprintln!(\"sum = {}\", s);\nprintln!(\"sum = {s}\");\n",
			want: []uncheckedAt{
				{"println!(\"sum = {}\", s)", "`println!` was not checked: the playground does not know the value of `s`"},
				{"println!(\"sum = {s}\")", "the value of `s`"},
			},
		},
		{
			name: "a loop over values from outside runs once, and a panic in it is a guess",
			body: "for entry in std::fs::read_dir(\".\").unwrap() {\n    let a = Tensor::<2>::ones([2, 3], &device);\n    let _c = a.clone().matmul(a);\n}\n",
			want: []uncheckedAt{
				{"std::fs::read_dir(\".\").unwrap()", "this `for` loop was not checked: the playground does not know the value of `std::fs::read_dir(\".\").unwrap()`"},
				{"a.clone().matmul(a)", "this panic was not checked"},
			},
		},
		{
			name: "a print of a tensor whose values are not computed",
			body: big + "let s = big.sum();\nprintln!(\"{}\", s);\nprintln!(\"{:?}\", s);\n",
			want: []uncheckedAt{{"println!(\"{}\", s)", "`println!` was not checked: the playground does not know the values of `s`"}},
		},
		{
			name: "one warning for an assertion in a loop",
			body: big + "let s: f32 = big.sum().into_scalar();\nfor _ in 0..3 {\n    assert_eq!(s, 1.0);\n}\n",
			want: []uncheckedAt{{"assert_eq!(s, 1.0)", "the value of `s`"}},
		},
		{
			name:  "a test's assertion",
			entry: engine.EntryTests,
			items: "#[test]\nfn sums() {\n    let device = Default::default();\n    " + big +
				"    let s: f32 = big.sum().into_scalar();\n    assert_eq!(s, 5.0);\n}\n",
			want: []uncheckedAt{{"assert_eq!(s, 5.0)", "the value of `s`"}},
		},
		{
			name:  "a test after one that failed",
			entry: engine.EntryTests,
			items: "#[test]\nfn a_fails() {\n    assert_eq!(1, 2);\n}\n#[test]\nfn b_sums() {\n    let device = Default::default();\n    " + big +
				"    let s: f32 = big.sum().into_scalar();\n    assert_eq!(s, 5.0);\n}\n",
			want:   []uncheckedAt{{"assert_eq!(s, 5.0)", "the value of `s`"}},
			status: engine.StatusPanicked,
		},

		// What must not warn.
		{
			name: "known values are checked",
			body: "let t = Tensor::<1>::from_data([1.0, 2.0], &device);\nlet s: f32 = t.clone().sum().into_scalar();\nassert_eq!(s, 3.0);\n" +
				"t.clone().into_data().assert_eq(&TensorData::from([1.0f32, 2.0]), true);\n" +
				"t.into_data().assert_approx_eq::<f32>(&TensorData::from([1.0, 2.0]), Tolerance::default());\nif s > 1.0 { println!(\"{s}\"); }\n",
		},
		{
			name:  "a function nobody calls",
			body:  "let t = Tensor::<1>::from_data([1.0, 2.0], &device);\nprintln!(\"{:?}\", t.dims());\n",
			items: "fn never(x: f32, t: Tensor<1>) {\n    assert_eq!(x, 1.0);\n    t.into_data().assert_eq(&TensorData::from([1.0]), true);\n    if x > 0.0 { println!(\"{x}\"); }\n}\n",
		},
		{
			name:   "a value that is unknown because a Burn panic was reported",
			body:   "let a = Tensor::<2>::ones([2, 3], &device);\nlet b = Tensor::<2>::ones([2, 3], &device);\nlet c: f32 = a.matmul(b).sum().into_scalar();\nassert_eq!(c, 1.0);\n",
			status: engine.StatusPanicked,
		},
		{
			name:   "a value that is unknown because of a compile error",
			body:   "let a = Tensor::<1>::ones([2], &device);\nlet c = a.no_such_method();\nassert_eq!(c, 1.0);\nprintln!(\"{c}\");\n",
			status: engine.StatusRejected,
		},
		{
			name:  "a test nobody runs and an ignored test",
			entry: engine.EntryTests,
			items: "fn helper(x: f32) {\n    assert_eq!(x, 2.0);\n}\n#[test]\n#[ignore]\nfn slow() {\n    let device = Default::default();\n    " + big +
				"    let s: f32 = big.sum().into_scalar();\n    assert_eq!(s, 5.0);\n}\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "use burn::tensor::{Tensor, TensorData, Tolerance};\n\n" + tc.items
			if tc.body != "" {
				src += "fn main() {\n    let device = Default::default();\n    " +
					strings.ReplaceAll(strings.TrimSuffix(tc.body, "\n"), "\n", "\n    ") + "\n}\n"
			}
			res := run(t, engine.Request{Snippet: src, Entry: tc.entry})
			checkPromises(t, res)
			want := tc.status
			if want == "" {
				want = engine.StatusOK
			}
			if res.Status != want {
				t.Fatalf("status %s, want %s:\n%s", res.Status, want, Summary(res))
			}
			if res.Complete != (len(tc.want) == 0) {
				t.Errorf("complete = %v, want %v", res.Complete, len(tc.want) == 0)
			}
			var got []engine.Diagnostic
			for _, d := range res.Diagnostics {
				if d.Code == engine.CodeUnchecked {
					got = append(got, d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d playground-unchecked warnings, want %d:\n%s", len(got), len(tc.want), Summary(res))
			}
			for i, w := range tc.want {
				d := got[i]
				if text := src[d.Span.Start.Offset:d.Span.End.Offset]; text != w.text {
					t.Errorf("warning %d is at %q, want %q", i, text, w.text)
				}
				if !strings.Contains(d.Message, w.message) {
					t.Errorf("warning %d says %q, want it to contain %q", i, d.Message, w.message)
				}
				if d.Severity != "warning" || d.Phase != "run" || string(d.Record) == "null" {
					t.Errorf("warning %d: severity %s, phase %s, record %s", i, d.Severity, d.Phase, d.Record)
				}
			}
		})
	}
}

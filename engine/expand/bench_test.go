package expand

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// BenchmarkExpandTests expands a file shaped like Burn's
// clone_invariance.rs: one macro_rules! that generates a #[test] with a
// struct and an impl, called a hundred times.
func BenchmarkExpandTests(b *testing.B) {
	var src strings.Builder
	src.WriteString(`macro_rules! invariance {
    (unary: $name:ident, ops: $ops:expr) => {
        #[test]
        fn $name() {
            struct $name;
            impl Check for $name {
                fn run(&self, args: &Data, inplace: bool) -> Data {
                    let lhs = TestTensor::from_data(args.clone(), &Default::default());
                    if inplace {
                        $ops(lhs).into_data().convert::<f32>()
                    } else {
                        let out = $ops(lhs.clone()).into_data().convert::<f32>();
                        lhs.into_data().assert_approx_eq::<f32>(args, Tolerance::default());
                        out
                    }
                }
            }
            Check::check(&$name);
        }
    };
}
`)
	for i := range 100 {
		fmt.Fprintf(&src, "invariance!(unary: Op%d, ops: |t: TestTensor<2>| t.add_scalar(%d.0));\n", i, i)
	}
	text := src.String()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		f, _ := syntax.Parse(text)
		b.StartTimer()
		if d := Expand(f, source.NewFile(diag.MainRS, text), Options{}); len(d) > 0 {
			b.Fatal(d)
		}
	}
}

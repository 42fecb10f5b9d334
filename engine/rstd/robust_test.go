package rstd

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// TestMethodsNeverPanic calls every method name std knows on a value of
// every kind, with no arguments, one and two of assorted kinds: a wrong
// call is not handled or is a std panic, never a Go panic.
func TestMethodsNeverPanic(t *testing.T) {
	names := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	quoted := regexp.MustCompile(`"([a-z_0-9]+)"`)
	for _, f := range files {
		src, _ := os.ReadFile(f)
		for _, m := range quoted.FindAllStringSubmatch(string(src), -1) {
			names[m[1]] = true
		}
	}
	lo, hi := int64(1), int64(4)
	recvs := func() []Value {
		m := NewMap("HashMap")
		m.Insert(dispatch.Str("k"), i32(1))
		s := NewSet("BTreeSet")
		s.Insert(i32(1))
		return []Value{
			i32(3), typed(-1, "u64"), typed(7, "i128"), dispatch.Float{V: 2.5, Suffix: "f32"}, dispatch.Float{V: math.NaN()},
			dispatch.Bool(true), Char('x'), dispatch.Str("a b"), dispatch.Str(""),
			&dispatch.Array{Elems: []Value{i32(2), i32(1)}, Vec: true}, &dispatch.Array{},
			dispatch.Tuple{i32(1), i32(2)}, &dispatch.Range{Lo: &lo, Hi: &hi}, m, s,
			some(i32(1)), none(), ok(i32(1)), errv(dispatch.Str("e")), NewCell("RefCell", i32(1)),
			&dispatch.Enum{Type: "Ordering", Variant: "Less"}, CharRange{R: &dispatch.Range{Lo: &lo, Hi: &hi}},
		}
	}
	args := [][]Value{nil, {i32(0)}, {dispatch.Str("a")}, {i32(-1), i32(2)}, {&dispatch.Array{}}, {dispatch.Unknown{}},
		{goFn(func([]Value) Value { return dispatch.Bool(true) })},
		{i32(0), goFn(func(a []Value) Value { return a[0] })}}
	for name := range names {
		for _, as := range args {
			for _, recv := range recvs() {
				c := &testCaller{limit: 1000}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s.%s(%d args): Go panic %v", Debug(recv), name, len(as), r)
						}
					}()
					v, handled, err := Method(c, Call{Recv: recv, Name: name, Args: as})
					if handled && err == nil && v != nil {
						Debug(v)
						DisplayOK(v)
					}
				}()
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("Function %s(%d args): Go panic %v", name, len(as), r)
					}
				}()
				for _, typ := range []string{"Vec", "HashMap", "String", "char", "i32", "f64", "cmp", "Option", "RefCell", "Box"} {
					Function(&testCaller{limit: 1000}, []string{typ, name}, as)
				}
			}()
		}
	}
}

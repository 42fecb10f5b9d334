package rstd

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

func TestVecMethods(t *testing.T) {
	c := &testCaller{}
	vec := func(xs ...int64) *dispatch.Array {
		a := &dispatch.Array{Vec: true}
		for _, x := range xs {
			a.Elems = append(a.Elems, i32(x))
		}
		return a
	}
	neg := goFn(func(a []Value) Value { v, _ := Neg(a[0]); return v })
	desc := goFn(func(a []Value) Value { o, _ := Compare(a[1], a[0]); return ordering(o) })
	odd := goFn(func(a []Value) Value { return dispatch.Bool(a[0].(dispatch.Int).V%2 != 0) })
	cases := []struct {
		recv   *dispatch.Array
		name   string
		args   []Value
		result string // Debug of the result, or the panic
		after  string // Debug of the vector after
	}{
		{vec(1, 2), "push", []Value{i32(3)}, "()", "[1, 2, 3]"},
		{vec(1, 2), "pop", nil, "Some(2)", "[1]"},
		{vec(), "pop", nil, "None", "[]"},
		{vec(1, 3), "insert", []Value{i32(1), i32(2)}, "()", "[1, 2, 3]"},
		{vec(1, 3), "insert", []Value{i32(5), i32(2)}, "insertion index (is 5) should be <= len (is 2)", "[1, 3]"},
		{vec(1, 2, 3), "remove", []Value{i32(0)}, "1", "[2, 3]"},
		{vec(1, 2, 3), "swap_remove", []Value{i32(0)}, "1", "[3, 2]"},
		{vec(1, 2, 3), "truncate", []Value{i32(1)}, "()", "[1]"},
		{vec(1, 2, 3), "clear", nil, "()", "[]"},
		{vec(1), "extend", []Value{vec(2, 3)}, "()", "[1, 2, 3]"},
		{vec(3, 1, 2), "sort", nil, "()", "[1, 2, 3]"},
		{vec(3, 1, 2), "sort_by", []Value{desc}, "()", "[3, 2, 1]"},
		{vec(3, 1, 2), "sort_by_key", []Value{neg}, "()", "[3, 2, 1]"},
		{vec(1, 1, 2, 2, 1), "dedup", nil, "()", "[1, 2, 1]"},
		{vec(1, 2, 3), "reverse", nil, "()", "[3, 2, 1]"},
		{vec(1, 2, 3, 4), "retain", []Value{odd}, "()", "[1, 3]"},
		{vec(1, 2, 3), "swap", []Value{i32(0), i32(2)}, "()", "[3, 2, 1]"},
		{vec(1, 2, 3), "swap", []Value{i32(0), i32(7)}, "index out of bounds: the len is 3 but the index is 7", "[1, 2, 3]"},
		{vec(1, 2, 3), "split_at", []Value{i32(1)}, "([1], [2, 3])", "[1, 2, 3]"},
		{vec(1, 2, 3), "contains", []Value{i32(2)}, "true", "[1, 2, 3]"},
		{vec(1, 2, 3), "get", []Value{i32(3)}, "None", "[1, 2, 3]"},
		{vec(1, 2, 3), "first", nil, "Some(1)", "[1, 2, 3]"},
		{vec(1, 2, 3), "last", nil, "Some(3)", "[1, 2, 3]"},
		{vec(1, 2, 3), "to_vec", nil, "[1, 2, 3]", "[1, 2, 3]"},
		{vec(1, 2, 3), "join", []Value{dispatch.Str("-")}, `"1-2-3"`, "[1, 2, 3]"},
		{vec(1, 2, 3), "windows", []Value{i32(0)}, "window size must be non-zero", "[1, 2, 3]"},
		{vec(1, 3, 5), "binary_search", []Value{i32(3)}, "Ok(1)", "[1, 3, 5]"},
		{vec(1, 3, 5), "binary_search", []Value{i32(4)}, "Err(2)", "[1, 3, 5]"},
	}
	for _, tc := range cases {
		v, handled, err := Method(c, Call{Recv: tc.recv, Name: tc.name, Args: tc.args})
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case handled:
			got = Debug(v)
		}
		if got != tc.result || Debug(tc.recv) != tc.after {
			t.Errorf("%s%v = %q, leaving %s; want %q, leaving %s", tc.name, tc.args, got, Debug(tc.recv), tc.result, tc.after)
		}
	}
	d := vec(1, 2, 3, 4)
	lo, hi := int64(1), int64(3)
	it := method(t, c, d, "drain", &dispatch.Range{Lo: &lo, Hi: &hi})
	if got := Debug(method(t, c, it, "collect")); got != "[2, 3]" || Debug(d) != "[1, 4]" {
		t.Errorf("drain(1..3) = %s, leaving %s", got, Debug(d))
	}
}

func TestMaps(t *testing.T) {
	c := &testCaller{}
	m := NewMap("HashMap")
	for _, k := range []string{"b", "a", "c"} {
		method(t, c, m, "insert", dispatch.Str(k), i32(int64(k[0])))
	}
	if got := Debug(method(t, c, m, "insert", dispatch.Str("a"), i32(0))); got != "Some(97)" {
		t.Errorf("insert over a key returns the old value: %s", got)
	}
	if got := Debug(m); got != `{"b": 98, "a": 0, "c": 99}` {
		t.Errorf("a HashMap iterates in insertion order: %s", got)
	}
	if got := Debug(method(t, c, m, "remove", dispatch.Str("b"))); got != "Some(98)" || Debug(m) != `{"a": 0, "c": 99}` {
		t.Errorf("remove: %s, leaving %s", got, Debug(m))
	}
	slot := method(t, c, method(t, c, m, "entry", dispatch.Str("z")), "or_insert", i32(1))
	slot.(*dispatch.Ref).V = i32(7) // `*e += ..` writes through the slot
	if got := Debug(method(t, c, m, "get", dispatch.Str("z"))); got != "Some(7)" {
		t.Errorf("a write through or_insert's &mut reaches the map: %s", got)
	}
	b := NewMap("BTreeMap")
	for _, k := range []int64{5, 1, 3} {
		b.Insert(i32(k), dispatch.Bool(true))
	}
	if got := Debug(method(t, c, method(t, c, b, "keys"), "collect")); got != "[1, 3, 5]" {
		t.Errorf("a BTreeMap iterates sorted: %s", got)
	}
	s := NewSet("HashSet")
	for _, k := range []int64{2, 1, 2} {
		s.Insert(i32(k))
	}
	o := NewSet("HashSet")
	o.Insert(i32(1))
	o.Insert(i32(9))
	if got := Debug(method(t, c, method(t, c, s, "intersection", o), "collect")); got != "[1]" || len(s.Elems) != 2 {
		t.Errorf("set: %s, %s", got, Debug(s))
	}
}

// TestNoInterpImport holds doc.go's rule: std is a library the evaluator
// calls, never the other way round.
func TestNoInterpImport(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if strings.Contains(imp.Path.Value, "engine/interp") {
				t.Errorf("%s imports %s", f, imp.Path.Value)
			}
		}
	}
}

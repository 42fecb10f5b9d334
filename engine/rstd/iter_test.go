package rstd

import (
	"errors"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

func collectVec(t *testing.T, c Caller, v Value) string {
	t.Helper()
	out := method(t, c, v, "collect")
	return Debug(out)
}

func TestIteratorsAreLazy(t *testing.T) {
	c := &testCaller{}
	var seen []int64
	square := goFn(func(args []Value) Value {
		n := args[0].(dispatch.Int).V
		seen = append(seen, n)
		return dispatch.Int{V: n * n}
	})
	lo := int64(0)
	from := &dispatch.Range{Lo: &lo} // 0..
	it := method(t, c, from, "map", square)
	if len(seen) != 0 {
		t.Fatalf("map ran before anything pulled: %v", seen)
	}
	taken := method(t, c, it, "take", i32(3))
	if got := collectVec(t, c, taken); got != "[0, 1, 4]" {
		t.Errorf("(0..).map(sq).take(3) = %s", got)
	}
	if len(seen) != 3 {
		t.Errorf("map ran %d times for 3 elements taken: %v", len(seen), seen)
	}
	if c.steps != 3 {
		t.Errorf("3 pulled elements cost %d steps, want 3", c.steps)
	}
}

func TestIteratorStepBudget(t *testing.T) {
	c := &testCaller{limit: 100}
	lo := int64(0)
	it := method(t, c, &dispatch.Range{Lo: &lo}, "map", goFn(func(a []Value) Value { return a[0] }))
	_, _, err := Method(c, Call{Recv: it, Name: "count"})
	if !errors.Is(err, errBudget) {
		t.Fatalf("counting an endless iterator: %v, want the budget's error", err)
	}
}

func TestIteratorAdapters(t *testing.T) {
	c := &testCaller{}
	rng := func(lo, hi int64, incl bool) Value { return &dispatch.Range{Lo: &lo, Hi: &hi, Inclusive: incl} }
	vec := func(xs ...int64) Value {
		a := &dispatch.Array{Vec: true}
		for _, x := range xs {
			a.Elems = append(a.Elems, i32(x))
		}
		return a
	}
	even := goFn(func(a []Value) Value { return dispatch.Bool(a[0].(dispatch.Int).V%2 == 0) })
	half := goFn(func(a []Value) Value {
		n := a[0].(dispatch.Int).V
		if n%2 == 0 {
			return some(i32(n / 2))
		}
		return none()
	})
	add := goFn(func(a []Value) Value { v, _, _ := Binary("+", a[0], a[1]); return v })
	neg := goFn(func(a []Value) Value { v, _ := Neg(a[0]); return v })
	chain := func(recv Value, steps ...any) Value {
		v := recv
		for i := 0; i < len(steps); {
			name := steps[i].(string)
			i++
			var args []Value
			for i < len(steps) {
				a, isVal := steps[i].(Value)
				if !isVal {
					break
				}
				args = append(args, a)
				i++
			}
			v = method(t, c, v, name, args...)
		}
		return v
	}
	cases := []struct {
		got  Value
		want string
	}{
		{chain(rng(0, 10, false), "filter", even, "collect"), "[0, 2, 4, 6, 8]"},
		{chain(rng(0, 10, false), "filter_map", half, "collect"), "[0, 1, 2, 3, 4]"},
		{chain(rng(1, 4, true), "rev", "collect"), "[4, 3, 2, 1]"},
		{chain(rng(0, 3, false), "map", neg, "rev", "collect"), "[-2, -1, 0]"},
		{chain(vec(5, 6), "iter", "enumerate", "collect"), "[(0, 5), (1, 6)]"},
		{chain(rng(0, 3, false), "zip", vec(7, 8, 9, 10), "collect"), "[(0, 7), (1, 8), (2, 9)]"},
		{chain(rng(0, 2, false), "chain", rng(5, 7, false), "collect"), "[0, 1, 5, 6]"},
		{chain(rng(0, 10, false), "step_by", i32(3), "collect"), "[0, 3, 6, 9]"},
		{chain(rng(0, 10, false), "skip", i32(7), "collect"), "[7, 8, 9]"},
		{chain(rng(1, 5, false), "fold", i32(0), add), "10"},
		{chain(rng(1, 5, false), "sum"), "10"},
		{chain(rng(1, 6, false), "product"), "120"},
		{chain(vec(), "iter", "sum"), "0"},
		{chain(vec(3, 9, 2), "iter", "max"), "Some(9)"},
		{chain(vec(3, 9, 2), "iter", "min"), "Some(2)"},
		{chain(vec(3, 9, 2), "iter", "min_by_key", neg), "Some(9)"},
		{chain(vec(), "iter", "max"), "None"},
		{chain(rng(0, 5, false), "nth", i32(2)), "Some(2)"},
		{chain(rng(0, 5, false), "last"), "Some(4)"},
		{chain(rng(0, 5, false), "count"), "5"},
		{chain(rng(0, 5, false), "position", goFn(func(a []Value) Value { return dispatch.Bool(a[0].(dispatch.Int).V == 3) })), "Some(3)"},
		{chain(rng(0, 5, false), "any", even), "true"},
		{chain(vec(2, 4), "iter", "all", even), "true"},
		{chain(vec(1, 2, 3), "iter", "find", even), "Some(2)"},
		{chain(vec(1, 2, 3), "iter", "find_map", half), "Some(1)"},
		{chain(rng(0, 6, false), "partition", even), "([0, 2, 4], [1, 3, 5])"},
		{chain(vec(1, 1, 2, 1), "iter", "collect"), "[1, 1, 2, 1]"},
	}
	for i, tc := range cases {
		if got := Debug(tc.got); got != tc.want {
			t.Errorf("case %d: %s, want %s", i, got, tc.want)
		}
	}
	pairs := &dispatch.Array{Elems: []Value{dispatch.Tuple{dispatch.Str("b"), i32(2)}, dispatch.Tuple{dispatch.Str("a"), i32(1)}}}
	for _, tc := range []struct{ target, want string }{
		{"HashMap<_, _>", `{"b": 2, "a": 1}`},
		{"BTreeMap<&str, i32>", `{"a": 1, "b": 2}`},
		{"std::collections::HashSet<_>", `{("b", 2), ("a", 1)}`},
		{"Vec<_>", `[("b", 2), ("a", 1)]`},
	} {
		v, _, err := Method(c, Call{Recv: method(t, c, pairs, "iter"), Name: "collect", Generics: []string{tc.target}})
		if err != nil || Debug(v) != tc.want {
			t.Errorf("collect::<%s>() = %s (%v), want %s", tc.target, Debug(v), err, tc.want)
		}
	}
	results := &dispatch.Array{Elems: []Value{ok(i32(1)), errv(dispatch.Str("e1")), errv(dispatch.Str("e2"))}}
	v, _, _ := Method(c, Call{Recv: method(t, c, results, "iter"), Name: "collect", Expect: "Result<Vec<i32>, String>"})
	if Debug(v) != `Err("e1")` {
		t.Errorf("collect into Result stops at the first Err: %s", Debug(v))
	}
	opts := &dispatch.Array{Elems: []Value{some(i32(1)), some(i32(2))}}
	v, _, _ = Method(c, Call{Recv: method(t, c, opts, "iter"), Name: "collect", Generics: []string{"Option<Vec<_>>"}})
	if Debug(v) != `Some([1, 2])` {
		t.Errorf("collect into Option: %s", Debug(v))
	}
	v, _, _ = Method(c, Call{Recv: method(t, c, rng(1, 4, false), "iter"), Name: "sum", Generics: []string{"u8"}})
	if v.TypeName() != "u8" || Display(v) != "6" {
		t.Errorf("sum::<u8>() = %s: %s", Display(v), v.TypeName())
	}
	big := &dispatch.Array{Elems: []Value{typed(200, "u8"), typed(100, "u8")}}
	if _, _, err := Method(c, Call{Recv: method(t, c, big, "iter"), Name: "sum"}); err == nil || err.Error() != "attempt to add with overflow" {
		t.Errorf("a u8 sum past 255: %v", err)
	}
}

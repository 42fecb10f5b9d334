package dispatch

import "testing"

// assert_within_range over integers (compare.rs:371-399), try_to_vec and
// try_into_vec (conversion.rs:64-84), and a TensorData method called by
// its path with the data first.
func TestDataRangesVecsAndPaths(t *testing.T) {
	fx := newOpFixture(t)
	data := func() *TensorData {
		return mustCall(t, fx.w, Call{Path: []string{"TensorData", "from"}, Args: []Value{arr(i(0), i(2), i(3))}}).(*TensorData)
	}
	d := data()
	if v := mustCall(t, fx.w, method(d, "assert_within_range", irange(0, 4))); v != (Unit{}) {
		t.Errorf("within 0..4: %v", v)
	}
	p := mustPanic(t, fx.w, method(d, "assert_within_range", irange(0, 3)))
	if p.Message != "Element (3) is not within range 0..3" || p.Location != "crates/burn-std/src/data/compare.rs:374" {
		t.Errorf("3 outside 0..3: %q at %s", p.Message, p.Location)
	}
	incl := &Range{Lo: irange(0, 3).Lo, Hi: irange(0, 3).Hi, Inclusive: true}
	if v := mustCall(t, fx.w, method(d, "assert_within_range_inclusive", incl)); v != (Unit{}) {
		t.Errorf("within 0..=3: %v", v)
	}
	low := &Range{Lo: irange(1, 3).Lo, Hi: irange(1, 3).Hi, Inclusive: true}
	if p := mustPanic(t, fx.w, method(d, "assert_within_range_inclusive", low)); p.Message != "Element (0) is not within range 1..=3" {
		t.Errorf("0 outside 1..=3: %q", p.Message)
	}
	for _, m := range []string{"try_to_vec", "try_into_vec"} {
		v := mustCall(t, fx.w, Call{Recv: data(), Method: m, Generics: [][]string{{"i32"}}}).(*Enum)
		if v.Variant != "Ok" || Debug(v.Fields[0]) != "[0, 2, 3]" {
			t.Errorf("%s::<i32> = %s", m, Debug(v))
		}
	}
	// TensorData::assert_eq(&a, &b, true): the method on a.
	other := mustCall(t, fx.w, Call{Path: []string{"TensorData", "from"}, Args: []Value{arr(i(0), i(2), i(4))}}).(*TensorData)
	p = mustPanic(t, fx.w, Call{Path: []string{"TensorData", "assert_eq"}, Args: []Value{ref(d), ref(other), Bool(true)}})
	if p.ID != "std-data-not-eq" {
		t.Errorf("TensorData::assert_eq of different data: %s %q", p.ID, p.Message)
	}
	if v := mustCall(t, fx.w, Call{Path: []string{"TensorData", "assert_eq"}, Args: []Value{ref(d), ref(data()), Bool(true)}}); v != (Unit{}) {
		t.Errorf("TensorData::assert_eq of equal data: %v", v)
	}
}

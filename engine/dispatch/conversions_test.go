package dispatch

import (
	"slices"
	"strings"
	"testing"
)

// Tensor::from(x) is Tensor::from_data(x.into(), &Default::default())
// (burn-tensor/src/tensor/api/base.rs:84-92): the same values, dtype,
// device and trace as the from_data call it stands for.
func TestTensorFrom(t *testing.T) {
	w := world(t, "flex")
	def := &Enum{Type: "Default", Variant: "default"}
	data := mustCall(t, w, fn("TensorData::from", arr(f(1.5), f(-2))))
	cases := []struct {
		name     string
		generics []string
		arg      Value
		shape    []int64
		dtype    DType
		kind     string
		op       string
		display  string
	}{
		{"float array", []string{"2"}, arr(arr(f(0), f(-1), f(2)), arr(f(3), f(4), f(-5))), []int64{2, 3}, F32, "Float", "float_from_data", "[[0.0, -1.0, 2.0],\n [3.0, 4.0, -5.0]]"},
		{"int array", []string{"1", "Int"}, arr(i(1), i(2)), []int64{2}, I32, "Int", "int_from_data", "[1, 2]"},
		{"bool array", []string{"1", "Bool"}, arr(Bool(true), Bool(false)), []int64{2}, "Bool(Native)", "Bool", "bool_from_data", "[true, false]"},
		{"TensorData", []string{"1"}, data, []int64{2}, F32, "Float", "float_from_data", "[1.5, -2.0]"},
	}
	for _, c := range cases {
		got := mustCall(t, w, fnG("Tensor::from", c.generics, c.arg)).(*Tensor)
		ev := w.Trace()[len(w.Trace())-1]
		want := mustCall(t, w, fnG("Tensor::from_data", c.generics, c.arg, ref(def))).(*Tensor)
		wantEv := w.Trace()[len(w.Trace())-1]
		if !slices.Equal(got.Shape(), c.shape) || got.DType() != c.dtype || got.KindName() != c.kind {
			t.Errorf("%s: %v %s %s, want %v %s %s", c.name, got.Shape(), got.DType(), got.KindName(), c.shape, c.dtype, c.kind)
		}
		if ev.Op != c.op || ev.Op != wantEv.Op || ev.Device != wantEv.Device || ev.Backend != wantEv.Backend || ev.Autodiff != wantEv.Autodiff {
			t.Errorf("%s: trace %+v, want op %s as from_data's %+v", c.name, ev, c.op, wantEv)
		}
		if s, ws := display(t, got), display(t, want); s != ws || !strings.Contains(s, c.display) {
			t.Errorf("%s: Display\n%s\nwant the data %q, as from_data's\n%s", c.name, s, c.display, ws)
		}
	}
	// The device is Device::default(), whatever the build makes it.
	x := mustCall(t, w, fnG("Tensor::from", []string{"1"}, arr(f(1)))).(*Tensor)
	if d := mustCall(t, w, fn("Device::default")).(*Device); Debug(x.Device()) != Debug(d) {
		t.Errorf("Tensor::from on %s, want Device::default() %s", Debug(x.Device()), Debug(d))
	}
	if ue := mustReject(t, w, fnG("Tensor::from", []string{"1"}, arr(f(1)), ref(def))); ue.Message != "this function takes 1 argument but 2 arguments were supplied" {
		t.Errorf("Tensor::from with two arguments: %+v", ue)
	}
	if ue := mustReject(t, w, fnG("Tensor::from", []string{"1"}, f(1))); ue.Code != "wrong-arguments" {
		t.Errorf("Tensor::from of a float: %+v", ue)
	}
}

package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const flexConfig = "[dependencies]\nburn = { version = \"0.22\", features = [\"std\", \"flex\"] }\n"

// Burn's tensor constructors and conversions as Burn's backend tests write
// them, through the whole engine: what each prints, and the ops it traces.
func TestConstructorsAndConversions(t *testing.T) {
	cases := []struct {
		name    string
		snippet string
		output  string
		ops     []string
	}{
		{"Tensor::from of the harness aliases", `use burn::tensor::{Tensor, Int, Bool};
type TestTensor<const D: usize> = Tensor<D>;
type TestTensorInt<const D: usize> = Tensor<D, Int>;
type TestTensorBool<const D: usize> = Tensor<D, Bool>;
let t = TestTensor::<2>::from([[0.0, -1.0, 2.0], [3.0, 4.0, -5.0]]);
let i = TestTensorInt::<1>::from([1, 2]);
let b = TestTensorBool::<1>::from([true, false]);
println!("{:?} {:?} {:?}", t.to_data().to_vec::<f32>().unwrap(), i.into_data().to_vec::<i32>().unwrap(), b.dtype());
`, "[0.0, -1.0, 2.0, 3.0, 4.0, -5.0] [1, 2] Bool(Native)\n", []string{"float_from_data", "int_from_data", "bool_from_data", "float_into_data", "int_into_data"}},
		{"Tensor::from of a TensorData", `use burn::tensor::{Tensor, TensorData};
let data = TensorData::from([1.5, 2.5]);
let t = Tensor::<1>::from(data);
println!("{}", t.sum().into_scalar::<f32>());
`, "4\n", []string{"float_from_data", "float_sum", "float_into_data"}},
		// rustc infers the let's type from the later &device argument:
		// the let builds Device::default() where it stands.
		{"let device = Default::default() used as a device", `use burn::tensor::Tensor;
let device = Default::default();
let t = Tensor::<1>::from_data([1.0, 2.0], &device);
println!("{:?} {:?}", device, device.settings().float_dtype);
`, "Device<Flex(Cpu)> F32\n", []string{"float_from_data"}},
		{"Default::default() used in creation options", `use burn::tensor::{Tensor, DType};
let device = Default::default();
let f = Tensor::<1>::full([2], 3.0, (&device, DType::F16));
println!("{:?} {:?}", f.dtype(), device.settings().int_dtype);
`, "F16 I32\n", []string{"float_full"}},
		{"Default::default() used through a harness alias", `use burn::tensor::{Tensor, Bool, TensorData};
type TestTensorBool<const D: usize> = Tensor<D, Bool>;
let device = Default::default();
let b = TestTensorBool::<1>::from_data(TensorData::from([true]), &device);
println!("{:?}", device.settings().bool_dtype);
`, "Native\n", []string{"bool_from_data"}},
		{"Default::default() passed to a function of the program", `use burn::tensor::{Tensor, Device};
fn make(d: &Device) -> Tensor<1> { Tensor::ones([2], d) }
let device = Default::default();
let m = make(&device);
println!("{:?}", device.settings().bool_dtype);
`, "Native\n", []string{"float_ones"}},
		{"Burn's element traits on primitives", `use burn::tensor::{DType, Element, ElementConversion};
pub type FloatElem = f32;
pub type IntElem = i32;
let x: f64 = 2.5f32.elem();
println!("{:?} {:?} {:?}", FloatElem::dtype(), IntElem::dtype(), <FloatElem as burn::tensor::Element>::dtype());
println!("{:?} {:?} {:?} {:?}", x, 3.7f32.elem::<i32>(), 5.elem::<FloatElem>(), f32::from_elem(3));
println!("{} {:?}", matches!(FloatElem::dtype(), DType::F32 | DType::F64), FloatElem::dtype().name());
`, "F32 I32 F32\n2.5 3 5.0 3.0\ntrue \"f32\"\n", nil},
		// Shape == Shape is Shape's one PartialEq (cubecl-zspace derives
		// it), so `.into()` on the other side of assert_eq! is a Shape.
		{"Shape compared with an array's into()", `use burn::tensor::{Tensor, Shape};
let device = Default::default();
let t = Tensor::<2>::zeros([2, 3], &device);
let shape = [2, 3];
assert_eq!(t.shape(), shape.into());
assert_ne!(t.shape(), [3, 2].into());
assert_eq!(t.shape().as_slice(), [2, 3]);
let s: Shape = [4, 5].into();
println!("{:?} {} {}", s, s.num_elements(), t.shape()[1]);
`, "Shape { dims: [4, 5] } 20 3\n", []string{"float_zeros"}},
		{"a Shape's slice methods and its Vec", `use burn::tensor::{Tensor, Shape};
let s = Tensor::<2>::zeros([2, 3], &Default::default()).shape();
let v: Vec<usize> = s.clone().into();
println!("{} {:?} {:?} {} {:?}", s.iter().product::<usize>(), s.first(), s.dims::<2>(), s == Shape::new([2, 3]), v);
`, "6 Some(2) [2, 3] true [2, 3]\n", []string{"float_zeros"}},
		{"into() a tensor", `use burn::tensor::{Tensor, TensorData};
let u: Tensor<1> = [1.0, 2.0].into();
let v: Tensor<1> = TensorData::from([3.0, 4.0]).into();
println!("{}", (u + v).sum().into_scalar::<f32>());
`, "10\n", []string{"float_from_data", "float_from_data", "float_add", "float_sum", "float_into_data"}},
		{"TensorData's element constructors and iter", `use burn::tensor::{Tensor, TensorData};
let data = Tensor::<1>::from_data([1.5, -2.5], &Default::default()).into_data();
let v: Vec<f32> = data.iter::<f32>().collect();
let z = TensorData::zeros::<f32, _>([2]);
println!("{:?} {:?} {:?} {:?}", v, data.iter::<i64>().next(), z.to_vec::<f32>().unwrap(), TensorData::full([2], 7i32).to_vec::<i32>().unwrap());
`, "[1.5, -2.5] Some(1) [0.0, 0.0] [7, 7]\n", []string{"float_from_data", "float_into_data"}},
		{"a parameter of the program's own type decides it", `#[derive(Default, Debug)]
struct Cfg { n: u32 }
fn take(c: &Cfg) -> u32 { c.n + 1 }
let c = Default::default();
println!("{} {:?}", take(&c), c);
`, "1 Cfg { n: 0 }\n", nil},
	}
	for _, c := range cases {
		res := engine.Run(engine.Request{Config: flexConfig, Snippet: c.snippet})
		if res.Status != engine.StatusOK {
			t.Errorf("%s: status %s: %+v", c.name, res.Status, res.Diagnostics)
			continue
		}
		if res.Output != c.output {
			t.Errorf("%s: output %q, want %q", c.name, res.Output, c.output)
		}
		var ops []string
		for _, ev := range res.Trace {
			ops = append(ops, ev.Op)
		}
		if strings.Join(ops, " ") != strings.Join(c.ops, " ") {
			t.Errorf("%s: trace %v, want %v", c.name, ops, c.ops)
		}
	}
}

// An assert_eq! of two shapes that differ fails with both Debug forms.
func TestShapeAssertFails(t *testing.T) {
	res := engine.Run(engine.Request{Config: flexConfig, Snippet: `use burn::tensor::Tensor;
let t = Tensor::<2>::zeros([2, 3], &Default::default());
assert_eq!(t.shape(), [3, 3].into());
`})
	want := "assertion `left == right` failed\n  left: Shape { dims: [2, 3] }\n right: Shape { dims: [3, 3] }"
	if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != want {
		t.Errorf("status %s, panic %+v, want %q", res.Status, res.Panic, want)
	}
}

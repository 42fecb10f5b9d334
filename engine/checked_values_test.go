package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestComputedValuesAreChecked: the operations whose values the engine
// computes (det, diag, gather_nd, scatter_nd, mask_select, cross, unfold,
// mask_where with its operands broadcast,
// a bool select_assign, and their gradients) make an assertion a real
// check: Burn's expected value passes, complete, and a changed one fails
// as Burn's assert does. Before they were computed, both passed.
func TestComputedValuesAreChecked(t *testing.T) {
	cases := []struct {
		name, body, right, wrong string
	}{
		{"det", "let t = Tensor::<3>::from_data([[[2.0, 0.0], [0.0, 3.0]]], &device);\nlet d = det::<3, 2, 1>(t);\nd.into_data().assert_eq(&TensorData::from([%s]), false);\n", "6.0", "123.0"},
		{"det by LU", "let t = Tensor::<3>::from_data([[[2.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0]]], &device);\nlet d = det::<3, 2, 1>(t);\nd.into_data().assert_approx_eq::<f32>(&TensorData::from([%s]), Tolerance::default());\n", "6.0", "7.0"},
		{"diag", "let t = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], &device);\ndiag::<2, 1, _>(t).into_data().assert_eq(&TensorData::from([1.0, %s]), false);\n", "4.0", "5.0"},
		{"gather_nd", "let t = Tensor::<2>::from_data([[0.0, 1.0], [2.0, 3.0]], &device);\nlet i = Tensor::<2, Int>::from_data([[1, 0]], &device);\nlet g: Tensor<1> = t.gather_nd(i);\ng.into_data().assert_eq(&TensorData::from([%s]), false);\n", "2.0", "3.0"},
		{"scatter_nd max", "let t = Tensor::<1>::from_data([1.0, 5.0], &device);\nlet i = Tensor::<2, Int>::from_data([[0], [1]], &device);\nlet v = Tensor::<1>::from_data([4.0, 2.0], &device);\nt.scatter_nd(i, v, IndexingUpdateOp::Max).into_data().assert_eq(&TensorData::from([4.0, %s]), false);\n", "5.0", "2.0"},
		{"mask_select gradient", "let device = Device::default().autodiff();\nlet t = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).require_grad();\nlet m = Tensor::<1, Bool>::from_data([true, false, true], &device);\nlet grads = t.clone().mask_select(m).sum().backward();\nt.grad(&grads).unwrap().into_data().assert_eq(&TensorData::from([1.0, %s, 1.0]), false);\n", "0.0", "1.0"},
		{"cross gradient", "let device = Device::default().autodiff();\nlet a = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).require_grad();\nlet b = Tensor::<1>::from_data([4.0, 5.0, 6.0], &device);\nlet grads = a.clone().cross(b, 0).sum().backward();\na.grad(&grads).unwrap().into_data().assert_eq(&TensorData::from([%s, 2.0, -1.0]), false);\n", "-1.0", "1.0"},
		{"unfold", "let t = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device);\nlet u: Tensor<2> = t.unfold(0, 2, 1);\nu.into_data().assert_eq(&TensorData::from([[1.0, 2.0], [2.0, %s]]), false);\n", "3.0", "4.0"},
		{"mask_where broadcast", "let t = Tensor::<2>::from_data([[2.0, 3.0]], &device);\nlet m = Tensor::<2, Bool>::from_data([[true, false], [false, true]], &device);\nlet v = Tensor::<2>::ones([2, 2], &device);\nt.mask_where(m, v).into_data().assert_eq(&TensorData::from([[1.0, 3.0], [2.0, %s]]), false);\n", "1.0", "3.0"},
		{"bool select_assign", "let t = Tensor::<1, Bool>::from_data([false, true], &device);\nlet i = Tensor::<1, Int>::from_data([0], &device);\nlet v = Tensor::<1, Bool>::from_data([true], &device);\nt.select_assign(0, i, v, IndexingUpdateOp::Add).into_data().assert_eq(&TensorData::from([%s, true]), false);\n", "true", "false"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, expected := range []string{tc.right, tc.wrong} {
				body := strings.Replace(tc.body, "%s", expected, 1)
				if !strings.HasPrefix(body, "let device") {
					body = "let device = Default::default();\n" + body
				}
				src := "use burn::tensor::{Bool, Device, IndexingUpdateOp, Int, Tensor, TensorData, Tolerance};\nuse burn::tensor::linalg::{det, diag};\n\nfn main() {\n    " +
					strings.ReplaceAll(strings.TrimSuffix(body, "\n"), "\n", "\n    ") + "\n}\n"
				res := run(t, engine.Request{Snippet: src})
				checkPromises(t, res)
				want := engine.StatusOK
				if expected == tc.wrong {
					want = engine.StatusPanicked
				}
				if res.Status != want || !res.Complete {
					t.Fatalf("expected %s: status %s, complete %v, want %s and complete:\n%s", expected, res.Status, res.Complete, want, Summary(res))
				}
				if want == engine.StatusPanicked && !strings.HasPrefix(res.Panic.Message, "Tensors are not") {
					t.Errorf("expected %s: panic %q", expected, res.Panic.Message)
				}
			}
		})
	}
}

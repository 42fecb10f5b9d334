package dispatch

import (
	"fmt"
	"strings"
)

// burn-tensor's TensorCheck (crates/burn-tensor/src/tensor/api/check.rs):
// the checks that run in the public API before anything is dispatched.
// Only three families check devices: the ten element-wise binary ops,
// matmul and cross. Device equality ignores autodiff, so an autodiff and a
// plain tensor of the same hardware pass here and fail later in dispatch.

// tensorCheck collects the failures of one operation.
type tensorCheck struct {
	op       string
	ids      []string
	messages []string
}

func (c *tensorCheck) register(id, description, details string) {
	c.ids = append(c.ids, id)
	c.messages = append(c.messages, description+" "+details+" ")
}

// format is FailedTensorCheck::format (check.rs:1434-1475).
func (c *tensorCheck) format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "=== Tensor Operation Error ===\n  Operation: '%s'\n  Reason:", c.op)
	for i, m := range c.messages {
		fmt.Fprintf(&b, "\n    %d. %s", i+1, m)
	}
	b.WriteString("\n")
	return b.String()
}

// checkSites are where each operation invokes check!: the panic location
// Rust reports is the macro's call site, not the line in check.rs that
// registers the failure.
var checkSites = map[string]string{
	"Add": "numeric.rs:38", "Sub": "numeric.rs:89", "Div": "numeric.rs:140", "Mul": "numeric.rs:223",
	"Matmul": "numeric.rs:818", "Equal": "base.rs:2375", "NotEqual": "base.rs:2402",
	"Greater": "orderable.rs:373", "Greater_equal": "orderable.rs:396", "Lower": "orderable.rs:419",
	"Lower_equal": "orderable.rs:442", "Cross": "float.rs:681",
}

// panic turns a failed check into Burn's panic, nil if nothing failed.
func (c *tensorCheck) panic() *Panic {
	if len(c.messages) == 0 {
		return nil
	}
	return newPanic(c.ids[0], "crates/burn-tensor/src/tensor/api/"+checkSites[c.op], c.format())
}

// device is binary_ops_device (check.rs:1180-1195).
func (c *tensorCheck) device(lhs, rhs *Device) {
	if !lhs.Equal(rhs) {
		c.register("bt-check-device", "The provided tensors are not on the same device.",
			fmt.Sprintf("Lhs tensor device %s, Rhs tensor device %s.", lhs.rustDebug(), rhs.rustDebug()))
	}
}

// broadcast is binary_ops_ew_shape (check.rs:1144-1175); it returns the
// broadcast shape.
func (c *tensorCheck) broadcast(lhs, rhs []int64) []int64 {
	out := make([]int64, len(lhs))
	for i := range lhs {
		l, r := lhs[i], rhs[i]
		out[i] = max(l, r)
		if l == r || l == 1 || r == 1 {
			if l == 1 {
				out[i] = r
			} else {
				out[i] = l
			}
			continue
		}
		c.register("bt-check-ew-shape", "The provided tensors have incompatible shapes.",
			fmt.Sprintf("Incompatible size at dimension '%d' => '%d != %d', which can't be broadcasted. Lhs tensor shape %s, Rhs tensor shape %s.",
				i, l, r, shapeDebug(lhs), shapeDebug(rhs)))
	}
	return out
}

// matmul is TensorCheck::matmul (check.rs:471-504); it returns the output
// shape, batch dims broadcast.
func (c *tensorCheck) matmul(lhs, rhs *Tensor) []int64 {
	c.device(lhs.Device(), rhs.Device())
	d := len(lhs.shape)
	if d < 2 {
		return append([]int64{}, lhs.shape...)
	}
	l, r := lhs.shape, rhs.shape
	if l[d-1] != r[d-2] {
		c.register("bt-check-matmul-inner",
			fmt.Sprintf("The inner dimension of matmul should be the same, but got %d and %d.", l[d-1], r[d-2]),
			fmt.Sprintf("Lhs shape %s, rhs shape %s.", shapeDebug(l), shapeDebug(r)))
	}
	out := make([]int64, d)
	for i := 0; i < d-2; i++ {
		out[i] = max(l[i], r[i])
		if l[i] == 1 {
			out[i] = r[i]
		} else if r[i] == 1 {
			out[i] = l[i]
		}
	}
	out[d-2], out[d-1] = l[d-2], r[d-1]
	return out
}

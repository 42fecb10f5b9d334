package dispatch

import (
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Every panic the model raises is checked against Burn's panic table:
// the id exists, the location is the table's file:line (TensorCheck rows
// excepted: Rust reports those at the check! call site), and the message
// is the table's text with its placeholders filled and Rust's panic shape
// applied.

type panicRow struct {
	file, line, kind, message string
}

var (
	panicTableOnce sync.Once
	panicTable     map[string]panicRow
)

// loadPanicTable reads Burn's panic table and the catalog's sites.tsv,
// which lists the Burn panic sites the model raises beyond it.
func loadPanicTable(t testing.TB) map[string]panicRow {
	panicTableOnce.Do(func() {
		table := map[string]panicRow{}
		for _, path := range []string{"../catalog/panics.tsv", "../catalog/sites.tsv"} {
			data, err := os.ReadFile(path)
			if err != nil {
				return
			}
			for _, line := range strings.Split(string(data), "\n")[1:] {
				f := strings.Split(line, "\t")
				if len(f) < 5 {
					continue
				}
				table[f[0]] = panicRow{file: f[1], line: f[2], kind: f[3], message: f[4]}
			}
		}
		panicTable = table
	})
	if panicTable == nil {
		t.Fatal("cannot read ../catalog/panics.tsv and ../catalog/sites.tsv")
	}
	return panicTable
}

// notInTable are the ids of the playground's own panics, which no Burn
// site raises.
var notInTable = map[string]bool{
	"playground-missing-hardware": true,
	"shape-overflow":              true,
}

// templatePattern turns a table message into a regexp: placeholders such
// as {lhs:?} or {} match anything.
func templatePattern(message string) *regexp.Regexp {
	placeholder := regexp.MustCompile(`\{[^{}]*\}`)
	parts := placeholder.Split(message, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("(?s)" + strings.Join(parts, ".*"))
}

// checkAgainstTable verifies p (and its causes) against the table.
func checkAgainstTable(t *testing.T, p *Panic) {
	t.Helper()
	table := loadPanicTable(t)
	for ; p != nil; p = p.Cause {
		if notInTable[p.ID] {
			continue
		}
		row, ok := table[p.ID]
		if !ok {
			t.Errorf("panic id %q is not in panics.tsv", p.ID)
			continue
		}
		if !strings.HasPrefix(row.kind, "panic (TensorCheck)") {
			if want := row.file + ":" + row.line; p.Location != want {
				t.Errorf("%s: location %q, table says %q", p.ID, p.Location, want)
			}
		} else if !strings.HasPrefix(p.Location, "crates/burn-tensor/src/tensor/api/") {
			t.Errorf("%s: location %q is not a check! call site", p.ID, p.Location)
		}
		msg := p.Message
		switch row.kind {
		case "unimplemented":
			if row.message == "(bare unimplemented!())" {
				if msg != "not implemented" {
					t.Errorf("%s: a bare unimplemented!() prints `not implemented`, got %q", p.ID, msg)
				}
				continue
			}
			if !strings.HasPrefix(msg, "not implemented: ") {
				t.Errorf("%s: unimplemented! prints `not implemented: `, got %q", p.ID, msg)
			}
		case "unreachable":
			if !strings.HasPrefix(msg, "internal error: entered unreachable code") {
				t.Errorf("%s: unreachable! prints `internal error: entered unreachable code`, got %q", p.ID, msg)
			}
			if row.message == "(bare unreachable!())" {
				continue
			}
		case "assert_eq":
			if !strings.HasPrefix(msg, "assertion `left == right` failed: ") || !strings.Contains(msg, "\n  left: ") || !strings.Contains(msg, "\n right: ") {
				t.Errorf("%s: assert_eq! shape missing in %q", p.ID, msg)
			}
		}
		if !templatePattern(row.message).MatchString(msg) {
			t.Errorf("%s: message %q does not match the table's %q", p.ID, msg, row.message)
		}
	}
}

// panicCase is a scenario that reaches one row of the table.
type panicCase struct {
	id       string
	features []string
	env      map[string]string
	servers  []Server
	run      func(t *testing.T, w *World) *Panic
	message  string // the exact message, when the case pins it
}

// noDefaults in a case's features builds burn with default-features =
// false (and std), which leaves autodiff out.
const noDefaults = "no-default-features"

func worldFor(t *testing.T, c panicCase) *World {
	var w *World
	if len(c.features) > 0 && c.features[0] == noDefaults {
		w = NewWorld(Config{Features: features(t, false, append([]string{"std"}, c.features[1:]...)...), Hardware: Hardware{Cuda: 2}})
	} else {
		w = world(t, c.features...)
	}
	w.cfg.Env = c.env
	w.cfg.Servers = c.servers
	return w
}

var panicCases = []panicCase{
	{id: "disp-burn-device-cuda", env: map[string]string{"BURN_DEVICE": "CUDA"},
		run:     func(t *testing.T, w *World) *Panic { return mustPanic(t, w, fn("Device::default")) },
		message: "BURN_DEVICE=cuda requested, but the 'cuda' feature is not enabled."},
	{id: "disp-burn-device-flex", features: []string{"cuda"}, env: map[string]string{"BURN_DEVICE": "flex"},
		run:     func(t *testing.T, w *World) *Panic { return mustPanic(t, w, fn("Device::default")) },
		message: "BURN_DEVICE=flex requested, but the 'flex' feature is not enabled."},
	{id: "disp-burn-device-tch", env: map[string]string{"BURN_DEVICE": "Tch"},
		run:     func(t *testing.T, w *World) *Panic { return mustPanic(t, w, fn("Device::default")) },
		message: "BURN_DEVICE=tch requested, but the 'tch' feature is not enabled."},
	{id: "disp-burn-device-remote", env: map[string]string{"BURN_DEVICE": "remote"},
		run: func(t *testing.T, w *World) *Panic { return mustPanic(t, w, fn("Device::default")) }},
	{id: "disp-burn-device-unknown", env: map[string]string{"BURN_DEVICE": "GPU"},
		run:     func(t *testing.T, w *World) *Panic { return mustPanic(t, w, fn("Device::default")) },
		message: "Unknown BURN_DEVICE override: 'GPU'."},
	{id: "bt-device-index-i32", features: []string{"cuda"},
		run:     func(t *testing.T, w *World) *Panic { return mustPanic(t, w, fn("Device::cuda", i(-1))) },
		message: "device index must be non-negative: TryFromIntError(())"},
	{id: "bt-device-index-i64", features: []string{"cuda"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fn("Device::cuda", Int{V: -1, Suffix: "i64"}))
		}},
	{id: "bt-autodiff-twice", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff"))
			return mustPanic(t, w, method(ad, "autodiff"))
		},
		message: "not implemented: Only first-order autodiff is supported"},
	{id: "bt-ckpt-strategy-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(device(t, w, "flex"), "gradient_checkpointing_strategy"))
		},
		message: "Autodiff is not enabled on this device"},
	{id: "bt-grad-ckpt-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(device(t, w, "flex"), "gradient_checkpointing"))
		},
		message: "Autodiff is not enabled on this device"},
	{id: "bt-check-device", features: []string{"cuda", "flex"},
		run: func(t *testing.T, w *World) *Panic {
			a := ones(t, w, device(t, w, "cuda", i(0)), "", 2)
			b := ones(t, w, device(t, w, "flex"), "", 2)
			return mustPanic(t, w, method(a, "add", b))
		},
		message: "=== Tensor Operation Error ===\n  Operation: 'Add'\n  Reason:\n    1. The provided tensors are not on the same device. Lhs tensor device Device<Cuda(Cuda(0))>, Rhs tensor device Device<Flex(Cpu)>. \n"},
	{id: "bt-check-ew-shape", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			d := device(t, w, "flex")
			return mustPanic(t, w, method(ones(t, w, d, "", 3, 5), "add", ones(t, w, d, "", 3, 6)))
		},
		message: "=== Tensor Operation Error ===\n  Operation: 'Add'\n  Reason:\n    1. The provided tensors have incompatible shapes. Incompatible size at dimension '1' => '5 != 6', which can't be broadcasted. Lhs tensor shape Shape { dims: [3, 5] }, Rhs tensor shape Shape { dims: [3, 6] }. \n"},
	{id: "bt-check-matmul-inner",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, method(ones(t, w, d, "", 2, 3), "matmul", ones(t, w, d, "", 4, 5)))
		}},
	{id: "disp-ckpt-mismatch",
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(mustCall(t, w, fn("Device::default")), "autodiff"))
			ckp := mustCall(t, w, method(ad, "gradient_checkpointing"))
			return mustPanic(t, w, method(ones(t, w, ad.(*Device), "", 2), "add", ones(t, w, ckp.(*Device), "", 2)))
		},
		message: "assertion `left == right` failed: Gradient checkpointing strategy mismatch: Disabled vs Balanced. Tensors in the same operation must share a strategy.\n  left: Disabled\n right: Balanced"},
	{id: "disp-binary-float-backend", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			flex := device(t, w, "flex")
			ad := mustCall(t, w, method(flex, "autodiff")).(*Device)
			return mustPanic(t, w, method(ones(t, w, ad, "", 2), "add", ones(t, w, flex, "", 2)))
		},
		message: "The provided tensors are not on the same backend. Got backends Autodiff(Flex(Autodiff(AutodiffTensor { primitive: FlexTensor { shape: Shape { dims: [2] }, dtype: F32, contiguous: true, unique: true }, node: Node { parents: [], order: 0, id: NodeId { value: 0 }, requirement: None, properties: Ambiguous, client: GraphMutexClient, distributed_params: None }, rc: NodeId { value: 0 } }))) and Flex(Float(FlexTensor { shape: Shape { dims: [2] }, dtype: F32, contiguous: true, unique: true }))."},
	{id: "disp-binary-ad-backend", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			a := ones(t, w, mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device), "", 2)
			b := ones(t, w, mustCall(t, w, method(device(t, w, "cuda", i(0)), "autodiff")).(*Device), "", 2)
			return mustPanic(t, w, method(a, "powf", b))
		}},
	{id: "disp-binary-op-backend", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			a := ones(t, w, device(t, w, "flex"), "Bool", 2)
			b := ones(t, w, device(t, w, "cuda", i(0)), "Bool", 2)
			return mustPanic(t, w, method(a, "bool_and", b))
		},
		message: "The provided tensors are not on the same backend. Got backends Flex(Bool(FlexTensor { shape: Shape { dims: [2] }, dtype: Bool(Native), contiguous: true, unique: true })) and Cuda(Bool({ id: TensorId { value: 0 }, shape: Shape { dims: [2] }, device: Cuda(0) }))."},
	{id: "disp-binary-float-any-inner", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device), "", 2)
			idx := ones(t, w, device(t, w, "cuda", i(0)), "Int", 1)
			return mustPanic(t, w, method(x, "select", i(0), idx))
		},
		message: "The provided tensors are not on the same backend."},
	{id: "disp-binary-float-any-backend", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, device(t, w, "flex"), "", 2)
			mask := ones(t, w, device(t, w, "cuda", i(0)), "Bool", 2)
			return mustPanic(t, w, method(x, "mask_fill", mask, f(0)))
		}},
	{id: "disp-multi-input-wrong", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, device(t, w, "flex"), "", 2)
			mask := ones(t, w, device(t, w, "cuda", i(0)), "Bool", 2)
			return mustPanic(t, w, method(x, "mask_where", mask, ones(t, w, device(t, w, "flex"), "", 2)))
		},
		message: "Input tensor mask is on the wrong device"},
	{id: "disp-multi-ad-input-other", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device), "", 2)
			mask := ones(t, w, device(t, w, "cuda", i(0)), "Bool", 2)
			return mustPanic(t, w, method(x, "mask_where", mask, x))
		},
		message: "Input tensor mask is on the wrong device"},
	{id: "disp-multi-ad-input-wrong", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			flexAD := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			cudaAD := mustCall(t, w, method(device(t, w, "cuda", i(0)), "autodiff")).(*Device)
			x := ones(t, w, flexAD, "", 2)
			mask := ones(t, w, flexAD, "Bool", 2)
			return mustPanic(t, w, method(x, "mask_where", mask, ones(t, w, cudaAD, "", 2)))
		},
		message: "Input tensor value is on the wrong device"},
	{id: "disp-bt-autodiff", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			flex := device(t, w, "flex")
			x := ones(t, w, mustCall(t, w, method(flex, "autodiff")).(*Device), "", 2)
			mask := ones(t, w, flex, "Bool", 2)
			return mustPanic(t, w, method(x, "mask_where", mask, ones(t, w, flex, "", 2)))
		},
		message: "internal error: entered unreachable code"},
	{id: "disp-vec-wrong-backend", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			a := ones(t, w, device(t, w, "flex"), "", 2)
			b := ones(t, w, device(t, w, "cuda", i(0)), "", 2)
			return mustPanic(t, w, fn("Tensor::cat", &Array{Elems: []Value{a, b}, Vec: true}, i(0)))
		},
		message: "Tensor is on the wrong backend (expected Flex)."},
	{id: "disp-vec-ad-wrong-backend", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			a := ones(t, w, mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device), "", 2)
			b := ones(t, w, mustCall(t, w, method(device(t, w, "cuda", i(0)), "autodiff")).(*Device), "", 2)
			return mustPanic(t, w, fn("Tensor::cat", &Array{Elems: []Value{a, b}, Vec: true}, i(0)))
		},
		message: "Autodiff float tensor is on the wrong backend (expected Flex)."},
	{id: "disp-vec-ad-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			flex := device(t, w, "flex")
			a := ones(t, w, mustCall(t, w, method(flex, "autodiff")).(*Device), "", 2)
			return mustPanic(t, w, fn("Tensor::cat", &Array{Elems: []Value{a, ones(t, w, flex, "", 2)}, Vec: true}, i(0)))
		},
		message: "Expected autodiff-wrapped float tensor for backend Flex."},
	{id: "disp-float-todev-ad-mix", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			flex := device(t, w, "flex")
			x := ones(t, w, mustCall(t, w, method(flex, "autodiff")).(*Device), "", 2)
			return mustPanic(t, w, method(x, "to_device", ref(flex)))
		},
		message: "Cannot move between autodiff and non-autodiff instances."},
	{id: "disp-float-todev-ad-cross", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device), "", 2)
			cudaAD := mustCall(t, w, method(device(t, w, "cuda", i(0)), "autodiff"))
			return mustPanic(t, w, method(x, "to_device", ref(cudaAD)))
		},
		message: "not implemented: Autodiff tensor cannot be moved between backends."},
	{id: "disp-float-todev-from-capture", features: []string{"flex", "capture"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, scopedCapture(t, w), "", 2)
			return mustPanic(t, w, method(x, "to_device", ref(device(t, w, "flex"))))
		},
		message: "Cannot move a tensor from a capture device"},
	{id: "disp-todev-from-capture", features: []string{"flex", "capture"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, scopedCapture(t, w), "Int", 2)
			return mustPanic(t, w, method(x, "to_device", ref(device(t, w, "flex"))))
		}},
	{id: "disp-todev-ad-nested", features: []string{"flex", "capture"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, scopedCapture(t, w), "Int", 2)
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff"))
			return mustPanic(t, w, method(x, "to_device", ref(ad)))
		},
		message: "internal error: entered unreachable code: Autodiff should not wrap an autodiff device."},
	{id: "disp-backward-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			s := mustCall(t, w, method(ones(t, w, device(t, w, "flex"), "", 2), "sum"))
			return mustPanic(t, w, method(s, "backward"))
		},
		message: "Requires autodiff tensor."},
	{id: "disp-backward-capture", features: []string{"capture"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(scopedCapture(t, w), "autodiff")).(*Device)
			x := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad"))
			return mustPanic(t, w, method(x, "backward"))
		},
		message: "Capture tensors do not support autodiff"},
	{id: "disp-grad-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			x := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad")).(*Tensor)
			grads := mustCall(t, w, method(mustCall(t, w, method(x, "sum")), "backward"))
			plain := mustCall(t, w, method(x, "inner"))
			return mustPanic(t, w, method(plain, "grad", ref(grads)))
		},
		message: "Requires autodiff tensor."},
	{id: "disp-grad-remove-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			x := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad")).(*Tensor)
			grads := mustCall(t, w, method(mustCall(t, w, method(x, "sum")), "backward"))
			return mustPanic(t, w, method(ones(t, w, device(t, w, "flex"), "", 2), "grad_remove", &Ref{V: grads, Mut: true}))
		}},
	{id: "disp-grad-replace-backend", features: []string{"tch"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "libtorch"), "autodiff")).(*Device)
			x := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad")).(*Tensor)
			grads := mustCall(t, w, method(mustCall(t, w, method(x, "sum")), "backward"))
			g := ones(t, w, device(t, w, "libtorch"), "", 2)
			return mustPanic(t, w, method(x, "grad_replace", &Ref{V: grads, Mut: true}, g))
		},
		message: "The provided tensors are not on the same backend. Got backends LibTorch(Autodiff(AutodiffTensor { primitive: TchTensor { tensor: Tensor[[2], Float], storage: .. }, node: Node { parents: [], order: 0, id: NodeId { value: 0 }, requirement: Grad, properties: Ambiguous, client: GraphMutexClient, distributed_params: None }, rc: NodeId { value: 0 } })) and LibTorch(Float(TchTensor { tensor: Tensor[[2], Float], storage: .. }))."},
	{id: "disp-grad-replace-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			x := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad")).(*Tensor)
			grads := mustCall(t, w, method(mustCall(t, w, method(x, "sum")), "backward"))
			plain := ones(t, w, device(t, w, "flex"), "", 2)
			return mustPanic(t, w, method(plain, "grad_replace", &Ref{V: grads, Mut: true}, plain))
		}},
	{id: "disp-inner-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(ones(t, w, device(t, w, "flex"), "", 2), "inner"))
		},
		message: "Requires autodiff tensor."},
	{id: "disp-inner-capture", features: []string{"capture"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(scopedCapture(t, w), "autodiff")).(*Device)
			return mustPanic(t, w, method(ones(t, w, ad, "", 2), "inner"))
		}},
	{id: "disp-from-inner-nested", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			return mustPanic(t, w, fn("Tensor::from_inner", ones(t, w, ad, "", 2)))
		},
		message: "Autodiff should not wrap an autodiff tensor."},
	{id: "disp-from-inner-capture", features: []string{"capture"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fn("Tensor::from_inner", ones(t, w, scopedCapture(t, w), "", 2)))
		}},
	{id: "disp-noad-inner", features: []string{noDefaults},
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, method(ones(t, w, d, "", 2), "inner"))
		},
		message: "not implemented: Requires `autodiff` feature"},
	{id: "disp-noad-int-inner", features: []string{noDefaults},
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, method(ones(t, w, d, "Int", 2), "inner"))
		}},
	{id: "disp-noad-bool-from-inner", features: []string{noDefaults},
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, fn("Tensor::from_inner", ones(t, w, d, "Bool", 2)))
		}},
	{id: "disp-noad-q-inner", features: []string{noDefaults},
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			scheme := mustCall(t, w, fn("QuantScheme::default"))
			q := mustCall(t, w, method(ones(t, w, d, "", 2), "quantize_dynamic", ref(scheme)))
			return mustPanic(t, w, method(q, "inner"))
		},
		message: "not implemented: Requires `autodiff` feature"},
	{id: "disp-noad-q-from-inner", features: []string{noDefaults},
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			scheme := mustCall(t, w, fn("QuantScheme::default"))
			q := mustCall(t, w, method(ones(t, w, d, "", 2), "quantize_dynamic", ref(scheme)))
			return mustPanic(t, w, fn("Tensor::from_inner", q))
		}},
	{id: "disp-dist-unsupported-device", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fn("burn::tensor::distributed::DistributedContext::init", &Array{Elems: []Value{device(t, w, "flex"), device(t, w, "cuda", i(0))}}, sumConfig()))
		},
		message: "Distributed operations are not supported for device Flex(Cpu)"},
	{id: "disp-dist-unsupported-device-ad", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fn("DistributedContext::init", &Array{Elems: []Value{autodiffOf(t, w, device(t, w, "flex"))}}, sumConfig()))
		},
		message: "Distributed operations are not supported for device Flex(Cpu)"},
	{id: "disp-dist-mixed-variant", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			cuda := device(t, w, "cuda", i(0))
			return mustPanic(t, w, fn("DistributedContext::init", &Array{Elems: []Value{cuda, autodiffOf(t, w, device(t, w, "cuda", i(1)))}}, sumConfig()))
		},
		message: "internal error: entered unreachable code: All devices are expected to be of the same variant."},
	{id: "disp-dist-mixed-variant-ad", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			// Every device must be autodiff before the inner variants are compared.
			first := autodiffOf(t, w, device(t, w, "flex"))
			return mustPanic(t, w, fn("DistributedContext::init", &Array{Elems: []Value{first, device(t, w, "cuda", i(1))}}, sumConfig()))
		},
		message: "internal error: entered unreachable code: All devices are expected to be of the same variant."},
	{id: "disp-dist-mixed-variant-ad-inner", features: []string{"flex", "cuda", "remote-websocket"},
		servers: []Server{{Address: "ws://localhost:3000", Device: "cuda"}},
		run: func(t *testing.T, w *World) *Panic {
			cuda := autodiffOf(t, w, device(t, w, "cuda", i(0)))
			remote := autodiffOf(t, w, device(t, w, "remote_websocket", Str("ws://localhost:3000"), i(0)))
			return mustPanic(t, w, fn("DistributedContext::init", &Array{Elems: []Value{cuda, remote}}, sumConfig()))
		}},
	{id: "disp-unary-float-dist", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, device(t, w, "flex"), "", 2)
			return mustPanic(t, w, fn("all_reduce", x, enum("ReduceOperation", "Sum"), &Array{Elems: []Value{device(t, w, "cuda", i(0))}}))
		},
		message: "Distributed operations are not supported for tensor kind Flex(Float(FlexTensor { shape: Shape { dims: [2] }, dtype: F32, contiguous: true, unique: true }))"},
	{id: "disp-unary-float-dist-ad", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			x := ones(t, w, autodiffOf(t, w, device(t, w, "flex")), "", 2)
			return mustPanic(t, w, fn("burn::tensor::distributed::all_reduce", x, enum("ReduceOperation", "Mean"), &Array{}))
		},
		message: "Distributed operations are not supported for tensor kind Flex(Autodiff(AutodiffTensor { primitive: FlexTensor { shape: Shape { dims: [2] }, dtype: F32, contiguous: true, unique: true }, node: Node { parents: [], order: 0, id: NodeId { value: 0 }, requirement: None, properties: Ambiguous, client: GraphMutexClient, distributed_params: None }, rc: NodeId { value: 0 } }))"},
	{id: "rem-allreduce-unregistered", features: []string{"remote-websocket", "cuda"},
		servers: []Server{{Address: "ws://localhost:3000", Device: "cuda"}},
		run: func(t *testing.T, w *World) *Panic {
			remote := device(t, w, "remote_websocket", Str("ws://localhost:3000"), i(0))
			x := ones(t, w, remote, "", 2)
			// Cuda(1)'s index id 1 is no remote registry id of this process.
			return mustPanic(t, w, fn("all_reduce", x, enum("ReduceOperation", "Sum"), &Array{Elems: []Value{remote, device(t, w, "cuda", i(1))}}))
		},
		message: "an all_reduce device must be a registered remote device on this process"},
	{id: "rem-allreduce-cross-peer", features: []string{"remote-websocket"},
		servers: []Server{{Address: "ws://localhost:3000", Device: "cuda"}, {Address: "ws://gpu-box:3000", Device: "cuda"}},
		run: func(t *testing.T, w *World) *Panic {
			here := device(t, w, "remote_websocket", Str("ws://localhost:3000"), i(0))
			there := device(t, w, "remote_websocket", Str("ws://gpu-box:3000"), i(0))
			x := ones(t, w, here, "", 2)
			return mustPanic(t, w, fn("all_reduce", x, enum("ReduceOperation", "Sum"), &Array{Elems: []Value{here, there}}))
		},
		message: "assertion `left == right` failed: cross-peer all_reduce is not supported yet: the tensor is on `ws://localhost:3000` but the collective includes a device on `ws://gpu-box:3000`\n  left: WebSocket(Address { scheme: \"ws\", host: \"gpu-box\", port: Some(3000) })\n right: WebSocket(Address { scheme: \"ws\", host: \"localhost\", port: Some(3000) })"},
	{id: "disp-set-dist-unsupported", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			x := mustCall(t, w, method(ones(t, w, autodiffOf(t, w, device(t, w, "flex")), "", 2), "require_grad"))
			return mustPanic(t, w, method(x, "set_distributed", mustCall(t, w, fn("burn::module::ParamId::from", i(7)))))
		}},
	{id: "disp-set-dist-plain", features: []string{"cuda"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(ones(t, w, device(t, w, "cuda", i(0)), "", 2), "set_distributed", mustCall(t, w, fn("ParamId::new"))))
		},
		message: "Requires autodiff tensor."},
	{id: "disp-is-dist-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(ones(t, w, device(t, w, "flex"), "", 2), "is_distributed"))
		},
		message: "Requires autodiff tensor."},
	{id: "ad-require-grad-nonleaf", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			x := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad"))
			y := mustCall(t, w, method(x, "mul", f(2)))
			return mustPanic(t, w, method(y, "require_grad"))
		},
		message: "Can't convert a non leaf tensor into a tracked tensor"},
	{id: "ad-backward-no-step", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			return mustPanic(t, w, method(ones(t, w, ad, "", 2), "backward"))
		},
		message: "Node should have a step registered, did you forget to call `Tensor::register_grad` on the tensor where you need gradients?"},
	{id: "ad-topk", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			return mustPanic(t, w, method(ones(t, w, ad, "", 3), "topk", i(2), i(0)))
		},
		message: "not implemented: topk is not implemented for autodiff"},
	{id: "ad-scatter-update", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			flex := device(t, w, "flex")
			ad := mustCall(t, w, method(flex, "autodiff")).(*Device)
			x := ones(t, w, ad, "", 2, 3)
			idx := ones(t, w, ad, "Int", 2, 3)
			return mustPanic(t, w, method(x, "scatter", i(1), idx, ones(t, w, ad, "", 2, 3), enum("IndexingUpdateOp", "Mul")))
		},
		message: "not implemented: float_scatter with Mul update is not implemented"},
	{id: "disp-multi-opt-wrong", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			x, weight, opts := convInputs(t, w, device(t, w, "flex"))
			bias := ones(t, w, device(t, w, "cuda", i(0)), "", 4)
			return mustPanic(t, w, fn("burn::tensor::module::conv2d", x, weight, enum("Option", "Some", bias), opts))
		},
		message: "Optional tensor bias is on the wrong device"},
	{id: "disp-multi-ad-opt-wrong", features: []string{"flex", "cuda"},
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
			x, weight, opts := convInputs(t, w, ad)
			bias := ones(t, w, mustCall(t, w, method(device(t, w, "cuda", i(0)), "autodiff")).(*Device), "", 4)
			return mustPanic(t, w, fn("conv2d", x, weight, enum("Option", "Some", bias), opts))
		},
		message: "Input tensor bias is on the wrong device"},
	{id: "disp-multi-ad-opt-plain", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			flex := device(t, w, "flex")
			x, weight, opts := convInputs(t, w, mustCall(t, w, method(flex, "autodiff")).(*Device))
			return mustPanic(t, w, fn("conv2d", x, weight, enum("Option", "Some", ones(t, w, flex, "", 4)), opts))
		},
		message: "Optional tensor bias is on the wrong device"},
	{id: "bt-bridge-bool-scatter",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			m := ones(t, w, d, "Bool", 2, 3)
			return mustPanic(t, w, method(m, "scatter", i(1), ones(t, w, d, "Int", 2, 3), m, enum("IndexingUpdateOp", "Assign")))
		},
		message: "not implemented"},
	{id: "bt-bridge-bool-select-assign",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			m := ones(t, w, d, "Bool", 2, 3)
			return mustPanic(t, w, method(m, "select_assign", i(0), ones(t, w, d, "Int", 2), m, enum("IndexingUpdateOp", "Mul")))
		}},
	{id: "bt-bridge-bool-scatter-nd",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, method(ones(t, w, d, "Bool", 4, 5), "scatter_nd", ones(t, w, d, "Int", 2, 2), ones(t, w, d, "Bool", 2), enum("IndexingUpdateOp", "Add")))
		},
		message: "scatter_nd is not supported for bool tensors"},
	{id: "bt-bridge-bool-gather-nd",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, method(ones(t, w, d, "Bool", 4, 5), "gather_nd", ones(t, w, d, "Int", 2, 2)))
		},
		message: "gather_nd is not supported for bool tensors"},
	{id: "ad-select-assign-update",
		run: func(t *testing.T, w *World) *Panic {
			ad := mustCall(t, w, method(mustCall(t, w, fn("Device::default")), "autodiff")).(*Device)
			x := ones(t, w, ad, "", 4, 3)
			return mustPanic(t, w, method(x, "select_assign", i(0), ones(t, w, ad, "Int", 2), ones(t, w, ad, "", 2, 3), enum("IndexingUpdateOp", "Max")))
		},
		message: "not implemented: float_select_assign with Max update is not implemented"},
	{id: "disp-remote-server-libtorch", features: []string{"tch", "remote-server", "remote-websocket"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fn("burn::server::start", device(t, w, "libtorch"), &Enum{Type: "Channel", Variant: "WebSocket", Named: map[string]Value{"port": i(3000)}}))
		},
		message: "LibTorch is not supported as a remote-server backend (no BackendIr impl)"},
	{id: "disp-remote-server-capture", features: []string{"capture", "remote-server"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fn("burn::server::start", device(t, w, "capture"), &Enum{Type: "Default", Variant: "default"}))
		}},
	{id: "rem-service-call-ensure", features: []string{"remote-websocket"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fn("Device::remote_websocket", Str("ws://localhost:3000"), i(0)))
		},
		message: "Service call failed: CallError(task panicked on device runner thread: Failed to open remote 'session' channel to ws://localhost:3000: Tungstenite(Io(Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" })). Is a `burn-remote` compute node running at that peer?)"},
	{id: "bt-bridge-float-from-data", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fnG("Tensor::from_data", []string{"1"}, arr(i(1), i(2)), Tuple{ref(device(t, w, "flex")), enum("DType", "I32")}))
		},
		message: "Expected float dtype, got I32"},
	{id: "bt-check-creation-0dim",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default"))
			return mustPanic(t, w, fnG("Tensor::zeros", []string{"0"}, arr(), ref(d)))
		}},
	{id: "std-float-dtype", features: []string{"flex"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fnG("Tensor::ones", []string{"1"}, dims(2), Tuple{ref(device(t, w, "flex")), enum("DType", "I64")}))
		},
		message: "Expected float data type, got I64"},
	{id: "bt-bridge-int-mean-empty",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, method(ones(t, w, d, "Int", 0), "mean"))
		},
		message: "Cannot compute mean of an empty int tensor"},
	{id: "bt-bridge-int-mean-dim-empty",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default")).(*Device)
			return mustPanic(t, w, method(ones(t, w, d, "Int", 2, 0), "mean_dim", i(-1)))
		},
		message: "Cannot compute mean of an empty axis for an int tensor"},
	{id: "bt-check-one-hot-range",
		run: func(t *testing.T, w *World) *Panic {
			d := mustCall(t, w, fn("Device::default"))
			labels := mustCall(t, w, fnG("Tensor::from_ints", []string{"1", "Int"}, arr(i(1), i(3)), ref(d)))
			return mustPanic(t, w, method(labels, "one_hot", i(3)))
		}},
	{id: "bt-check-stack-empty",
		run: func(t *testing.T, w *World) *Panic {
			// The turbofish of stack itself is the last path segment's.
			c := fn("Tensor::stack", &Array{Vec: true}, i(0))
			c.Generics = [][]string{{"1"}, {"2"}}
			return mustPanic(t, w, c)
		}},
	{id: "shape-overflow",
		run: func(t *testing.T, w *World) *Panic {
			s := mustCall(t, w, fn("Shape::new", dims(1<<32, 1<<32)))
			return mustPanic(t, w, method(s, "num_elements"))
		},
		message: "attempt to multiply with overflow"},
	{id: "playground-missing-hardware", features: []string{"cuda"},
		run: func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fnG("Tensor::ones", []string{"1"}, dims(2), ref(device(t, w, "cuda", i(3)))))
		}},
}

func TestPanicRows(t *testing.T) {
	for _, c := range panicCases {
		t.Run(c.id, func(t *testing.T) {
			w := worldFor(t, c)
			p := c.run(t, w)
			if p.ID != c.id {
				t.Fatalf("panic id = %q, want %q (message %q)", p.ID, c.id, p.Message)
			}
			if c.message != "" && p.Message != c.message {
				t.Errorf("message:\n got %q\nwant %q", p.Message, c.message)
			}
			checkAgainstTable(t, p)
			want := "thread 'main' panicked at " + p.Location + ":\n" + p.Message
			if p.Location == "" {
				want = "thread 'main' panicked:\n" + p.Message
			}
			if p.Rendered() != want {
				t.Errorf("Rendered() = %q, want %q", p.Rendered(), want)
			}
		})
	}
}

func TestPanicRecordsTheFailingOp(t *testing.T) {
	w := world(t, "flex", "cuda")
	a := ones(t, w, device(t, w, "flex"), "", 2)
	b := ones(t, w, device(t, w, "cuda", i(0)), "", 2)
	mustPanic(t, w, method(a, "powf", b))
	last := w.Trace()[len(w.Trace())-1]
	if last.Op != "float_powf" || last.Note != "panic" || last.Backend != "Flex" {
		t.Errorf("last trace event = %+v, want the panicking float_powf on Flex", last)
	}
}

// The mechanical fixes of the panics that have one, applied to the call's
// source text, give a program that runs clean.
func TestPanicFixesRunClean(t *testing.T) {
	w := world(t, "flex")
	flex := device(t, w, "flex")
	ad := mustCall(t, w, method(flex, "autodiff")).(*Device)

	// Device::flex().autodiff().autodiff() -> {0}: the receiver already has autodiff.
	p := mustPanic(t, w, method(ad, "autodiff"))
	if len(p.Fixes) != 1 || p.Fixes[0].Arg != -1 || p.Fixes[0].NewText != "{0}" {
		t.Errorf("autodiff twice fix = %+v", p.Fixes)
	}
	// flex.gradient_checkpointing() -> flex.autodiff().gradient_checkpointing()
	p = mustPanic(t, w, method(flex, "gradient_checkpointing"))
	if p.Fixes[0].NewText != "{0}.autodiff().gradient_checkpointing()" {
		t.Errorf("gradient checkpointing fix = %+v", p.Fixes)
	}
	mustCall(t, w, method(mustCall(t, w, method(flex, "autodiff")), "gradient_checkpointing"))
	// x.inner() on a plain tensor -> x.no_grad()
	x := ones(t, w, flex, "", 2)
	p = mustPanic(t, w, method(x, "inner"))
	if p.Fixes[0].NewText != "{0}.no_grad()" {
		t.Errorf("inner fix = %+v", p.Fixes)
	}
	mustCall(t, w, method(x, "no_grad"))
	// tracked.to_device(&plain) -> tracked.inner().to_device(&plain)
	tracked := ones(t, w, ad, "", 2)
	p = mustPanic(t, w, method(tracked, "to_device", ref(flex)))
	if p.Fixes[0].NewText != "{0}.inner().to_device({1})" {
		t.Errorf("to_device fix = %+v", p.Fixes)
	}
	mustCall(t, w, method(mustCall(t, w, method(tracked, "inner")), "to_device", ref(flex)))
}

// convInputs are an image batch, filters and options for conv2d on d.
func convInputs(t *testing.T, w *World, d *Device) (*Tensor, *Tensor, Value) {
	opts := mustCall(t, w, fn("burn::tensor::ops::ConvOptions::new", dims(1, 1), dims(1, 1), dims(1, 1), i(1)))
	return ones(t, w, d, "", 2, 3, 8, 8), ones(t, w, d, "", 4, 3, 3, 3), opts
}

package dispatch

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The tests build their feature sets the way Cargo does, from Burn's own
// feature graph, so a test that enables `burn/cuda` sees exactly the
// burn-tensor and burn-dispatch features a real build would.

var (
	featureGraphOnce sync.Once
	featureGraph     map[string][]string
	featureGraphErr  error
)

func loadFeatureGraph(t testing.TB) map[string][]string {
	featureGraphOnce.Do(func() {
		data, err := os.ReadFile("../config/features.tsv")
		if err != nil {
			featureGraphErr = err
			return
		}
		featureGraph = map[string][]string{}
		for i, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, "\t")
			if i == 0 || len(f) < 2 {
				continue
			}
			var enables []string
			if len(f) > 2 {
				enables = strings.Fields(f[2])
			}
			featureGraph[f[0]+"/"+f[1]] = enables
		}
	})
	if featureGraphErr != nil {
		t.Fatalf("reading Burn's feature graph: %v", featureGraphErr)
	}
	return featureGraph
}

// features propagates burn's features (with or without its defaults)
// through the graph.
func features(t testing.TB, defaults bool, burn ...string) map[string]bool {
	graph := loadFeatureGraph(t)
	on := map[string]bool{}
	var queue []string
	if defaults {
		queue = append(queue, "burn/default")
	}
	for _, f := range burn {
		queue = append(queue, "burn/"+f)
	}
	for len(queue) > 0 {
		key := queue[0]
		queue = queue[1:]
		if on[key] {
			continue
		}
		on[key] = true
		crate, _, _ := strings.Cut(key, "/")
		for _, tok := range graph[key] {
			switch {
			case strings.HasPrefix(tok, "dep:"):
			case strings.Contains(tok, "/"):
				c, f, _ := strings.Cut(tok, "/")
				queue = append(queue, strings.TrimSuffix(c, "?")+"/"+f)
			default:
				queue = append(queue, crate+"/"+tok)
			}
		}
	}
	return on
}

// world builds a World for a default burn build plus extra burn features.
func world(t testing.TB, extra ...string) *World {
	return NewWorld(Config{Features: features(t, true, extra...), Hardware: Hardware{Cuda: 2, Rocm: 1, Wgpu: []string{"DiscreteGpu", "IntegratedGpu"}, Metal: true, Vulkan: true}})
}

// call runs a call and fails the test on any error.
func mustCall(t testing.TB, w *World, c Call) Value {
	t.Helper()
	v, err := w.Call(c)
	if err != nil {
		t.Fatalf("%s: unexpected error: %v", describe(c), err)
	}
	return v
}

// mustPanic runs a call that must panic and returns the panic.
func mustPanic(t testing.TB, w *World, c Call) *Panic {
	t.Helper()
	_, err := w.Call(c)
	var p *Panic
	if !errors.As(err, &p) {
		t.Fatalf("%s: want a Burn panic, got %v", describe(c), err)
	}
	return p
}

// mustReject runs a call rustc would reject and returns the usage error.
func mustReject(t testing.TB, w *World, c Call) *UsageError {
	t.Helper()
	_, err := w.Call(c)
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("%s: want a usage error, got %v", describe(c), err)
	}
	return ue
}

func describe(c Call) string {
	if c.Path != nil {
		return strings.Join(c.Path, "::")
	}
	return Deref(c.Recv).TypeName() + "." + c.Method
}

// Call builders.
func fn(path string, args ...Value) Call { return Call{Path: strings.Split(path, "::"), Args: args} }
func fnG(path string, generics []string, args ...Value) Call {
	c := fn(path, args...)
	c.Generics = [][]string{generics, nil}
	return c
}
func method(recv Value, name string, args ...Value) Call {
	return Call{Recv: recv, Method: name, Args: args}
}
func ref(v Value) *Ref       { return &Ref{V: v} }
func i(v int64) Int          { return Int{V: v} }
func f(v float64) Float      { return Float{V: v} }
func arr(vs ...Value) *Array { return &Array{Elems: vs} }
func dims(ds ...int64) *Array {
	a := &Array{}
	for _, d := range ds {
		a.Elems = append(a.Elems, i(d))
	}
	return a
}
func enum(typ, variant string, fields ...Value) *Enum {
	return &Enum{Type: typ, Variant: variant, Fields: fields}
}

// device makes a device with a Device:: constructor.
func device(t testing.TB, w *World, name string, args ...Value) *Device {
	t.Helper()
	return mustCall(t, w, fn("Device::"+name, args...)).(*Device)
}

// ones makes Tensor::<rank, kind>::ones(shape, &d).
func ones(t testing.TB, w *World, d *Device, kind string, shape ...int64) *Tensor {
	t.Helper()
	g := []string{itoa(len(shape))}
	if kind != "" {
		g = append(g, kind)
	}
	return mustCall(t, w, fnG("Tensor::ones", g, dims(shape...), ref(d))).(*Tensor)
}

func itoa(n int) string { return strconv.Itoa(n) }

package data

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// fakeHost is the program as the loader calls it back: its batcher is
// Burn's TestBatcher (dataloader/batcher.rs:24: the items themselves),
// its steps are counted, and a budget ends them.
type fakeHost struct {
	steps, budget int
	devices       []*dispatch.Device
}

var errBudget = errors.New("budget")

func (h *fakeHost) StructFields(*dispatch.Enum) ([]string, bool, bool) { return nil, false, false }
func (h *fakeHost) ModuleFields(*dispatch.Enum) ([]string, map[string]bool, bool) {
	return nil, nil, false
}
func (h *fakeHost) Debug(v dispatch.Value) string { return fmt.Sprint(v) }
func (h *fakeHost) Call(dispatch.Value, []dispatch.Value) (dispatch.Value, error) {
	return nil, errors.New("no closure")
}
func (h *fakeHost) Step() error {
	h.steps++
	if h.budget > 0 && h.steps > h.budget {
		return errBudget
	}
	return nil
}
func (h *fakeHost) CallMethod(recv dispatch.Value, name string, args []dispatch.Value) (dispatch.Value, bool, error) {
	if o, ok := recv.(*dispatch.Opaque); !ok || o.Type != "TestBatcher" || name != "batch" || len(args) != 2 {
		return nil, false, nil
	}
	h.devices = append(h.devices, dispatch.Deref(args[1]).(*dispatch.Device))
	return args[0], true, nil
}

func ints(n int) *Dataset {
	d := &Dataset{Type: "InMemDataset"}
	for i := range n {
		d.items = append(d.items, dispatch.Int{V: int64(i)})
	}
	return d
}

func loader(ds dispatch.Value, size int) *DataLoader {
	return &DataLoader{batcher: &dispatch.Opaque{Type: "TestBatcher"}, dataset: ds, batchSize: size, device: &dispatch.Device{}}
}

// batches runs a pass with Each and returns each batch's items.
func batches(t *testing.T, h *fakeHost, d *DataLoader) ([][]dispatch.Value, bool) {
	t.Helper()
	var out [][]dispatch.Value
	complete, err := d.Each(h, func(b Batch) error {
		out = append(out, b.Output.(*dispatch.Array).Elems)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, complete
}

func TestEachBatchesInOrder(t *testing.T) {
	h := &fakeHost{}
	got, complete := batches(t, h, loader(ints(5), 2))
	if !complete || fmt.Sprint(got) != "[[{0 } {1 }] [{2 } {3 }] [{4 }]]" {
		t.Errorf("batches %v complete %v, want [0 1] [2 3] [4] (batch.rs's last batch forced)", got, complete)
	}
	if h.steps != 5 {
		t.Errorf("%d steps, want one per item", h.steps)
	}
	if len(h.devices) != 3 {
		t.Errorf("the batcher ran %d times, want 3", len(h.devices))
	}
	// slice and to_device: the batcher gets the other device.
	other := &dispatch.Device{}
	h = &fakeHost{}
	got, _ = batches(t, h, loader(ints(5), 2).Slice(1, 4).ToDevice(other))
	if fmt.Sprint(got) != "[[{1 } {2 }] [{3 }]]" || h.devices[0] != other {
		t.Errorf("sliced batches %v on %p, want [1 2] [3] on %p", got, h.devices[0], other)
	}
}

func TestEachOfADatasetFromOutsideRunsOneBatch(t *testing.T) {
	ds := &Dataset{Type: "MnistDataset", outside: &outside{item: "MnistDataset::train", newItem: mnistItem}}
	got, complete := batches(t, &fakeHost{}, loader(ds, 3))
	if complete || len(got) != 1 || len(got[0]) != 3 {
		t.Fatalf("%d batches complete %v, want one of 3 items, incomplete", len(got), complete)
	}
	item := got[0][0].(*dispatch.Enum)
	if _, unknown := item.Named["label"].(dispatch.Unknown); !unknown || !KnownShape(item.Named["image"]) {
		t.Errorf("item %v: want an unknown label and an image of known shape", item)
	}
	if n, known, _ := loader(ds, 3).NumItems(&fakeHost{}); known {
		t.Errorf("num_items %d known, want unknown", n)
	}
}

func TestShuffledBatchesForgetTheirValues(t *testing.T) {
	d := loader(ints(4), 2)
	d.shuffled = true
	got, complete := batches(t, &fakeHost{}, d)
	if !complete || len(got) != 2 || len(got[0]) != 2 {
		t.Fatalf("batches %v complete %v, want two of two", got, complete)
	}
	for _, b := range got {
		for _, v := range b {
			if _, unknown := v.(dispatch.Unknown); !unknown {
				t.Errorf("item %v of a shuffled batch is known", v)
			}
		}
	}
	// One item has one order: nothing to forget.
	d = loader(ints(1), 2)
	d.shuffled = true
	if got, _ := batches(t, &fakeHost{}, d); fmt.Sprint(got) != "[[{0 }]]" {
		t.Errorf("batches %v, want [0]", got)
	}
}

func TestBatchSizeZero(t *testing.T) {
	// One thread: FixBatchStrategy::new(0) never batches; the budget ends it.
	h := &fakeHost{budget: 100}
	if _, err := loader(ints(2), 0).Each(h, func(Batch) error { return nil }); !errors.Is(err, errBudget) {
		t.Errorf("err %v, want the budget's", err)
	}
	// Workers: split_chunks divides by zero (partial.rs:54).
	d := loader(ints(2), 0)
	d.workers = 2
	_, err := d.Each(&fakeHost{}, func(Batch) error { return nil })
	var p *dispatch.Panic
	if !errors.As(err, &p) || p.Message != "attempt to divide by zero" || p.Location != locSplitChunks {
		t.Errorf("err %v, want the division's panic", err)
	}
}

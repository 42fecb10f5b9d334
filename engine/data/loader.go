package data

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/rstd"
)

// Builder is burn-core's DataLoaderBuilder<I, O> (dataloader/builder.rs:11):
// the program's batcher and the settings build reads.
type Builder struct {
	batcher dispatch.Value
	// batchSize is the FixBatchStrategy's size, nil until batch_size is
	// called (builder.rs:57).
	batchSize *int
	// workers is num_workers' count (builder.rs:93).
	workers int
	// shuffled is set by shuffle(seed) (builder.rs:73).
	shuffled bool
	// device is set_device's (builder.rs:107), nil for the default.
	device *dispatch.Device
}

func (*Builder) TypeName() string { return "DataLoaderBuilder<_, _>" }

// DataLoader is what DataLoaderBuilder::build returns, an
// Arc<dyn DataLoader<O>> (builder.rs:121): a BatchDataLoader
// (dataloader/batch.rs:12) or, with workers, a MultiThreadDataLoader
// (dataloader/multithread.rs:18), over the program's batcher and dataset.
//
// Another crate's model iterates one with Batches or Each, exactly as the
// program's `loader.iter()` does.
type DataLoader struct {
	batcher dispatch.Value
	dataset dispatch.Value
	// batchSize is the strategy's (builder.rs:129-132: 1 when the builder
	// set none).
	batchSize int
	workers   int
	shuffled  bool
	// device is the device every batch is made on: set_device's, else
	// Device::default() when build ran (builder.rs:127), else to_device's
	// (batch.rs:102, multithread.rs:275).
	device *dispatch.Device
	// output is the batch type its consumer takes, "" when not known
	// (ForOutput, typed.go).
	output string
}

func (*DataLoader) TypeName() string { return "Arc<dyn DataLoader<_>>" }

// Device is the device the loader gives the batcher.
func (d *DataLoader) Device() *dispatch.Device { return d.device }

// BatchSize is the number of items in each batch but the last.
func (d *DataLoader) BatchSize() int { return d.batchSize }

// NumItems is DataLoader::num_items (batch.rs:98, multithread.rs:269): the
// dataset's length; known is false when the engine does not know it.
func (d *DataLoader) NumItems(h nn.Host) (n int, known bool, err error) {
	return Len(h, d.dataset)
}

// ToDevice is DataLoader::to_device (batch.rs:102, multithread.rs:275): the
// same loader, its batches made on device.
func (d *DataLoader) ToDevice(device *dispatch.Device) *DataLoader {
	out := *d
	out.device = device
	return &out
}

// Slice is DataLoader::slice(start, end) (batch.rs:116, multithread.rs:286):
// the same loader over PartialDataset::new(dataset, start, end).
func (d *DataLoader) Slice(start, end int) *DataLoader {
	out := *d
	out.dataset = &Dataset{Type: "PartialDataset", inner: d.dataset, start: start, end: end}
	return &out
}

// Batch is what one step of a loader's iterator gave.
type Batch struct {
	// Value is the iterator's item as the program sees it:
	// Ok(batch), or the Err of a dataset's get (batch.rs:176-179).
	Value dispatch.Value
	// Output is the batcher's value inside Ok, nil for an Err.
	Output dispatch.Value
}

// Iteration is one pass over a loader (one `loader.iter()`), pulled batch
// by batch.
type Iteration struct {
	d *DataLoader
	h nn.Host
	// n is the dataset's length; known is false for a dataset from
	// outside, whose iteration runs one batch.
	n     int
	known bool
	// current is BatchDataloaderIterator::current_index (batch.rs:66).
	current int
	// forget is set when the order of the items is not modelled: every
	// batch's values are then forgotten.
	forget bool
	done   bool
}

// Complete reports whether the pass runs every batch Burn runs: false for
// a dataset whose length the engine does not know, of which the pass runs
// the first batch only (the program's code and its trace for one batch;
// the rest are not run).
func (it *Iteration) Complete() bool { return it.known }

// Start begins a pass, as DataLoader::iter does (batch.rs:79,
// multithread.rs:244). Its error is a Burn panic or the program's, to be
// returned unchanged.
func (d *DataLoader) Start(h nn.Host) (*Iteration, error) {
	n, known, err := Len(h, d.dataset)
	if err != nil {
		return nil, err
	}
	if d.workers > 0 && d.batchSize == 0 {
		// MultiThreadDataLoader::initialize splits the dataset with
		// PartialDataset::split_chunks, whose total_items.div_ceil(0)
		// panics (multithread.rs:149-151, partial.rs:54).
		return nil, burnPanic("dataset-split-chunks-zero", "attempt to divide by zero", locSplitChunks)
	}
	it := &Iteration{d: d, h: h, n: n, known: known}
	// The order is Burn's StdRng's when the loader shuffles
	// (batch.rs:83-89, multithread.rs:140-147) or the dataset does, and
	// the threads' when several workers send batches (multithread.rs:336):
	// the engine batches the items in the dataset's order and forgets the
	// values it made from them.
	batches := 1
	if d.batchSize > 0 && known {
		batches = (n + d.batchSize - 1) / d.batchSize
	}
	it.forget = (d.shuffled && (!known || n > 1)) || unordered(d.dataset) || (d.workers > 1 && (!known || batches > 1))
	return it, nil
}

// Next is one step of the iterator (BatchDataloaderIterator::next,
// batch.rs:167-196): more is false when the pass is over.
func (it *Iteration) Next() (b Batch, more bool, err error) {
	if it.done {
		return Batch{}, false, nil
	}
	d, h := it.d, it.h
	size := d.batchSize
	if !it.known {
		// One batch of unknown items: the rest are not run.
		it.done = true
		if size == 0 {
			return Batch{}, false, nil
		}
		if u, ok := h.(interface{ Uncalled() bool }); ok && u.Uncalled() {
			// In a function nobody calls only compile errors count, and
			// one item shows the batcher's as well as a full batch.
			size = 1
		}
	} else {
		if it.current >= it.n {
			it.done = true
			return Batch{}, false, nil
		}
		if size == 0 {
			// FixBatchStrategy::new(0) never has a batch: next loops
			// on chunks of no item for ever (batch.rs:168-189,
			// strategy.rs:65-75). Each turn is a step of the budget.
			for {
				if err := h.Step(); err != nil {
					return Batch{}, false, err
				}
			}
		}
		size = min(size, it.n-it.current)
	}
	items := &dispatch.Array{Vec: true, Elems: make([]dispatch.Value, 0, size)}
	for i := it.current; i < it.current+size; i++ {
		if err := h.Step(); err != nil {
			return Batch{}, false, err
		}
		r, err := get(h, d.dataset, i, it.forget)
		if err != nil {
			return Batch{}, false, err
		}
		if en, isEnum := dispatch.Deref(r).(*dispatch.Enum); isEnum && en.Type == "Result" && en.Variant == "Err" {
			// get_many's `?` (base.rs:35): the iterator gives the
			// error and stays at this chunk.
			return Batch{Value: r}, true, nil
		}
		item, _ := okValue(r)
		items.Elems = append(items.Elems, item)
	}
	it.current += size
	args := []dispatch.Value{items, &dispatch.Ref{V: d.device}}
	out, found, err := dispatch.Value(nil), false, error(nil)
	if th, typed := h.(TypedHost); typed && d.output != "" {
		out, found, err = th.CallMethodReturning(d.batcher, "batch", d.output, args)
	} else {
		out, found, err = h.CallMethod(d.batcher, "batch", args)
	}
	if err != nil {
		return Batch{}, false, err
	}
	if !found {
		return Batch{}, false, &dispatch.UsageError{Code: "trait-not-implemented", Arg: -1, Message: fmt.Sprintf(
			"the trait bound `%s: Batcher<_, _>` is not satisfied", d.batcher.TypeName())}
	}
	if it.forget {
		out = forget(out)
	}
	return Batch{Value: ok(out), Output: out}, true, nil
}

// Batches is `loader.iter()` as the program's `for` loop pulls it: a lazy
// iterator of Result<O, DatasetError> (base.rs:25), each item Ok(batch).
// For a dataset from outside it gives one batch (see Iteration.Complete).
func (d *DataLoader) Batches(h nn.Host) (*rstd.Iter, error) {
	it, err := d.Start(h)
	if err != nil {
		return nil, err
	}
	return it.iter(), nil
}

// iter is the pass as a lazy iterator of Result<O, DatasetError>. Over a
// dataset whose length is unknown it is open (rstd.FromNextOpen): after its
// one batch, Burn's iterator may give more (batch.rs:167-196), so what
// depends on the number of batches (`loader.iter().count()`) is unknown.
func (it *Iteration) iter() *rstd.Iter {
	next := func() (dispatch.Value, error) {
		b, more, err := it.Next()
		if err != nil {
			return nil, err
		}
		if !more {
			return none(), nil
		}
		return some(b.Value), nil
	}
	if !it.known {
		return rstd.FromNextOpen(next)
	}
	return rstd.FromNext(next)
}

// Each runs one pass, calling fn with each batch the batcher made (the
// value inside Ok); an Err of the dataset is returned to fn as it is in
// Batch.Value with a nil Output. complete is false when the pass ran one
// batch of a dataset whose length is unknown. An error of fn ends the
// pass and is returned.
func (d *DataLoader) Each(h nn.Host, fn func(Batch) error) (complete bool, err error) {
	it, err := d.Start(h)
	if err != nil {
		return false, err
	}
	for {
		b, more, err := it.Next()
		if err != nil || !more {
			return it.Complete(), err
		}
		if err := fn(b); err != nil {
			return it.Complete(), err
		}
	}
}

// forget is a batch made from items in an order the engine does not
// know: its tensors keep their shape, kind and device, and lose their
// values; its scalars are unknown. Vecs keep their length, since the
// batches' sizes do not depend on the order.
func forget(v dispatch.Value) dispatch.Value {
	switch x := v.(type) {
	case *dispatch.Tensor:
		return x.WithoutValues()
	case *dispatch.Ref:
		return &dispatch.Ref{V: forget(x.V), Mut: x.Mut}
	case *dispatch.Device, *dispatch.Opaque, dispatch.Unit:
		return v
	}
	if out, ok := mapChildren(v, forget); ok {
		return out
	}
	return dispatch.Unknown{}
}

const locSplitChunks = "crates/burn-dataset/src/transform/partial.rs:54"

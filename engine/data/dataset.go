package data

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// Dataset is one of burn-dataset's datasets (InMemDataset, the transforms
// of transform/, and the datasets from outside): its Type names it, and
// the fields its kind uses hold what Burn's struct holds. A dataset the
// program implements itself (`impl Dataset<I> for X`) is the program's
// own value, which Len and Get call back.
type Dataset struct {
	Type string
	// items are an InMemDataset's (in_memory.rs:12).
	items []dispatch.Value
	// inner is the wrapped dataset of a transform: a *Dataset or the
	// program's value.
	inner dispatch.Value
	// parts are a ComposedDataset's datasets (composed.rs:6).
	parts []dispatch.Value
	// start and end are a PartialDataset's range (partial.rs:7).
	start, end int
	// size is a SamplerDataset's length (sampler.rs:128) or a
	// WindowsDataset's window size (window.rs:119).
	size int
	// mapper is a MapperDataset's Mapper (mapper.rs:13).
	mapper dispatch.Value
	// outside is set for a dataset from outside the program (a file, the
	// network): its length is unknown and its items are unknown values
	// of its item type.
	outside *outside
}

// outside is what the engine knows of a dataset it cannot read.
type outside struct {
	// item is the Burn item that made it (`MnistDataset::train`).
	item string
	// newItem builds one unknown-valued item of the item type.
	newItem func() dispatch.Value
}

func (d *Dataset) TypeName() string {
	if d.Type == implType {
		return d.inner.TypeName()
	}
	return d.Type + "<_>"
}

// implType is the Type of a value of the program's own type seen through
// Burn's Dataset trait, for the trait's default methods.
const implType = "impl Dataset"

// Implemented is v, a value of the program's type that implements Burn's
// Dataset trait (`impl Dataset<I> for X`), as the receiver of one of the
// trait's default methods (DefaultMethod), which the program does not
// define: they call back its get and len.
func Implemented(v dispatch.Value) dispatch.Value {
	return &Dataset{Type: implType, inner: v}
}

// DefaultMethod reports a method burn-dataset gives every Dataset: the
// trait's default methods (dataset/base.rs:29-56) and Windows::windows
// (transform/window.rs:33).
func DefaultMethod(name string) bool {
	switch name {
	case "iter", "is_empty", "get_many", "windows":
		return true
	}
	return false
}

// Outside reports whether d's items come from outside the program (a
// file, the network): its length is unknown. The Burn item that made it
// is named.
func Outside(h nn.Host, ds dispatch.Value) (item string, ok bool) {
	if o := outsideOf(ds); o != nil {
		return o.item, true
	}
	return "", false
}

// outsideOf is the dataset from outside that ds reads, nil for none.
func outsideOf(ds dispatch.Value) *outside {
	d, isBurn := dispatch.Deref(ds).(*Dataset)
	if !isBurn {
		return nil
	}
	if d.outside != nil {
		return d.outside
	}
	for _, in := range d.wrapped() {
		if o := outsideOf(in); o != nil {
			return o
		}
	}
	return nil
}

// wrapped are the datasets d reads.
func (d *Dataset) wrapped() []dispatch.Value {
	if d.inner != nil {
		return []dispatch.Value{d.inner}
	}
	return d.parts
}

// unordered reports whether the order of d's items is one the engine does
// not model: a ShuffledDataset's or a SamplerDataset's (a seeded StdRng,
// transform/shuffle.rs:39, sampler.rs:258), anywhere under d.
func unordered(ds dispatch.Value) bool {
	d, isBurn := dispatch.Deref(ds).(*Dataset)
	if !isBurn {
		return false
	}
	if d.Type == "ShuffledDataset" || d.Type == "SamplerDataset" {
		return true
	}
	for _, in := range d.wrapped() {
		if unordered(in) {
			return true
		}
	}
	return false
}

// Len is Dataset::len (dataset/base.rs:43) of a Burn dataset or of the
// program's own; known is false when the engine does not know it (a
// dataset from outside, or a len the program computes from unknown
// values).
func Len(h nn.Host, ds dispatch.Value) (n int, known bool, err error) {
	d, isBurn := dispatch.Deref(ds).(*Dataset)
	if !isBurn {
		v, ok, err := h.CallMethod(ds, "len", nil)
		if err != nil {
			return 0, false, err
		}
		if !ok {
			return 0, false, &dispatch.UsageError{Code: "trait-not-implemented", Arg: -1, Message: fmt.Sprintf(
				"the trait bound `%s: Dataset<_>` is not satisfied", ds.TypeName())}
		}
		i, isInt := dispatch.Deref(v).(dispatch.Int)
		return int(i.V), isInt, nil
	}
	switch d.Type {
	case "InMemDataset":
		return len(d.items), true, nil
	case "SamplerDataset":
		return d.size, true, nil
	case "ComposedDataset":
		// composed.rs:29-35: the sum of the lengths.
		total := 0
		for _, p := range d.parts {
			n, known, err := Len(h, p)
			if err != nil || !known {
				return 0, known, err
			}
			total += n
		}
		return total, true, nil
	case "PartialDataset":
		// partial.rs:120: min(end - start, the wrapped length), in usize.
		if d.end < d.start {
			return 0, false, burnPanic("dataset-partial-len-overflow", "attempt to subtract with overflow", locPartialLen)
		}
		n, known, err := Len(h, d.inner)
		if err != nil || !known {
			return 0, known, err
		}
		return min(d.end-d.start, n), true, nil
	case "WindowsDataset":
		// window.rs:183-186: max(len - size + 1, 0).
		n, known, err := Len(h, d.inner)
		if err != nil || !known {
			return 0, known, err
		}
		return max(n-d.size+1, 0), true, nil
	}
	if d.outside != nil {
		return 0, false, nil
	}
	// ShuffledDataset and MapperDataset keep their wrapped length.
	return Len(h, d.inner)
}

// Get is Dataset::get(index) (dataset/base.rs:22): Ok(item), the program's
// own Result for its dataset, or Burn's panic for an index out of bounds.
func Get(h nn.Host, ds dispatch.Value, index int) (dispatch.Value, error) {
	return get(h, ds, index, false)
}

// get is Get; with standIn, a shuffled or sampled dataset gives the item
// at the same index of the dataset it wraps (modulo its length), in place
// of the one Burn's StdRng would pick: the loader batches these stand-ins
// and forgets the values of the batch (see forget).
func get(h nn.Host, ds dispatch.Value, index int, standIn bool) (dispatch.Value, error) {
	if index < 0 {
		return dispatch.Unknown{}, nil
	}
	d, isBurn := dispatch.Deref(ds).(*Dataset)
	if !isBurn {
		v, ok, err := h.CallMethod(ds, "get", []dispatch.Value{usize(index)})
		if err == nil && !ok {
			err = &dispatch.UsageError{Code: "trait-not-implemented", Arg: -1, Message: fmt.Sprintf(
				"the trait bound `%s: Dataset<_>` is not satisfied", ds.TypeName())}
		}
		return v, err
	}
	if d.outside != nil {
		return ok(d.outside.newItem()), nil
	}
	switch d.Type {
	case implType:
		return get(h, d.inner, index, standIn)
	case "InMemDataset":
		if index >= len(d.items) {
			return nil, burnPanic("dataset-inmem-index", fmt.Sprintf("Index out of bounds for InMemDataset: %d >= %d", index, len(d.items)), locInMem)
		}
		return ok(cloneValue(d.items[index])), nil
	case "PartialDataset":
		// partial.rs:92-101.
		i := index + d.start
		if i < d.start || i >= d.end {
			return nil, burnPanic("dataset-partial-index", fmt.Sprintf("Index out of bounds for PartialDataset: %d >= %d", i, d.end), locPartial)
		}
		return get(h, d.inner, i, standIn)
	case "ComposedDataset":
		// composed.rs:16-28.
		current := 0
		for _, p := range d.parts {
			n, known, err := Len(h, p)
			if err != nil {
				return nil, err
			}
			if !known {
				return dispatch.Unknown{}, nil
			}
			if index < n+current {
				return get(h, p, index-current, standIn)
			}
			current += n
		}
		return nil, burnPanic("dataset-composed-index", fmt.Sprintf("Index out of bounds for ComposedDataset: %d >= %d", index, current), locComposed)
	case "MapperDataset":
		// mapper.rs:27-30: the wrapped item, mapped by reference.
		r, err := get(h, d.inner, index, standIn)
		if err != nil {
			return nil, err
		}
		item, isOk := okValue(r)
		if !isOk {
			return r, nil
		}
		v, found, err := h.CallMethod(d.mapper, "map", []dispatch.Value{&dispatch.Ref{V: item}})
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, &dispatch.UsageError{Code: "trait-not-implemented", Arg: -1, Message: fmt.Sprintf(
				"the trait bound `%s: Mapper<_, _>` is not satisfied", d.mapper.TypeName())}
		}
		return ok(v), nil
	case "WindowsDataset":
		// window.rs:168-176 and the Window impl at :16-24.
		n, known, err := Len(h, d.inner)
		if err != nil {
			return nil, err
		}
		if !known {
			return dispatch.Unknown{}, nil
		}
		if index+d.size > n {
			return nil, burnPanic("dataset-windows-index", fmt.Sprintf("Index out of bounds for WindowsDataset: %d >= %d", index, max(n-d.size+1, 0)), locWindows)
		}
		window := &dispatch.Array{Vec: true}
		for i := index; i < index+d.size; i++ {
			r, err := get(h, d.inner, i, standIn)
			if err != nil {
				return nil, err
			}
			item, isOk := okValue(r)
			if !isOk {
				return r, nil
			}
			window.Elems = append(window.Elems, item)
		}
		return ok(window), nil
	case "ShuffledDataset", "SamplerDataset":
		// The shuffled or sampled index is drawn from a StdRng the
		// engine does not model (selection.rs:229, sampler.rs:258): the
		// item is one of the wrapped dataset's, which one is unknown.
		n, known, err := Len(h, ds)
		if err != nil {
			return nil, err
		}
		if known && index >= n {
			id, msg, loc := "dataset-selection-index", fmt.Sprintf("Index out of bounds for SelectionDataset: %d >= %d", index, n), locSelection
			if d.Type == "SamplerDataset" {
				id, msg, loc = "dataset-sampler-index", fmt.Sprintf("Index out of bounds for SamplerDataset: %d >= %d", index, n), locSampler
			}
			return nil, burnPanic(id, msg, loc)
		}
		if standIn {
			m, known, err := Len(h, d.inner)
			if err != nil {
				return nil, err
			}
			if known && m > 0 {
				return get(h, d.inner, index%m, standIn)
			}
		}
		return dispatch.Unknown{}, nil
	}
	return dispatch.Unknown{}, nil
}

// Sites of burn-dataset's panics at 2c06be35.
const (
	locInMem      = "crates/burn-dataset/src/dataset/in_memory.rs:30"
	locPartial    = "crates/burn-dataset/src/transform/partial.rs:94"
	locPartialLen = "crates/burn-dataset/src/transform/partial.rs:121"
	locComposed   = "crates/burn-dataset/src/transform/composed.rs:24"
	locWindows    = "crates/burn-dataset/src/transform/window.rs:171"
	locSelection  = "crates/burn-dataset/src/transform/selection.rs:231"
	locSampler    = "crates/burn-dataset/src/transform/sampler.rs:296"
	locWindowNZ   = "crates/burn-dataset/src/transform/window.rs:141"
	locWindowsNZ  = "crates/burn-dataset/src/transform/window.rs:56"
	locGetMany    = "crates/burn-dataset/src/dataset/base.rs:34"
)

func burnPanic(id, msg, location string) *dispatch.Panic {
	return &dispatch.Panic{ID: id, Message: msg, Location: location, Input: -1}
}

func usize(n int) dispatch.Value { return dispatch.Int{V: int64(n), Suffix: "usize"} }

func ok(v dispatch.Value) dispatch.Value {
	return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []dispatch.Value{v}}
}

func some(v dispatch.Value) dispatch.Value {
	return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []dispatch.Value{v}}
}

func none() dispatch.Value { return &dispatch.Enum{Type: "Option", Variant: "None"} }

// okValue is the item of Ok(item); isOk is false for an Err or a value
// that is no Result (an unknown one), which the caller passes on as it is.
func okValue(r dispatch.Value) (dispatch.Value, bool) {
	en, isEnum := dispatch.Deref(r).(*dispatch.Enum)
	if !isEnum || en.Type != "Result" || en.Variant != "Ok" || len(en.Fields) != 1 {
		return r, false
	}
	return en.Fields[0], true
}

// cloneValue is item.clone() of an item the dataset holds (in_memory.rs:29):
// the Vecs, arrays, tuples and structs are copied, so the program's changes
// to an item it got do not reach the dataset. Tensors and scalars are
// values already.
func cloneValue(v dispatch.Value) dispatch.Value {
	if out, ok := mapChildren(v, cloneValue); ok {
		return out
	}
	return v
}

// mapChildren is a copy of a Vec or array, a tuple or a struct or enum
// value with f applied to each element or field; ok is false for any
// other value.
func mapChildren(v dispatch.Value, f func(dispatch.Value) dispatch.Value) (dispatch.Value, bool) {
	switch x := v.(type) {
	case *dispatch.Array:
		out := &dispatch.Array{Vec: x.Vec, Elem: x.Elem, Elems: make([]dispatch.Value, len(x.Elems))}
		for i, e := range x.Elems {
			out.Elems[i] = f(e)
		}
		return out, true
	case dispatch.Tuple:
		out := make(dispatch.Tuple, len(x))
		for i, e := range x {
			out[i] = f(e)
		}
		return out, true
	case *dispatch.Enum:
		out := *x
		if x.Fields != nil {
			out.Fields = make([]dispatch.Value, len(x.Fields))
			for i, e := range x.Fields {
				out.Fields[i] = f(e)
			}
		}
		if x.Named != nil {
			out.Named = make(map[string]dispatch.Value, len(x.Named))
			for k, e := range x.Named {
				out.Named[k] = f(e)
			}
		}
		return &out, true
	}
	return nil, false
}

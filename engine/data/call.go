package data

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// moduleSegments are the crate and module segments before an item of
// burn-dataset or of burn-core's data module.
var moduleSegments = map[string]bool{"burn": true, "burn_dataset": true, "burn_core": true, "data": true,
	"dataset": true, "dataloader": true, "batcher": true, "transform": true, "vision": true, "source": true,
	"huggingface": true, "nlp": true, "audio": true, "prelude": true, "network": true}

func itemPath(p []string) []string {
	for len(p) > 2 && moduleSegments[p[0]] {
		p = p[1:]
	}
	return p
}

// uncheckedHost is what the interpreter gives a crate model to report,
// in a run, what it did not check (playground-unchecked) at the site of
// the Burn call that is running.
type uncheckedHost interface {
	Unchecked(what, unknownWhat string)
}

func unchecked(h nn.Host, what, unknownWhat string) {
	if u, ok := h.(uncheckedHost); ok {
		u.Unchecked(what, unknownWhat)
	}
}

// boundary is the result of a call whose data lies outside the program:
// the interpreter warns (playground-unmodelled, "`item` what, which the
// playground does not have", Burn's site in the help) and goes on with v.
func boundary(item, what, site string, v dispatch.Value) error {
	return &nn.Boundary{Item: item, What: what, Site: site, Value: v}
}

// Call answers the calls of a program into burn-dataset and into
// burn-core's data::dataloader: handled is false for every other call.
func Call(w *dispatch.World, c dispatch.Call, h nn.Host) (v dispatch.Value, handled bool, err error) {
	if len(c.Path) > 0 {
		p := itemPath(c.Path)
		if len(p) != 2 {
			return nil, false, nil
		}
		return assocCall(w, p[0], p[1], c, h)
	}
	switch r := dispatch.Deref(c.Recv).(type) {
	case *Builder:
		v, err := builderMethod(w, r, c)
		return v, true, err
	case *DataLoader:
		v, err := loaderMethod(r, c, h)
		return v, true, err
	case *Dataset:
		v, err := datasetMethod(r, c, h)
		return v, true, err
	case *Loader:
		v, err := hfMethod(r, c, h)
		return v, true, err
	}
	return nil, false, nil
}

// fileArg names the file a call reads: its first argument's text.
func fileArg(c dispatch.Call) string {
	if len(c.Args) > 0 {
		if s, ok := dispatch.Deref(c.Args[0]).(dispatch.Str); ok {
			return "`" + string(s) + "`"
		}
	}
	return "a file"
}

func wrongArity(want, got int) *dispatch.UsageError {
	s, was := "s", "were"
	if want == 1 {
		s = ""
	}
	if got == 1 {
		was = "was"
	}
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: fmt.Sprintf(
		"this function takes %d argument%s but %d argument%s %s supplied", want, s, got, plural(got), was)}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func mismatch(i int, want string, got dispatch.Value) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: i + 1, Message: fmt.Sprintf(
		"mismatched types: expected `%s`, found `%s`", want, got.TypeName())}
}

// intArg is argument i as a usize; known is false for an unknown value.
func intArg(c dispatch.Call, i int, typ string) (n int64, known bool, err error) {
	switch x := dispatch.Deref(c.Args[i]).(type) {
	case dispatch.Int:
		if x.V < 0 {
			// No usize is negative: rustc rejects the literal.
			return 0, false, mismatch(i, typ, c.Args[i])
		}
		return x.V, true, nil
	case dispatch.Unknown:
		return 0, false, nil
	}
	return 0, false, mismatch(i, typ, c.Args[i])
}

// datasetArg is argument i as a dataset: one of Burn's or the program's
// own value (which Len and Get call back).
func datasetArg(c dispatch.Call, i int) dispatch.Value {
	v := c.Args[i]
	if r, ok := v.(*dispatch.Ref); ok {
		return r.V
	}
	return v
}

func assocCall(w *dispatch.World, typ, name string, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	switch typ {
	case "split":
		if name != "split_dataloader" {
			return nil, false, nil
		}
		v, err := splitLoader(c, h)
		return v, true, err
	case "DataLoaderBuilder":
		if name != "new" {
			return nil, false, nil
		}
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		// builder.rs:33-44.
		return &Builder{batcher: datasetArg(c, 0)}, true, nil
	case "InMemDataset":
		return inMemCall(name, c, h)
	case "PartialDataset":
		if name != "new" || len(c.Args) != 3 {
			if name == "new" {
				return nil, true, wrongArity(3, len(c.Args))
			}
			return nil, false, nil
		}
		start, k1, err := intArg(c, 1, "usize")
		if err != nil {
			return nil, true, err
		}
		end, k2, err := intArg(c, 2, "usize")
		if err != nil {
			return nil, true, err
		}
		if !k1 || !k2 {
			return dispatch.Unknown{}, true, nil
		}
		return &Dataset{Type: "PartialDataset", inner: datasetArg(c, 0), start: int(start), end: int(end)}, true, nil
	case "ShuffledDataset":
		if name != "new" && name != "with_seed" {
			return nil, false, nil
		}
		if len(c.Args) != 2 {
			return nil, true, wrongArity(2, len(c.Args))
		}
		// shuffle.rs:39: a SelectionDataset of every index, shuffled by
		// the StdRng of the seed (or the one given).
		return &Dataset{Type: "ShuffledDataset", inner: datasetArg(c, 0)}, true, nil
	case "SamplerDataset":
		return samplerCall(name, c, h)
	case "MapperDataset":
		if name != "new" {
			return nil, false, nil
		}
		if len(c.Args) != 2 {
			return nil, true, wrongArity(2, len(c.Args))
		}
		return &Dataset{Type: "MapperDataset", inner: datasetArg(c, 0), mapper: datasetArg(c, 1)}, true, nil
	case "ComposedDataset":
		if name != "new" {
			return nil, false, nil
		}
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		arr, ok := dispatch.Deref(c.Args[0]).(*dispatch.Array)
		if !ok {
			if _, unknown := dispatch.Deref(c.Args[0]).(dispatch.Unknown); unknown {
				return dispatch.Unknown{}, true, nil
			}
			return nil, true, mismatch(0, "Vec<D>", c.Args[0])
		}
		return &Dataset{Type: "ComposedDataset", parts: append([]dispatch.Value(nil), arr.Elems...)}, true, nil
	case "WindowsDataset":
		if name != "new" {
			return nil, false, nil
		}
		if len(c.Args) != 2 {
			return nil, true, wrongArity(2, len(c.Args))
		}
		size, known, err := intArg(c, 1, "usize")
		if err != nil {
			return nil, true, err
		}
		if !known {
			return dispatch.Unknown{}, true, nil
		}
		if size == 0 {
			// window.rs:141: NonZeroUsize::new(size).expect(..).
			return nil, true, burnPanic("dataset-window-size", "window size must be non-zero", locWindowNZ)
		}
		return &Dataset{Type: "WindowsDataset", inner: datasetArg(c, 0), size: int(size)}, true, nil
	}
	return outsideCall(w, typ, name, c, h)
}

// splitLoader is split_dataloader(dataloader, devices)
// (dataloader/split.rs:8-33): with more than one device, a slice of the
// items per device moved to it, the last taking the remainder; else the
// loader itself.
func splitLoader(c dispatch.Call, h nn.Host) (dispatch.Value, error) {
	if len(c.Args) != 2 {
		return nil, wrongArity(2, len(c.Args))
	}
	d, ok := dispatch.Deref(c.Args[0]).(*DataLoader)
	if !ok {
		return nil, mismatch(0, "Arc<dyn DataLoader<O>>", c.Args[0])
	}
	devs, ok := dispatch.Deref(c.Args[1]).(*dispatch.Array)
	if !ok {
		return nil, mismatch(1, "&[Device]", c.Args[1])
	}
	out := &dispatch.Array{Vec: true}
	if len(devs.Elems) <= 1 {
		out.Elems = append(out.Elems, d)
		return out, nil
	}
	n, known, err := d.NumItems(h)
	if err != nil || !known {
		return dispatch.Unknown{}, err
	}
	step := n / len(devs.Elems)
	start := 0
	for i, e := range devs.Elems {
		dev, ok := dispatch.Deref(e).(*dispatch.Device)
		if !ok {
			return dispatch.Unknown{}, nil
		}
		end := start + step
		if i == len(devs.Elems)-1 {
			end = n
		}
		out.Elems = append(out.Elems, d.Slice(start, end).ToDevice(dev))
		start = end
	}
	return out, nil
}

func inMemCall(name string, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	switch name {
	case "new":
		// in_memory.rs:18.
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		switch x := dispatch.Deref(c.Args[0]).(type) {
		case *dispatch.Array:
			return &Dataset{Type: "InMemDataset", items: append([]dispatch.Value(nil), x.Elems...)}, true, nil
		case dispatch.Unknown:
			return dispatch.Unknown{}, true, nil
		}
		return nil, true, mismatch(0, "Vec<I>", c.Args[0])
	case "from_dataset":
		// in_memory.rs:46-52: every item of the dataset, unwrapped.
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		ds := datasetArg(c, 0)
		if o := outsideOf(ds); o != nil {
			// Every item of a dataset from outside: still unknown.
			return &Dataset{Type: "InMemDataset", outside: o}, true, nil
		}
		n, known, err := Len(h, ds)
		if err != nil {
			return nil, true, err
		}
		if !known {
			return dispatch.Unknown{}, true, nil
		}
		items := make([]dispatch.Value, 0, n)
		for i := range n {
			if err := h.Step(); err != nil {
				return nil, true, err
			}
			r, err := Get(h, ds, i)
			if err != nil {
				return nil, true, err
			}
			item, isOk := okValue(r)
			if !isOk {
				return dispatch.Unknown{}, true, nil
			}
			items = append(items, item)
		}
		return &Dataset{Type: "InMemDataset", items: items}, true, nil
	case "from_json_rows", "from_csv":
		// in_memory.rs:57, :81: read from a file.
		item := "InMemDataset::" + name
		site := "crates/burn-dataset/src/dataset/in_memory.rs:57"
		if name == "from_csv" {
			site = "crates/burn-dataset/src/dataset/in_memory.rs:81"
		}
		ds := &Dataset{Type: "InMemDataset", outside: &outside{item: item, newItem: itemMaker(h, itemType(c, "InMemDataset"))}}
		return nil, true, boundary(item, "reads its items from "+fileArg(c), site, ok(ds))
	}
	return nil, false, nil
}

func samplerCall(name string, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	switch name {
	case "new", "with_replacement", "without_replacement":
	default:
		return nil, false, nil
	}
	if len(c.Args) != 2 {
		return nil, true, wrongArity(2, len(c.Args))
	}
	ds := datasetArg(c, 0)
	// SamplerDatasetOptions: a usize is a fixed size (sampler.rs:43-47);
	// options the engine does not read leave the size unknown, as does a
	// dataset of unknown length with the default size (options.rs:108).
	size, known, err := intArg(c, 1, "usize")
	if err != nil {
		if name != "new" {
			return nil, true, err
		}
		known = false
	}
	if !known {
		return dispatch.Unknown{}, true, nil
	}
	return &Dataset{Type: "SamplerDataset", inner: ds, size: int(size)}, true, nil
}

// itemType is the item type a call names: its turbofish
// (`InMemDataset::<T>::from_csv`, `.dataset::<T>(..)`) or the declared
// type of the value (`let d: SqliteDataset<T> = ..`); "" when none does.
func itemType(c dispatch.Call, wrapper string) string {
	for _, g := range c.Generics {
		if len(g) == 1 {
			return strings.TrimSpace(g[0])
		}
	}
	t := strings.TrimSpace(c.Expect)
	for _, w := range []string{"Result<", wrapper + "<", "SqliteDataset<"} {
		if inner, ok := strings.CutPrefix(t, w); ok {
			t = inner
		}
	}
	if i := strings.IndexAny(t, ",>"); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// itemMaker builds unknown items of the program's type typ: a struct
// whose every field is unknown (so the program's batcher runs on it and
// nothing it computes from the values is checked), or an unknown value
// when typ is not a struct the program declares.
func itemMaker(h nn.Host, typ string) func() dispatch.Value {
	fields, isStruct, ok := h.StructFields(&dispatch.Enum{Type: typ, Variant: typ})
	if typ == "" || !ok || !isStruct || len(fields) == 0 {
		return func() dispatch.Value { return dispatch.Unknown{} }
	}
	return func() dispatch.Value {
		en := &dispatch.Enum{Type: typ, Variant: typ, Named: make(map[string]dispatch.Value, len(fields))}
		for _, f := range fields {
			en.Named[f] = dispatch.Unknown{}
		}
		return en
	}
}

func builderMethod(w *dispatch.World, b *Builder, c dispatch.Call) (dispatch.Value, error) {
	out := *b
	switch c.Method {
	case "batch_size":
		// builder.rs:57.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		n, known, err := intArg(c, 0, "usize")
		if err != nil {
			return nil, err
		}
		if !known {
			return dispatch.Unknown{}, nil
		}
		size := int(n)
		out.batchSize = &size
	case "shuffle":
		// builder.rs:73.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		out.shuffled = true
	case "num_workers":
		// builder.rs:93.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		n, known, err := intArg(c, 0, "usize")
		if err != nil {
			return nil, err
		}
		if !known {
			// Whether the loader has workers decides only its order,
			// which the engine does not model with several of them.
			n = 2
		}
		out.workers = int(n)
	case "set_device":
		// builder.rs:107: the device every batch is made on.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		d, ok := dispatch.Deref(c.Args[0]).(*dispatch.Device)
		if !ok {
			return nil, mismatch(0, "Device", c.Args[0])
		}
		out.device = d
	case "build":
		// builder.rs:121-154.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		device := b.device
		if device == nil {
			v, err := w.Call(dispatch.Call{Path: []string{"Device", "default"}})
			if err != nil {
				return nil, err
			}
			d, ok := v.(*dispatch.Device)
			if !ok {
				return dispatch.Unknown{}, nil
			}
			device = d
		}
		size := 1
		if b.batchSize != nil {
			size = *b.batchSize
		}
		return &DataLoader{batcher: b.batcher, dataset: datasetArg(c, 0), batchSize: size,
			workers: b.workers, shuffled: b.shuffled, device: device}, nil
	default:
		return nil, unknownMethod("DataLoaderBuilder<_, _>", c.Method)
	}
	return &out, nil
}

func unknownMethod(typ, name string) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `%s` in the current scope", name, typ)}
}

func loaderMethod(d *DataLoader, c dispatch.Call, h nn.Host) (dispatch.Value, error) {
	switch c.Method {
	case "iter":
		if len(c.Args) != 0 {
			return nil, wrongArity(0, len(c.Args))
		}
		it, err := d.Start(h)
		if err != nil {
			return nil, err
		}
		if !it.Complete() {
			what := "its dataset"
			if item, isOutside := Outside(h, d.dataset); isOutside {
				what = "the dataset of `" + item + "`"
			}
			unchecked(h, "every batch after the first of this loader",
				fmt.Sprintf("the length of %s, so its iterator gave one batch of %d items and stopped", what, d.batchSize))
		}
		return it.iter(), nil
	case "num_items":
		if len(c.Args) != 0 {
			return nil, wrongArity(0, len(c.Args))
		}
		n, known, err := d.NumItems(h)
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		return usize(n), nil
	case "to_device":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		dev, ok := dispatch.Deref(c.Args[0]).(*dispatch.Device)
		if !ok {
			return nil, mismatch(0, "&Device", c.Args[0])
		}
		return d.ToDevice(dev), nil
	case "slice":
		if len(c.Args) != 2 {
			return nil, wrongArity(2, len(c.Args))
		}
		start, k1, err := intArg(c, 0, "usize")
		if err != nil {
			return nil, err
		}
		end, k2, err := intArg(c, 1, "usize")
		if err != nil {
			return nil, err
		}
		if !k1 || !k2 {
			return dispatch.Unknown{}, nil
		}
		return d.Slice(int(start), int(end)), nil
	case "clone":
		// Arc::clone: the same loader.
		return d, nil
	}
	return nil, unknownMethod("Arc<dyn DataLoader<_>>", c.Method)
}

func datasetMethod(d *Dataset, c dispatch.Call, h nn.Host) (dispatch.Value, error) {
	switch c.Method {
	case "len":
		n, known, err := Len(h, d)
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		return usize(n), nil
	case "is_empty":
		// base.rs:46.
		n, known, err := Len(h, d)
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		return dispatch.Bool(n == 0), nil
	case "get":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		i, known, err := intArg(c, 0, "usize")
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		return Get(h, d, int(i))
	case "get_many":
		// base.rs:29-40.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		arr, isArr := dispatch.Deref(c.Args[0]).(*dispatch.Array)
		if !isArr {
			return nil, mismatch(0, "Vec<usize>", c.Args[0])
		}
		n, known, err := Len(h, d)
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		out := &dispatch.Array{Vec: true}
		for _, e := range arr.Elems {
			i, isInt := dispatch.Deref(e).(dispatch.Int)
			if !isInt || i.V < 0 {
				return dispatch.Unknown{}, nil
			}
			if int(i.V) >= n {
				return nil, burnPanic("dataset-get-many-index", fmt.Sprintf("Index out of bounds for dataset: %d >= %d", i.V, n), locGetMany)
			}
			r, err := Get(h, d, int(i.V))
			if err != nil {
				return nil, err
			}
			item, isOk := okValue(r)
			if !isOk {
				return r, nil
			}
			out.Elems = append(out.Elems, item)
		}
		return ok(out), nil
	case "iter":
		// base.rs:51 and iterator.rs:38-47: get(0), get(1), .. len.
		n, known, err := Len(h, d)
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		return datasetIter(h, d, n), nil
	case "windows":
		// window.rs:55: NonZeroUsize::new(size).expect(..), then the
		// windows of size items at 0, 1, .. len - size.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		size, known, err := intArg(c, 0, "usize")
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		if size == 0 {
			return nil, burnPanic("dataset-windows-size", "window size must be non-zero", locWindowsNZ)
		}
		wd := &Dataset{Type: "WindowsDataset", inner: d, size: int(size)}
		n, known, err := Len(h, wd)
		if err != nil || !known {
			return dispatch.Unknown{}, err
		}
		return datasetIter(h, wd, n), nil
	case "clone":
		if d.Type == implType {
			break
		}
		return d, nil
	}
	return nil, unknownMethod(d.TypeName(), c.Method)
}

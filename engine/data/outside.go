package data

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/rstd"
)

// Datasets from outside the program: burn-dataset downloads them (the
// network) or reads them (a file, a database). Each is a boundary: a
// playground-unmodelled warning that says what lies outside, and a dataset
// of the right item type whose items are unknown values and whose length
// is unknown, so that the program's batcher and model still run on them
// (a loader runs one batch) and nothing computed from them is checked.

// Loader is burn-dataset's HuggingfaceDatasetLoader
// (source/huggingface/downloader.rs:65): its name; the builder methods
// change only where it downloads to.
type Loader struct{ name string }

func (*Loader) TypeName() string { return "HuggingfaceDatasetLoader" }

// mnistItem is an unknown MnistItem (vision/mnist.rs:27-33): an image of
// 28 rows of 28 f32s and a u8 label, every value unknown.
func mnistItem() dispatch.Value {
	return &dispatch.Enum{Type: "MnistItem", Variant: "MnistItem", Named: map[string]dispatch.Value{
		"image": unknownArray([]int{28, 28}, "f32"),
		"label": dispatch.Unknown{},
	}}
}

// unknownArray is a Rust array of the given dims of elem whose every
// element is unknown: `[[f32; 28]; 28]` read from outside.
func unknownArray(dims []int, elem string) *dispatch.Array {
	a := &dispatch.Array{Elems: make([]dispatch.Value, dims[0])}
	for i := range a.Elems {
		if len(dims) == 1 {
			a.Elems[i] = dispatch.Unknown{}
		} else {
			a.Elems[i] = unknownArray(dims[1:], elem)
		}
	}
	if len(dims) == 1 {
		a.Elem = elem
	}
	return a
}

// KnownShape reports an array from outside whose dims and element type
// this package knows and whose elements are unknown (an MnistItem's
// image): TensorData::from of it is data of that shape without values,
// so the tensors the program makes from it are traced and their values
// stay unknown. Every other array holding an unknown value makes the
// call's result unknown.
func KnownShape(v dispatch.Value) bool {
	a, ok := dispatch.Deref(v).(*dispatch.Array)
	if !ok || len(a.Elems) == 0 {
		return false
	}
	if a.Elem == "f32" {
		for _, e := range a.Elems {
			if _, unknown := e.(dispatch.Unknown); !unknown {
				return false
			}
		}
		return true
	}
	for _, e := range a.Elems {
		if !KnownShape(e) {
			return false
		}
	}
	return true
}

// imageItem is an unknown ImageDatasetItem (vision/image_folder.rs:191).
func imageItem() dispatch.Value {
	return &dispatch.Enum{Type: "ImageDatasetItem", Variant: "ImageDatasetItem", Named: map[string]dispatch.Value{
		"image": dispatch.Unknown{}, "annotation": dispatch.Unknown{}, "image_path": dispatch.Unknown{},
	}}
}

func outsideCall(w *dispatch.World, typ, name string, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	switch typ {
	case "MnistDataset":
		// vision/mnist.rs:86-96: downloads the split from the CVDF mirror.
		if name == "new" || name == "download" {
			// mnist.rs:95 and :120 are private (E0624).
			return nil, true, &dispatch.UsageError{Code: "unknown-function", Arg: -1, Message: "associated function `" + name + "` is private"}
		}
		if name != "train" && name != "test" {
			return nil, false, nil
		}
		if len(c.Args) != 0 {
			return nil, true, wrongArity(0, len(c.Args))
		}
		item := "MnistDataset::" + name
		ds := &Dataset{Type: "MnistDataset", outside: &outside{item: item, newItem: mnistItem}}
		return nil, true, boundary(item, "downloads MNIST's "+name+" split from the network (https://storage.googleapis.com/cvdf-datasets/mnist/)",
			"crates/burn-dataset/src/vision/mnist.rs:"+map[string]string{"train": "86", "test": "91"}[name], ds)
	case "downloader":
		// burn::data::network::downloader, burn-std's network.rs:21.
		if name != "download_file_as_bytes" {
			return nil, false, nil
		}
		if len(c.Args) != 2 {
			return nil, true, wrongArity(2, len(c.Args))
		}
		url := "a URL"
		if s, ok := dispatch.Deref(c.Args[0]).(dispatch.Str); ok {
			url = "`" + string(s) + "`"
		}
		return nil, true, boundary("downloader::download_file_as_bytes", "downloads "+url+" from the network",
			"crates/burn-std/src/network.rs:21", dispatch.Unknown{})
	case "HuggingfaceDatasetLoader":
		if name != "new" {
			return nil, false, nil
		}
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		s, _ := dispatch.Deref(c.Args[0]).(dispatch.Str)
		return &Loader{name: string(s)}, true, nil
	case "SqliteDataset":
		if name != "from_db_file" {
			return nil, false, nil
		}
		// dataset/sqlite.rs:109: reads a split of a database file.
		item := "SqliteDataset::from_db_file"
		ds := &Dataset{Type: "SqliteDataset", outside: &outside{item: item, newItem: itemMaker(h, itemType(c, "SqliteDataset"))}}
		return nil, true, boundary(item, "reads the SQLite database "+fileArg(c), "crates/burn-dataset/src/dataset/sqlite.rs:109", ok(ds))
	case "ImageFolderDataset":
		// vision/image_folder.rs:536-760: reads the images of a folder.
		switch name {
		case "new_classification", "new_classification_with", "new_classification_with_items",
			"new_multilabel_classification_with_items", "new_segmentation_with_items", "new_coco_detection":
		default:
			return nil, false, nil
		}
		item := "ImageFolderDataset::" + name
		ds := &Dataset{Type: "ImageFolderDataset", outside: &outside{item: item, newItem: imageItem}}
		return nil, true, boundary(item, "reads the images under "+fileArg(c), "crates/burn-dataset/src/vision/image_folder.rs", ok(ds))
	}
	return nil, false, nil
}

// hfMethod is a method of HuggingfaceDatasetLoader (downloader.rs:96-170).
func hfMethod(l *Loader, c dispatch.Call, h nn.Host) (dispatch.Value, error) {
	switch c.Method {
	case "with_subset", "with_base_dir", "with_huggingface_token", "with_huggingface_cache_dir",
		"with_huggingface_data_dir", "with_trust_remote_code", "with_use_python_venv":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		return l, nil
	case "dataset":
		// downloader.rs:154: downloads the dataset with Python's
		// `datasets`, imports it into SQLite and opens the split.
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		item := "HuggingfaceDatasetLoader::dataset"
		ds := &Dataset{Type: "SqliteDataset", outside: &outside{item: item, newItem: itemMaker(h, itemType(c, "SqliteDataset"))}}
		return nil, boundary(item, "downloads `"+l.name+"` from the Hugging Face Hub (the network) into a SQLite file",
			"crates/burn-dataset/src/source/huggingface/downloader.rs:154", ok(ds))
	case "db_file":
		return nil, boundary("HuggingfaceDatasetLoader::db_file", "downloads `"+l.name+"` from the Hugging Face Hub (the network)",
			"crates/burn-dataset/src/source/huggingface/downloader.rs:166", dispatch.Unknown{})
	}
	return nil, unknownMethod("HuggingfaceDatasetLoader", c.Method)
}

// datasetIter is Dataset::iter (base.rs:51, iterator.rs:38-47): get(0),
// get(1), .. up to the length, each a Result.
func datasetIter(h nn.Host, d dispatch.Value, n int) *rstd.Iter {
	i := 0
	return rstd.FromNext(func() (dispatch.Value, error) {
		if i >= n {
			return none(), nil
		}
		if err := h.Step(); err != nil {
			return nil, err
		}
		r, err := Get(h, d, i)
		if err != nil {
			return nil, err
		}
		i++
		return some(r), nil
	})
}

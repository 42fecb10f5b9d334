// Package data models burn-dataset (crates/burn-dataset) and burn-core's
// data::dataloader (crates/burn-core/src/data/dataloader) at Burn commit
// 2c06be35: the Dataset trait, InMemDataset and the transforms
// (PartialDataset, ShuffledDataset, SamplerDataset, MapperDataset,
// ComposedDataset, WindowsDataset), DataLoaderBuilder and the loader it
// builds, and the datasets from outside the program as boundaries.
//
// A dataset holds the program's own items (dispatch values); a dataset the
// program implements (`impl Dataset<I> for X`) is called back for its get
// and len (nn.Host). Iterating a loader (Burn's BatchDataloaderIterator,
// dataloader/batch.rs:167) takes the items in chunks of the batch size,
// charges a step per item, and calls the program's
// `Batcher::batch(&self, items: Vec<I>, device: &Device)` on the loader's
// device: set_device's, else Device::default() at build
// (dataloader/builder.rs:127), else to_device's (batch.rs:102). So the
// batcher's tensor ops are traced on that device, and a batch made on one
// device and fed to a model on another panics where Dispatch does.
//
// Order is not modelled where Burn draws it from a seeded StdRng (the
// builder's shuffle, batch.rs:83-89; ShuffledDataset, SamplerDataset;
// reproducing it needs rand's StdRng, its fork and its shuffle exactly) or
// where several worker threads race to send their batches
// (multithread.rs:336): the loader batches the items in the dataset's
// order, so the batcher and its trace run on real items, and then forgets
// the values of the batch (its tensors keep their shape, kind and device;
// its scalars become unknown), so no assertion passes on an order the
// engine guessed. What stays is one order Burn can give: with workers,
// the batches worker by worker (so a short last batch comes last); with a
// shuffle, the items of each batch are the ones in order, so a shape the
// batcher computes from which items share a batch (padding to the
// longest) is theirs. `get` on a shuffled or sampled dataset is unknown.
//
// Datasets from outside (MnistDataset::train/test, the Hugging Face
// loader, SqliteDataset, ImageFolderDataset, InMemDataset::from_csv and
// from_json_rows) report a playground-unmodelled warning naming what is
// outside (the network, a file) and are datasets of unknown length whose
// items are unknown values of the item type (an MnistItem of 28 by 28
// unknown f32s and an unknown label; the program's own struct with every
// field unknown). A loader over one runs one batch per pass and warns, in
// a run, that the remaining batches were not run.
//
// Not modelled: a panic of the batcher on a worker thread (num_workers > 0)
// ends the run where Burn's worker thread dies and the loader stops early;
// the count of batches a pass over a dataset of unknown length gives (one).
//
// Its panics are rows of engine/catalog/sites.tsv (ids dataset-...).
package data

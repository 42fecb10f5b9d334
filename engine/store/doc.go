// Package store models saving and loading at Burn commit 2c06be35:
// burn-store (crates/burn-store: PytorchStore, SafetensorsStore,
// BurnpackStore, their builders, the adapters, KeyRemapper, PathFilter and
// ModuleSnapshot's load_from and save_into) and burn-core's store
// (crates/burn-core/src/store/mod.rs: ModuleRecord, with Module's
// into_record, load_record, try_load_record, save_file, load_file and
// try_load_file, module/base.rs:257-353).
//
// At this commit records are not generic any more: there is no
// `<M as Module<B>>::Record`, no recorder (CompactRecorder,
// NamedMpkFileRecorder, BinFileRecorder, DefaultRecorder are gone), and
// a module's record is the one ModuleRecord type of burn-core's store.
// A name Burn no longer has stays rustc's error.
//
// Every file is a boundary the playground does not cross: reading one or
// writing one reports a playground-unmodelled warning that names the file
// and gives a value of the call's type. Loading into a model gives the
// model with the same structure, shapes and devices, each Param made as
// Burn makes it (Tensor::from_data on the Param's device, then its
// require_grad, store/mod.rs:394 and param/base.rs:580), from a
// TensorData whose values are unknown, so the device logic still runs and
// no assertion passes on guessed weights; the parameter ids read from a
// file are unknown too. The file's dtype is not known either: a loaded
// Param keeps its tensor's dtype (a lazy one the device's default), the
// one guess a load makes, which decides no value. Saving returns Ok(()).
//
// A BatchNorm's running mean and variance are RunningStates, recorded and
// loaded as Params are (param/running.rs:75-90), so a load leaves no
// guessed statistic either.
//
// A record taken from a model of the program (into_record, or
// ModuleRecord::from_bytes of its into_bytes, which stay in memory) and
// applied to another (load_record) is not a boundary: it holds the model's tensors,
// and applying it runs burn-core's ModuleRecordMapper (store/mod.rs:325, 237):
// paths matched, shapes checked, Missing, Unused and Apply errors raised
// as Burn raises them, and load_record's expect panics with them
// (module/base.rs:309). Its panics are rows of engine/catalog/sites.tsv
// (ids store-...).
//
// Not modelled yet: ModuleSnapshot's collect and apply (snapshots in
// memory, with their PathFilter, adapters and ApplyResult) and
// into_record_group, which are playground-unmodelled; the ApplyResult of
// a load from a file is unknown; the filters, remapping and adapters a
// store is built with are checked for their types, not followed, since
// every Param a load reaches is unknown anyway.
package store

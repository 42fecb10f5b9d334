package store

import (
	"path"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Store is a PytorchStore, SafetensorsStore or BurnpackStore: the file
// (or bytes) it reads or writes. Its builders keep the file; what they
// configure (filters, remapping, adapters, partial loading) decides what
// a load takes from the file, which the playground does not have, so
// every Param a load reaches is unknown whatever they say.
type Store struct {
	Type string // PytorchStore, SafetensorsStore, BurnpackStore
	// File is the path, "" for a store of bytes.
	File string
	// autoExtension is BurnpackStore's auto_extension (burnpack.rs:238).
	autoExtension bool
}

func (s *Store) TypeName() string { return s.Type }

// target is the file as the warning names it: BurnpackStore appends
// `.bpk` to a path without an extension unless auto_extension(false)
// (burnpack.rs:80-99).
func (s *Store) target() string {
	if s.File == "" {
		return "bytes the program passes"
	}
	f := s.File
	if s.Type == "BurnpackStore" && s.autoExtension {
		f = withBpk(f)
	}
	return "`" + f + "`"
}

// withBpk appends `.bpk` to a path without an extension, as burn-pack's
// writer and reader do for a record's file.
func withBpk(f string) string {
	if path.Ext(f) == "" {
		return f + ".bpk"
	}
	return f
}

// builders are each store's builder methods at 2c06be35 with their
// number of arguments (pytorch/store.rs:125-301,
// safetensors/store.rs:154-470, burnpack.rs:169-304).
var builders = map[string]map[string]int{
	"PytorchStore": {"with_top_level_key": 1, "filter": 1, "with_regex": 1, "with_regexes": 1, "with_full_path": 1,
		"with_full_paths": 1, "with_predicate": 1, "with_predicates": 1, "match_all": 0, "remap": 1, "with_key_remapping": 2,
		"validate": 1, "allow_partial": 1, "skip_enum_variants": 1, "map_indices_contiguous": 1},
	"SafetensorsStore": {"filter": 1, "with_regex": 1, "with_regexes": 1, "with_full_path": 1, "with_full_paths": 1,
		"with_predicate": 1, "with_predicates": 1, "match_all": 0, "remap": 1, "with_key_remapping": 2, "metadata": 2,
		"clear_metadata": 0, "validate": 1, "allow_partial": 1, "skip_enum_variants": 1, "map_indices_contiguous": 1,
		"overwrite": 1, "with_from_adapter": 1, "with_to_adapter": 1},
	"BurnpackStore": {"metadata": 2, "clear_metadata": 0, "allow_partial": 1, "validate": 1, "overwrite": 1,
		"auto_extension": 1, "with_from_adapter": 1, "with_to_adapter": 1, "with_filter": 1, "with_regex": 1,
		"with_full_path": 1, "match_all": 0, "remap": 1, "with_remap_pattern": 2, "filter": 1},
}

// constructors are each store's associated functions (pytorch/store.rs:97,
// safetensors/store.rs:114-134, burnpack.rs:90-141).
var constructors = map[string]map[string]bool{
	"PytorchStore":     {"from_file": true},
	"SafetensorsStore": {"from_file": true, "from_bytes": true, "default": true},
	"BurnpackStore":    {"from_file": true, "from_bytes": true, "from_static": true},
}

// Helper is a value of burn-store's builder types whose content only
// decides what a load takes from a file: KeyRemapper (keyremapper.rs),
// PathFilter (filter.rs) and the adapters (adapter.rs).
type Helper struct {
	Type string
}

func (h *Helper) TypeName() string { return h.Type }

// helperMethods are the builder methods of each helper type that return
// the helper again, with their number of arguments; fallible marks those
// returning Result<Self, regex::Error>.
var helperMethods = map[string]map[string]int{
	"KeyRemapper": {"add_pattern": 2},
	"PathFilter": {"with_regex": 1, "with_regexes": 1, "with_full_path": 1, "with_full_paths": 1, "with_predicate": 1,
		"with_predicates": 1, "match_all": 0, "or": 1},
	"HalfPrecisionAdapter": {"with_module": 1, "without_module": 1},
}

var fallible = map[string]bool{"KeyRemapper::add_pattern": true}

// helperConstructors are the associated functions that make a helper.
var helperConstructors = map[string]map[string]int{
	"KeyRemapper":          {"new": 0, "default": 0, "from_patterns": 1},
	"PathFilter":           {"new": 0, "all": 0, "none": 0, "default": 0, "from_regex_patterns": 1, "from_paths": 1, "from_predicate": 1},
	"HalfPrecisionAdapter": {"new": 0, "default": 0},
	"FloatCastAdapter":     {"to": 1},
	"ChainAdapter":         {"new": 2},
}

// unitAdapters are burn-store's unit-struct adapters (adapter.rs:144,
// 396, 423).
var unitAdapters = map[string]bool{"IdentityAdapter": true, "PyTorchToBurnAdapter": true, "BurnToPyTorchAdapter": true}

// isAdapter reports whether v is one of burn-store's adapters.
func isAdapter(v dispatch.Value) bool {
	switch x := dispatch.Deref(v).(type) {
	case *Helper:
		return strings.HasSuffix(x.Type, "Adapter")
	case *dispatch.Enum:
		return unitAdapters[x.Variant] && (x.Type == x.Variant || moduleSegments[x.Type])
	}
	return false
}

// Record is burn-core's ModuleRecord (store/mod.rs:83): a module's
// parameters by path. A record read from a file holds nothing the
// playground knows: applying it loads every Param with unknown values.
type Record struct {
	entries []entry
	// file is where the record was read from, "" for one taken from a
	// module of the program.
	file string
	// The load-time settings (store/mod.rs:126-164).
	castToModule, allowPartial, allowUnused, validate bool
}

// entry is one recorded parameter (RecordTensor, store/mod.rs:68).
type entry struct {
	path string
	id   dispatch.Value
	data *dispatch.TensorData
	kind dispatch.Kind
}

func (r *Record) TypeName() string { return "ModuleRecord" }

func (r *Record) known() bool { return r.file == "" }

func (r *Record) copy() *Record {
	out := *r
	return &out
}

// Bytes is burn-tensor's Bytes holding a record serialized to burnpack
// in memory (ModuleRecord::into_bytes, store/mod.rs:167): the record it
// was made from, which from_bytes gives back.
type Bytes struct {
	record *Record
}

func (b *Bytes) TypeName() string { return "Bytes" }

package catalog

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

func TestCodesAreSortedAndMatchAll(t *testing.T) {
	codes := Codes()
	if !slices.IsSorted(codes) {
		t.Error("Codes() is not sorted")
	}
	all := All()
	if len(all) != len(codes) {
		t.Fatalf("All() has %d records, Codes() %d", len(all), len(codes))
	}
	for i, r := range all {
		if r.Code != codes[i] {
			t.Fatalf("All()[%d] is %s, Codes()[%d] is %s", i, r.Code, i, codes[i])
		}
	}
}

func TestByCode(t *testing.T) {
	r, ok := ByCode("cannot-move-between-autodiff-and-non-autodiff-inst")
	if !ok {
		t.Fatal("record not found")
	}
	if r.Message != "Cannot move between autodiff and non-autodiff instances." ||
		r.FilePath != "crates/burn-dispatch/src/macros.rs" || r.Line != 368 || r.Type != "panic" {
		t.Errorf("unexpected record %+v", r)
	}
	if _, ok := ByCode("no-such-code"); ok {
		t.Error("ByCode found a record for an unknown code")
	}
}

func TestCallersCannotChangeTheCatalog(t *testing.T) {
	r, _ := ByCode("requires-autodiff-tensor")
	want := r.Solutions[0]
	r.Solutions[0] = "changed"
	r.JSON()[0] = 'x'
	again, _ := ByCode("requires-autodiff-tensor")
	if again.Solutions[0] != want || again.JSON()[0] != '{' {
		t.Error("a caller's edit leaked into the catalog")
	}
	All()[0].Tags[0] = "changed"
	if All()[0].Tags[0] == "changed" {
		t.Error("All shares its slices")
	}
}

func TestPanicRow(t *testing.T) {
	row, ok := PanicRow("disp-float-todev-ad-mix")
	if !ok {
		t.Fatal("row not found")
	}
	want := Row{
		ID: "disp-float-todev-ad-mix", File: "crates/burn-dispatch/src/macros.rs", Line: "368",
		Kind: "panic", Message: "Cannot move between autodiff and non-autodiff instances.", Cfg: "autodiff",
		Reachable: "yes",
	}
	row.Scenario = ""
	if row != want {
		t.Errorf("PanicRow = %+v\nwant %+v", row, want)
	}
	// The table writes newlines inside a message as \n.
	row, _ = PanicRow("bt-configure-already-init")
	if !strings.Contains(row.Message, "cannot be changed.\nDefault data types") {
		t.Errorf("newline not restored: %q", row.Message)
	}
	if _, ok := PanicRow("no-such-row"); ok {
		t.Error("PanicRow found an unknown id")
	}
}

func TestByPanicID(t *testing.T) {
	for id, code := range map[string]string{
		// Sites sharing one message share one record.
		"disp-backward-plain": "requires-autodiff-tensor",
		"disp-inner-plain":    "requires-autodiff-tensor",
		// Placeholder names differ, the printed text does not.
		"disp-grad-replace-backend": "the-provided-tensors-are-not-on-the-same-backend-g",
		"disp-binary-float-backend": "the-provided-tensors-are-not-on-the-same-backend-g",
		// A shorter message with the same beginning is another record.
		"disp-binary-float-any-inner": "the-provided-tensors-are-not-on-the-same-backend",
		// unimplemented! keys by its source text, without Rust's prefix.
		"disp-noad-inner":           "requires-autodiff-feature",
		"disp-float-todev-ad-cross": "autodiff-tensor-cannot-be-moved-between-backends",
		// A bare unreachable!() keys by what Rust prints.
		"disp-bt-autodiff": "internal-error-entered-unreachable-code",
		// Two different messages cut to the same slug.
		"ext-no-input-autodiff": "a-backend-extension-operation-with-no-tensor-input",
		"ext-no-input-multi":    "a-backend-extension-operation-with-no-tensor-input-2",
		// The seeds.
		"disp-remote-server-libtorch": "libtorch-is-not-supported-as-a-remote-server-backe",
		"ext-post-input-181":          "input-tensor-is-on-the-wrong-backend",
	} {
		r, ok := ByPanicID(id)
		if !ok || r.Code != code {
			t.Errorf("ByPanicID(%s) = %q, %v; want %q", id, r.Code, ok, code)
		}
	}
	if _, ok := ByPanicID("no-such-row"); ok {
		t.Error("ByPanicID found an unknown id")
	}
}

func TestTitles(t *testing.T) {
	for code, want := range map[string]string{
		// From titles.tsv.
		"input-tensor-is-on-the-wrong-backend":               "Input tensor is on the wrong backend for this dispatch",
		"device-device-settings-have-already-been-initializ": "Device settings have already been initialized and cannot be changed",
		"err": "Failed to open a remote session's channels",
		// From the message.
		"affine-is-set-to-true-but-gamma-or-beta-is-none": "Affine is set to true, but gamma or beta is None",
		// From the code.
		"invalid-utf8":          "Invalid UTF-8",
		"playground-time-limit": "Playground time limit",
	} {
		if r, _ := ByCode(code); r.Title != want {
			t.Errorf("%s: title %q, want %q", code, r.Title, want)
		}
	}
}

func TestJSONIsTheStoredRecordCompacted(t *testing.T) {
	for _, r := range All() {
		data, err := fs.ReadFile(recordFiles, "records/"+r.Code+".json")
		if err != nil {
			t.Fatal(err)
		}
		var file struct{ Record json.RawMessage }
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		json.Compact(&want, file.Record)
		if got := r.JSON(); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: JSON() differs from the stored record", r.Code)
		}
	}
	// Escapes are kept as stored, not re-encoded.
	seed, _ := ByCode("input-tensor-is-on-the-wrong-backend")
	if !bytes.Contains(seed.JSON(), []byte(`\u2014`)) {
		t.Error(`the seed's \u2014 escape was not kept`)
	}
}

func TestSearchFindsPastedPanics(t *testing.T) {
	for text, want := range map[string]string{
		"thread 'main' panicked at crates/burn-dispatch/src/macros.rs:910:\n" +
			"The provided tensors are not on the same backend. Got backends Autodiff(Flex(..)) and Flex(..).": "the-provided-tensors-are-not-on-the-same-backend-g",
		"The provided tensors are not on the same backend.":                  "the-provided-tensors-are-not-on-the-same-backend",
		"not implemented: Requires `autodiff` feature":                       "requires-autodiff-feature",
		"internal error: entered unreachable code":                           "internal-error-entered-unreachable-code",
		"BURN_DEVICE=cuda requested, but the 'cuda' feature is not enabled.": "burn-device-cuda-requested-but-the-cuda-feature-is",
		"Unknown BURN_DEVICE override: 'gpu'.":                               "unknown-burn-device-override",
		"called `Result::unwrap()` on an `Err` value: InvalidDevice":         "err-captureerror-invaliddevice",
		"assertion `left == right` failed: Gradient checkpointing strategy mismatch: Disabled vs Balanced. " +
			"Tensors in the same operation must share a strategy.\n  left: Disabled\n right: Balanced": "gradient-checkpointing-strategy-mismatch-lhs-vs-rh",
		"explicit panic": "user-panic",
		// Both kinds of playground-unmodelled warning.
		"`burn::tensor::linalg::lu` is Burn's, but the playground does not model it yet: its result is unknown, and what is computed from it is not checked": "playground-unmodelled",
		"`include_str!(\"labels.txt\")` reads `src/labels.txt`, a file of the crate this request does not carry: the playground cannot read it here":         "playground-unmodelled",
		// No pattern matches a fragment; the message containing it does.
		"mixes autodiff-tracked and untracked": "backend-extension-op-mixes-autodiff-tracked-and-un",
		// Nor a paraphrase; shared words do.
		"autodiff tensor moved between two backends": "autodiff-tensor-cannot-be-moved-between-backends",
	} {
		got := Search(text)
		if len(got) == 0 || got[0].Code != want {
			codes := make([]string, len(got))
			for i, r := range got {
				codes[i] = r.Code
			}
			t.Errorf("Search(%q) = %v, want %s first", text, codes, want)
		}
	}
	if got := Search("   "); got != nil {
		t.Errorf("Search of blank text = %v", got)
	}
	if got := Search("zzzz qqqq"); len(got) != 0 {
		t.Errorf("Search of unrelated words found %d records", len(got))
	}
	if got := Search("tensor"); len(got) > maxSearchResults {
		t.Errorf("Search returned %d records", len(got))
	}
}

func TestSearchFindsEveryRecordByItsMessage(t *testing.T) {
	for _, r := range All() {
		if r.matchesAnything || onlyPlaceholders(r.Message) {
			continue
		}
		found := false
		for _, hit := range Search(fillPlaceholders(r.Message)) {
			found = found || hit.Code == r.Code
		}
		if !found {
			t.Errorf("%s: not found by its own message", r.Code)
		}
	}
}

func TestPlaceholderGroups(t *testing.T) {
	got, err := placeholderGroups("a (.+?) b (x|y) (.+?)|(?:c)(.+)")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 3}; !slices.Equal(got, want) {
		t.Errorf("placeholderGroups = %v, want %v", got, want)
	}
}

func TestSearchRanksByTheWordingFound(t *testing.T) {
	// Both patterns occur in the text; the record whose own words cover
	// more of it wins, however long the placeholder values are.
	text := "not implemented: Requires `autodiff` feature"
	got := Search(text)
	if len(got) < 2 || got[0].Code != "requires-autodiff-feature" || !slices.ContainsFunc(got, func(r Record) bool { return r.Code == "user-panic" }) {
		t.Errorf("Search(%q) ranked %v", text, got)
	}
}

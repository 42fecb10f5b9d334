package store_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/store"
)

// testDecodeStateReadsWhatPutStores: Put refuses what DecodeState cannot
// read, with DecodeState's own error, and what it stores decodes.
func testDecodeStateReadsWhatPutStores(t *testing.T, s shareStore, _ func(testing.TB) shareStore) {
	ctx := context.Background()
	atLimit := `{"snippet":"` + strings.Repeat("x", store.MaxTextBytes) + `"}`
	// Six bytes of JSON for each byte of text: the largest encoding of a
	// state whose texts are at the limit still fits.
	escaped := `{"v":1,"config":"` + strings.Repeat(`\u0001`, store.MaxTextBytes) + `"}`
	for _, tc := range []struct {
		name, state string
		want        store.State
	}{
		{"the README's body", `{"config": "[dependencies]\nburn = \"0.22\"\n", "snippet": "let a = 1;"}`,
			store.State{Version: 1, Config: "[dependencies]\nburn = \"0.22\"\n", Snippet: "let a = 1;", Mode: "panic"}},
		{"empty", `{}`, store.State{Version: 1, Mode: "panic"}},
		{"null version", `{"v": null, "mode": "validation"}`, store.State{Version: 1, Mode: "validation"}},
		{"unknown mode", `{"v": 1, "mode": "other"}`, store.State{Version: 1, Mode: "panic"}},
		{"unknown field", `{"v": 1, "snippet": "a", "theme": 3}`, store.State{Version: 1, Snippet: "a", Mode: "panic"}},
		{"texts at the limit", atLimit, store.State{Version: 1, Snippet: strings.Repeat("x", store.MaxTextBytes), Mode: "panic"}},
		{"escaped at the limit", escaped, store.State{Version: 1, Config: strings.Repeat("\x01", store.MaxTextBytes), Mode: "panic"}},
		{"a crate's files", `{"v": 1, "snippet": "mod model;", "files": {"src/model.rs": "pub fn two() {}"}}`,
			store.State{Version: 1, Snippet: "mod model;", Mode: "panic", Files: map[string]string{"src/model.rs": "pub fn two() {}"}}},
	} {
		got, err := store.DecodeState([]byte(tc.state))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: DecodeState = %.80v, %v", tc.name, got, err)
			continue
		}
		id, err := s.Put(ctx, []byte(tc.state))
		if err != nil {
			t.Errorf("%s: Put: %v", tc.name, err)
			continue
		}
		stored, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := store.DecodeState(stored); err != nil || !reflect.DeepEqual(again, tc.want) {
			t.Errorf("%s: the stored state decodes as %.80v, %v", tc.name, again, err)
		}
	}
	for _, tc := range []struct{ name, state, reason string }{
		{"array", `[1,2]`, "it is an array, not a JSON object"},
		{"null", `null`, "it is null, not a JSON object"},
		{"number", `123`, "it is a number, not a JSON object"},
		{"string", ` "x"`, "it is a string, not a JSON object"},
		{"config a number", `{"config": 1}`, `"config" must be a string, not number`},
		{"mode an array", `{"mode": []}`, `"mode" must be a string, not array`},
		{"version a string", `{"v": "1"}`, `"v" must be an integer, not string`},
		{"version a fraction", `{"v": 1.5}`, `"v" must be an integer, not number 1.5`},
		{"unknown version", `{"v": 2}`, "its version 2 is unknown; this server reads version 1"},
		{"version 0", `{"v": 0}`, "its version 0 is unknown"},
		{"invalid UTF-8", "{\"snippet\": \"\xff\"}", "it is not valid UTF-8"},
		{"not JSON", `{"snippet":`, "it is not JSON"},
		{"trailing data", `{} {}`, "it is not JSON"},
		{"texts over the limit", `{"config":"a","snippet":"` + strings.Repeat("x", store.MaxTextBytes) + `"}`,
			"its texts hold 65537 bytes, more than the limit of 65536"},
		{"a file over the limit", `{"snippet":"a","files":{"src/x.rs":"` + strings.Repeat("x", store.MaxTextBytes) + `"}}`,
			"its texts hold 65545 bytes"},
		{"main.rs among the files", `{"files":{"src/main.rs":"fn main() {}"}}`, `its file name "src/main.rs" is not a crate file`},
		{"between the limits", `{"snippet":"` + strings.Repeat("x", 200_000) + `"}`, "hold 200000 bytes"},
	} {
		_, err := store.DecodeState([]byte(tc.state))
		var se *store.StateError
		if !errors.As(err, &se) || !errors.Is(err, store.ErrInvalidState) || !strings.Contains(se.Reason, tc.reason) {
			t.Errorf("%s: DecodeState error %v, want a StateError saying %q", tc.name, err, tc.reason)
		}
		if _, perr := s.Put(ctx, []byte(tc.state)); perr == nil || perr.Error() != err.Error() {
			t.Errorf("%s: Put error %v, want DecodeState's %v", tc.name, perr, err)
		}
	}
	big := []byte(`{"snippet":"` + strings.Repeat("x", store.MaxStateBytes) + `"}`)
	if _, err := store.DecodeState(big); !errors.Is(err, store.ErrTooLarge) {
		t.Errorf("over MaxStateBytes: %v", err)
	}
}

package catalog

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestEncodedJSONIsWhatEncodingJSONWrites: an encoder copies EncodedJSON as
// it is, so it must be byte for byte what json.Marshal writes for the
// record's JSON.
func TestEncodedJSONIsWhatEncodingJSONWrites(t *testing.T) {
	escaped := 0
	for _, r := range All() {
		want, err := json.Marshal(r.JSON())
		if err != nil {
			t.Fatal(err)
		}
		if got := r.EncodedJSON(); !bytes.Equal(got, want) {
			t.Fatalf("%s: EncodedJSON\n%s\njson.Marshal\n%s", r.Code, got, want)
		}
		if !bytes.Equal(r.EncodedJSON(), r.JSON()) {
			escaped++
		}
	}
	if escaped == 0 {
		t.Error("no record has a character encoding/json escapes, so this test tests nothing")
	}
}

func TestIsEncodedJSONKnowsTheCatalogsOwnSlices(t *testing.T) {
	r := All()[0]
	enc := r.EncodedJSON()
	if !IsEncodedJSON(enc) {
		t.Fatal("the catalog's own slice is not recognised")
	}
	for name, b := range map[string][]byte{
		"a copy":     bytes.Clone(enc),
		"a prefix":   enc[:len(enc)-1],
		"JSON()":     r.JSON(),
		"empty":      nil,
		"other text": []byte(`{"record":1}`),
	} {
		if IsEncodedJSON(b) {
			t.Errorf("%s is taken for a catalog slice", name)
		}
	}
}

package wasm

import (
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// The warm-up is only worth its second if it makes the engine load the
// catalog, which it does for a diagnostic with a record.
func TestWarmUpLoadsTheCatalog(t *testing.T) {
	res := engine.Run(warmUp)
	for _, d := range res.Diagnostics {
		if len(d.Record) > 0 && string(d.Record) != "null" {
			return
		}
	}
	t.Fatalf("the warm-up request gives no diagnostic with a catalog record: %+v", res)
}

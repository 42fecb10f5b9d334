package engine_test

import (
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/config"
)

// The engine refuses a Cargo.toml over its limit before config.Parse, which
// refuses the same sizes itself: the two limits must agree, or a manifest
// between them would get a different answer from Parse than from Run.
func TestConfigLimitsAgree(t *testing.T) {
	if engine.MaxConfigBytes != config.MaxBytes {
		t.Errorf("engine.MaxConfigBytes is %d, config.MaxBytes %d", engine.MaxConfigBytes, config.MaxBytes)
	}
}

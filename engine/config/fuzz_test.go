package config

import (
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
)

// FuzzParse checks that Parse survives any text, and that on a Cargo.toml
// it reads without errors, the edit AddFeatureEdit offers enables the
// feature without adding an error.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"",
		"[dependencies]\nburn = \"0.22\"\n",
		"[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"vulkan\"] }\n",
		"[dependencies.burn]\nversion = \"0.22\"\nfeatures = [\n  \"train\",\n]\n",
		"[dependencies]\nburn.version = \"0.22\"\n",
		"[features]\ndefault = [\"gpu\"]\ngpu = [\"burn/cuda\"]\n[dependencies]\nburn = { version = \"0.22\", optional = true }\n",
		"[package.metadata.playground]\nenv = { BURN_DEVICE = \"cuda\" }\nhardware = { cuda = 2, wgpu = [\"DiscreteGpu\"] }\n" +
			"[[package.metadata.playground.servers]]\naddress = \"ws://localhost:3000\"\ndevice = \"tch\"\n",
		"dependencies = { burn = { version = \"0.22\", features = [] } }\n",
		"[target.'cfg(unix)'.dev-dependencies]\nburn = '0.22'\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, diags := Parse(text)
		checkInvariants(t, "fuzz", text, c, diags)
		if diags.HasErrors() {
			return
		}
		edit, ok := c.AddFeatureEdit("cuda")
		if !ok {
			return
		}
		edited := text[:edit.Range.Start] + edit.NewText + text[edit.Range.End:]
		after, afterDiags := Parse(edited)
		if afterDiags.HasErrors() {
			t.Fatalf("the edit %+v of\n%s\nintroduces errors: %+v", edit, text, afterDiags)
		}
		if !after.Dispatch.Features["burn-dispatch/cuda"] && !hasCode(afterDiags, CodeOptionalDependency) {
			t.Fatalf("the edit %+v of\n%s\ndoes not enable cuda:\n%s", edit, text, edited)
		}
	})
}

func hasCode(diags diag.List, code string) bool {
	return count(diags, code) > 0
}

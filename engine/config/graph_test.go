package config

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestFeaturesTSVMatchesShared keeps the embedded copy of Burn's feature
// graph identical to the team's reference file when it is beside the repo.
func TestFeaturesTSVMatchesShared(t *testing.T) {
	shared, err := os.ReadFile("../../../shared/burn/features.tsv")
	if os.IsNotExist(err) {
		t.Skip("../shared/burn/features.tsv is not beside the repository")
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(shared) != featuresTSV {
		t.Fatal("engine/config/features.tsv differs from ../shared/burn/features.tsv; copy it again")
	}
}

func TestGraphImplicitFeatures(t *testing.T) {
	tests := map[string][]string{
		// burn's optional dependencies named bare in its features; burn-rl
		// and cubecl are named with dep:, so they have no implicit feature.
		"burn":          {"burn-optim", "burn-store", "burn-train", "burn-vision"},
		"burn-tensor":   {"colored"},
		"burn-dispatch": {"burn-autodiff", "burn-capture", "burn-cpu", "burn-cuda", "burn-ndarray", "burn-remote", "burn-rocm", "burn-tch", "burn-wgpu"},
	}
	for crate, want := range tests {
		var got []string
		for name := range burnGraph.implicit[crate] {
			got = append(got, name)
		}
		sort.Strings(got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("implicit features of %s = %v, want %v", crate, got, want)
		}
	}
	if burnGraph.hasFeature("burn", "burn-rl") || burnGraph.hasFeature("burn", "cubecl-x") {
		t.Error("hasFeature accepts a dep:-only dependency or a made-up name")
	}
	if got := burnGraph.features("burn")[0]; got != "default" {
		t.Errorf("features(burn) starts with %q, want the table's first row", got)
	}
}

func TestParseGraphRejectsMalformedTables(t *testing.T) {
	for name, tsv := range map[string]string{
		"no header":     "burn\tstd\t\n",
		"short row":     "crate\tfeature\tenables\nburn\tstd\n",
		"empty feature": "crate\tfeature\tenables\nburn\t\tx\n",
		"duplicate":     "crate\tfeature\tenables\nburn\tstd\ta\nburn\tstd\tb\n",
	} {
		if _, err := parseGraph(tsv); err == nil {
			t.Errorf("%s: parseGraph accepted %q", name, tsv)
		}
	}
}

func TestParseToken(t *testing.T) {
	tests := map[string]token{
		"std":                {kind: tokenFeature, feature: "std"},
		"dep:cubecl":         {kind: tokenDep, crate: "cubecl"},
		"burn-core/cuda":     {kind: tokenDepFeature, crate: "burn-core", feature: "cuda"},
		"burn-vision?/cuda":  {kind: tokenWeak, crate: "burn-vision", feature: "cuda"},
		"burn-wgpu?/fusion":  {kind: tokenWeak, crate: "burn-wgpu", feature: "fusion"},
		"burn-remote/server": {kind: tokenDepFeature, crate: "burn-remote", feature: "server"},
	}
	for s, want := range tests {
		if got := parseToken(s); got != want {
			t.Errorf("parseToken(%q) = %+v, want %+v", s, got, want)
		}
	}
}

// TestPropagation checks the closure of features through Burn's graph for
// the ways a Cargo.toml can enable them.
func TestPropagation(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		on, off  []string
	}{
		{
			name:     "default build is flex through default_backend, with autodiff via optim",
			manifest: `[dependencies]` + "\n" + `burn = "0.22"`,
			on: []string{"burn/default", "burn/optim", "burn/autodiff", "burn-core/autodiff", "burn-tensor/autodiff",
				"burn-dispatch/autodiff", "burn-dispatch/std", "burn-dispatch/default", DefaultBackend, "burn-optim/default"},
			off: []string{"burn-dispatch/flex", "burn-dispatch/cuda", "burn-train/default", "burn-vision/default"},
		},
		{
			name:     "vulkan implies wgpu",
			manifest: "[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"vulkan\"] }",
			on:       []string{"burn/vulkan", "burn/wgpu", "burn-core/vulkan", "burn-tensor/vulkan", "burn-dispatch/vulkan", "burn-dispatch/wgpu", "burn-wgpu/vulkan", "burn-dispatch/burn-wgpu"},
			off:      []string{DefaultBackend, "burn-dispatch/autodiff", "burn-dispatch/std", "burn/default"},
		},
		{
			name:     "remote-server enables remote; remote is no backend, so default_backend stays",
			manifest: "[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"remote-server\"] }",
			on:       []string{"burn-tensor/remote", "burn-tensor/remote-server", "burn-dispatch/remote", "burn-dispatch/remote-server", "burn-remote/server", "burn-remote/iroh", "burn-tensor/std", DefaultBackend},
			off:      []string{"burn-dispatch/remote-websocket"},
		},
		{
			name:     "explicit flex turns default_backend off",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"flex\"] }",
			on:       []string{"burn-dispatch/flex", "burn-dispatch/autodiff"},
			off:      []string{DefaultBackend},
		},
		{
			name:     "weak dependency features wait for their crate: train turns on burn-train",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"train\"] }",
			on:       []string{"burn/burn-train", "burn-train/default", "burn-train/rl", "burn/dataset", "burn-core/dataset", "burn-dataset/default"},
		},
		{
			name:     "weak feature of a crate that stays off",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }",
			on:       []string{"burn-dispatch/cuda", "burn-dispatch/burn-cuda"},
			off:      []string{"burn-vision/cuda", "burn-train/default"},
		},
		{
			name:     "weak feature whose crate comes on later",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"vision\"] }",
			on:       []string{"burn-vision/cuda", "burn/burn-vision", "burn-vision/default"},
		},
		{
			name:     "sub-table form",
			manifest: "[dependencies.burn]\nversion = \"0.22\"\ndefault-features = false\nfeatures = [\"ndarray\"]\n",
			on:       []string{"burn-dispatch/ndarray"},
			off:      []string{"burn/default", DefaultBackend},
		},
		{
			name:     "dotted keys",
			manifest: "[dependencies]\nburn.version = \"0.22\"\nburn.features = [\"metal\"]\n",
			on:       []string{"burn-dispatch/metal", "burn-dispatch/wgpu", "burn/default"},
		},
		{
			name:     "dotted keys from the root",
			manifest: "dependencies.burn.version = \"0.22\"\ndependencies.burn.default-features = false\n",
			on:       []string{DefaultBackend},
			off:      []string{"burn/default", "burn-dispatch/std"},
		},
		{
			name:     "renamed dependency",
			manifest: "[dependencies]\nmyburn = { package = \"burn\", version = \"0.22\", features = [\"tch\"] }\n",
			on:       []string{"burn-dispatch/tch", "burn/default"},
		},
		{
			name:     "a dependency renamed to burn is not burn",
			manifest: "[dependencies]\nburn = { package = \"not-burn\", version = \"1\" }\nburn-tensor = { version = \"0.22\", features = [\"rocm\"] }\n",
			on:       []string{"not-burn/default", "burn-dispatch/rocm", "burn-tensor/default"},
			off:      []string{"burn/default"},
		},
		{
			name:     "direct dependencies on lower crates count too; other crates are opaque",
			manifest: "[dependencies]\nburn = \"0.22\"\nburn-dispatch = { version = \"0.22\", default-features = false, features = [\"cpu\"] }\nburn-nn = { version = \"0.22\", features = [\"anything\"] }\nserde = { version = \"1\", features = [\"derive\"] }\n",
			on:       []string{"burn-dispatch/cpu", "burn-nn/anything", "burn/default", "serde/derive", "serde/default"},
			off:      []string{DefaultBackend},
		},
		{
			name:     "dev-dependencies count: the snippet runs like an example",
			manifest: "[dependencies]\nburn = \"0.22\"\n[dev-dependencies]\nburn = { version = \"0.22\", features = [\"wgpu\"] }\n",
			on:       []string{"burn-dispatch/wgpu"},
		},
		{
			name:     "the package's default features reach burn",
			manifest: "[features]\ndefault = [\"gpu\"]\ngpu = [\"burn/cuda\"]\ncpu = [\"burn/ndarray\"]\n[dependencies]\nburn = \"0.22\"\n",
			on:       []string{"burn-dispatch/cuda"},
			off:      []string{"burn-dispatch/ndarray"},
		},
		{
			name:     "an optional burn that a default feature enables",
			manifest: "[features]\ndefault = [\"ml\"]\nml = [\"dep:burn\"]\n[dependencies]\nburn = { version = \"0.22\", optional = true, features = [\"rocm\"] }\n",
			on:       []string{"burn-dispatch/rocm", "burn/default"},
		},
		{
			name:     "a weak feature of an optional burn waits for it",
			manifest: "[features]\ndefault = [\"a\", \"b\"]\na = [\"burn?/cuda\"]\nb = [\"burn\"]\n[dependencies]\nburn = { version = \"0.22\", optional = true }\n",
			on:       []string{"burn-dispatch/cuda", "burn/default"},
		},
		{
			name:     "empty Cargo.toml",
			manifest: "",
			on:       []string{"burn/default", "burn-dispatch/autodiff", DefaultBackend},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, diags := Parse(tt.manifest)
			for _, d := range diags {
				if d.Severity == "error" {
					t.Errorf("unexpected error %s: %s", d.Code, d.Message)
				}
			}
			for _, f := range tt.on {
				if !c.Dispatch.Features[f] {
					t.Errorf("%s is off, want on", f)
				}
			}
			for _, f := range tt.off {
				if c.Dispatch.Features[f] {
					t.Errorf("%s is on, want off", f)
				}
			}
			for f := range c.Dispatch.Features {
				if strings.HasPrefix(f, selfCrate) {
					t.Errorf("the package's own feature %q leaked into Features", f)
				}
			}
		})
	}
}

func TestRejectedFeaturesEnableNothing(t *testing.T) {
	c, _ := Parse("[dependencies]\nburn = { version = \"0.22\", features = [\"cudaa\", \"burn-core/cuda\", \"wgpu\"] }\n")
	for _, f := range []string{"burn/cudaa", "burn-core/cuda", "burn-dispatch/cuda"} {
		if c.Dispatch.Features[f] {
			t.Errorf("%s is on", f)
		}
	}
	if !c.Dispatch.Features["burn-dispatch/wgpu"] {
		t.Error("a valid feature beside rejected ones is off")
	}
	if want := []string{"wgpu"}; !reflect.DeepEqual(c.BurnFeatures, want) {
		t.Errorf("BurnFeatures = %v, want %v", c.BurnFeatures, want)
	}
}

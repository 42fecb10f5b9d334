package config

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
)

// wantDiag describes one expected diagnostic: at is the exact text its
// range covers, fix the new text of its first fix's edit ("" for none).
type wantDiag struct {
	severity diag.Severity
	code     string
	at       string
	message  string
	fix      string
}

func TestDiagnostics(t *testing.T) {
	const burn = "[dependencies]\nburn = \"0.22\"\n"
	tests := []struct {
		name     string
		manifest string
		want     []wantDiag
	}{
		{
			name: "a full Cargo.toml reads without findings",
			manifest: `cargo-features = ["edition2024"]
[package]
name = "demo"
version = "0.1.0"
edition = "2024"

[package.metadata.docs.rs]
all-features = true

[workspace]
members = ["."]

[lib]
path = "src/lib.rs"

[[bin]]
name = "demo"

[features]
default = []
gpu = ["burn/cuda"]

[dependencies]
burn = { version = "0.22.0-pre.2", features = ["train"] }
serde = { version = "1", features = ["derive"] }

[build-dependencies]
cc = "1"

[profile.release]
lto = true

[lints.rust]
unsafe_code = "forbid"

[patch.crates-io]
burn = { git = "https://github.com/tracel-ai/burn" }
`,
		},
		{
			name:     "unknown feature, close to a real one",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"wgpu\", \"cudaa\"] }\n",
			want:     []wantDiag{{diag.Error, "unknown-feature", `"cudaa"`, "package `burn` does not have the feature `cudaa`", `"cuda"`}},
		},
		{
			name:     "unknown feature in a literal string keeps its quotes",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = ['ndarrray'] }\n",
			want:     []wantDiag{{diag.Error, "unknown-feature", `'ndarrray'`, "package `burn` does not have the feature `ndarrray`", `'ndarray'`}},
		},
		{
			name:     "unknown feature with nothing close",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"quantum\"] }\n",
			want:     []wantDiag{{diag.Error, "unknown-feature", `"quantum"`, "package `burn` does not have the feature `quantum`", ""}},
		},
		{
			name:     "unknown feature of burn-tensor",
			manifest: "[dependencies]\nburn-tensor = { version = \"0.22\", features = [\"optim\"] }\n",
			want:     []wantDiag{{diag.Error, "unknown-feature", `"optim"`, "package `burn-tensor` does not have the feature `optim`", ""}},
		},
		{
			name:     "features of a transitive dependency",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"burn-core/cuda\", \"dep:burn-train\"] }\n",
			want: []wantDiag{
				{diag.Error, "invalid-feature", `"burn-core/cuda"`, "feature `burn-core/cuda` in dependency `burn` is not allowed to contain slashes", `"cuda"`},
				{diag.Error, "invalid-feature", `"dep:burn-train"`, "feature `dep:burn-train` in dependency `burn` is not allowed to use explicit `dep:` syntax", ""},
			},
		},
		{
			name:     "a transitive dependency's feature burn names already",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"burn-core/cuda\", \"cuda\"] }\n",
			want: []wantDiag{
				{diag.Error, "invalid-feature", `"burn-core/cuda"`, "feature `burn-core/cuda` in dependency `burn` is not allowed to contain slashes", ""},
			},
		},
		{
			name:     "wrong types in the dependency",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = \"cuda\", default-features = \"no\" }\nburn-core = { version = 22 }\n",
			want: []wantDiag{
				{diag.Error, "invalid-config", `"cuda"`, `invalid type: string "cuda", expected a sequence`, ""},
				{diag.Error, "invalid-config", `"no"`, `invalid type: string "no", expected a boolean`, ""},
				{diag.Warning, "invalid-dependency", `{ version = 22 }`, "dependency (burn-core) specified without providing a local path, Git repository, version, or workspace dependency to use", ""},
				{diag.Error, "invalid-config", `22`, "invalid type: integer `22`, expected a string", ""},
			},
		},
		{
			name:     "a feature that is not a string",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", 1] }\n",
			want:     []wantDiag{{diag.Error, "invalid-config", `1`, "invalid type: integer `1`, expected a string", ""}},
		},
		{
			name:     "a dependency that is neither a version nor a table",
			manifest: "[dependencies]\nburn = 3\n",
			want: []wantDiag{
				{diag.Error, "invalid-config", "3", "invalid type: integer `3`, expected a version string like \"0.9.8\" or a detailed dependency like { version = \"0.9.8\" }", ""},
			},
		},
		{
			name:     "no burn at all",
			manifest: "[package]\nname = \"x\"\n\n[dependencies]\nburn = { package = \"burn-fork\", version = \"1\" }\nserde = \"1\"\n",
			want:     []wantDiag{{diag.Warning, "no-burn-dependency", "[dependencies]", "Cargo.toml does not depend on `burn`; the playground assumes `burn = \"0.22\"` with default features", ""}},
		},
		{
			name:     "no burn, and a [dependencies] to add it to",
			manifest: "[dependencies]\nserde = \"1\"\n\n[profile.dev]\nopt-level = 1\n",
			want:     []wantDiag{{diag.Warning, "no-burn-dependency", "[dependencies]", "Cargo.toml does not depend on `burn`; the playground assumes `burn = \"0.22\"` with default features", "burn = \"0.22\"\n"}},
		},
		{
			name:     "a misspelt key in the dependency",
			manifest: "[dependencies.burn]\nversion = \"0.22\"\nfeaturs = [\"cuda\"]\n",
			want:     []wantDiag{{diag.Warning, "unused-manifest-key", "featurs", "unused manifest key: dependencies.burn.featurs", "features"}},
		},
		{
			name:     "deprecated default_features",
			manifest: "[dependencies]\nburn = { version = \"0.22\", default_features = false }\n",
			want:     []wantDiag{{diag.Warning, "deprecated-key", "default_features", "`default_features` is deprecated in favor of `default-features` and will not work in the 2024 edition\n(in the `burn` dependency)", "default-features"}},
		},
		{
			name:     "a misspelt dependency table",
			manifest: "[dependecies]\nburn = \"0.22\"\n",
			want: []wantDiag{
				{diag.Warning, "no-burn-dependency", "", "Cargo.toml does not depend on `burn`; the playground assumes `burn = \"0.22\"` with default features", "\n[dependencies]\nburn = \"0.22\"\n"},
				{diag.Warning, "unused-manifest-key", "dependecies", "unused manifest key: dependecies", "dependencies"},
			},
		},
		{
			name:     "unknown top-level tables that are not misspellings are legal Cargo",
			manifest: burn + "[tool.something]\nx = 1\n[package.unknown]\ny = 2\n",
		},
		{
			name:     "a workspace dependency",
			manifest: "[dependencies]\nburn = { workspace = true, features = [\"cuda\"] }\n",
			want:     []wantDiag{{diag.Warning, "workspace-dependency", `{ workspace = true, features = ["cuda"] }`, "`burn` is inherited from the workspace, which the playground cannot see; it assumes the workspace declares `burn = \"0.22\"` with default features", ""}},
		},
		{
			name:     "an optional burn nothing enables",
			manifest: "[dependencies]\nburn = { version = \"0.22\", optional = true }\n",
			want:     []wantDiag{{diag.Warning, "optional-dependency", `{ version = "0.22", optional = true }`, "`burn` is an optional dependency that no default feature enables; the playground builds it as if it were enabled", ""}},
		},
		{
			name:     "another release of burn",
			manifest: "[dependencies]\nburn = { version = \"0.16\" }\n",
			want:     []wantDiag{{diag.Warning, "burn-version", `"0.16"`, "the playground simulates `burn` 0.22 (Burn at commit 2c06be35); the requirement `0.16` selects another release, whose dispatch may differ", ""}},
		},
		{
			name:     "target-specific dependencies",
			manifest: "[target.'cfg(unix)'.dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
			want:     []wantDiag{{diag.Note, "target-dependency", "[target.'cfg(unix)'.dependencies]", "the playground cannot tell which target it runs on, so it applies `[target.'cfg(unix)'.dependencies]` as if its condition held", ""}},
		},
		{
			name:     "the package's features",
			manifest: "[features]\ngpu = [\"burn/cudaa\"]\ncpu = [\"nope\", \"serde/derive\", \"burn?/flex\"]\n" + burn,
			want: []wantDiag{
				{diag.Error, "unknown-feature", `"burn/cudaa"`, "package `burn` does not have the feature `cudaa`", `"burn/cuda"`},
				{diag.Error, "unknown-feature", `"nope"`, "feature `cpu` includes `nope` which is neither a dependency nor another feature", ""},
				{diag.Error, "unknown-feature", `"serde/derive"`, "feature `cpu` includes `serde/derive`, but `serde` is not a dependency", ""},
			},
		},
		{
			name:     "BURN_DEVICE names a backend the build lacks",
			manifest: burn + "[package.metadata.playground]\nenv = { BURN_DEVICE = \"CUDA\" }\n",
			want:     []wantDiag{{diag.Warning, "burn-device-cuda-requested-but-the-cuda-feature-is", `"CUDA"`, "BURN_DEVICE=cuda requested, but the 'cuda' feature is not enabled.", `{ version = "0.22", features = ["cuda"] }`}},
		},
		{
			name:     "BURN_DEVICE=flex without flex or default_backend",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"wgpu\"] }\n[package.metadata.playground.env]\nBURN_DEVICE = \"flex\"\n",
			want:     []wantDiag{{diag.Warning, "burn-device-flex-requested-but-the-flex-feature-is", `"flex"`, "BURN_DEVICE=flex requested, but the 'flex' feature is not enabled.", `, "flex"`}},
		},
		{
			name:     "unknown BURN_DEVICE keeps the user's spelling",
			manifest: burn + "[package.metadata.playground]\nenv = { BURN_DEVICE = \"Vulkann\" }\n",
			want:     []wantDiag{{diag.Warning, "unknown-burn-device-override", `"Vulkann"`, "Unknown BURN_DEVICE override: 'Vulkann'.", `"vulkan"`}},
		},
		{
			name:     "BURN_DEVICE without std is never read",
			manifest: "[dependencies]\nburn = { version = \"0.22\", default-features = false }\n[package.metadata.playground]\nenv = { BURN_DEVICE = \"cuda\" }\n",
			want:     []wantDiag{{diag.Warning, "burn-device-without-std", `"cuda"`, "BURN_DEVICE has no effect: burn-dispatch reads it only with its `std` feature, which is off", ""}},
		},
		{
			name:     "unknown playground key",
			manifest: burn + "[package.metadata.playground]\nhardwre = { cuda = 1 }\n",
			want:     []wantDiag{{diag.Error, "unknown-key", "hardwre", "unknown field `hardwre`, expected one of `env`, `args`, `hardware`, `servers`, `target`", "hardware"}},
		},
		{
			name:     "wrong values in env and hardware",
			manifest: burn + "[package.metadata.playground]\nenv = { SEED = 1 }\nhardware = { cuda = -1, rocm = \"2\", wgpu = [\"DiscreteGPU\", \"Tpu\"], metal = 1, tpu = 4 }\n",
			want: []wantDiag{
				{diag.Error, "invalid-config", "1", "invalid type: integer `1`, expected a string", ""},
				{diag.Error, "invalid-config", "-1", "invalid device count `-1`, expected 0 to 16", ""},
				{diag.Error, "invalid-config", `"2"`, `invalid type: string "2", expected a device count`, "2"},
				{diag.Error, "invalid-config", `"DiscreteGPU"`, "unknown wgpu adapter kind `DiscreteGPU`, expected one of DiscreteGpu, IntegratedGpu, VirtualGpu, Cpu", `"DiscreteGpu"`},
				{diag.Error, "invalid-config", `"Tpu"`, "unknown wgpu adapter kind `Tpu`, expected one of DiscreteGpu, IntegratedGpu, VirtualGpu, Cpu", `"Cpu"`},
				{diag.Error, "invalid-config", "1", "invalid type: integer `1`, expected a boolean", ""},
				{diag.Error, "unknown-key", "tpu", "unknown field `tpu`, expected one of `cuda`, `rocm`, `wgpu`, `metal`, `vulkan`", ""},
			},
		},
		{
			name: "servers Burn cannot host",
			manifest: burn + `[[package.metadata.playground.servers]]
address = "ws://localhost:3000"
device = "tch"
[[package.metadata.playground.servers]]
address = "ws://localhost:3001"
device = "remote"
[[package.metadata.playground.servers]]
address = "ws://localhost:3002"
device = "capture"
`,
			want: []wantDiag{
				{diag.Error, "libtorch-is-not-supported-as-a-remote-server-backe", `"tch"`, "LibTorch is not supported as a remote-server backend (no BackendIr impl)", `"flex"`},
				{diag.Error, "cannot-host-a-remote-server-on-a-remote-device", `"remote"`, "Cannot host a remote server on a remote device", `"flex"`},
				{diag.Error, "cannot-host-a-remote-server-on-a-capture-device", `"capture"`, "Cannot host a remote server on a capture device", `"flex"`},
			},
		},
		{
			name: "malformed servers",
			manifest: burn + `[package.metadata.playground]
servers = [
  { address = "http://localhost:3000", device = "flex" },
  { address = "ws://localhost:3001", device = "gpuu" },
  { adress = "ws://localhost:3002", device = "cuda" },
  { address = "ws://localhost:3003" },
  { address = "ws://localhost:3004", device = "cpu" },
  { address = "ws://localhost:3004", device = "cpu" },
  "ws://localhost:3005",
]
`,
			want: []wantDiag{
				{diag.Error, "invalid-config", `"http://localhost:3000"`, "invalid server address `http://localhost:3000`: expected ws://host:port, wss://host:port or an Iroh endpoint id", ""},
				{diag.Error, "invalid-config", `"gpuu"`, "unknown server device `gpuu`, expected one of cuda, metal, rocm, vulkan, webgpu, wgpu, cpu, tch, remote, flex, ndarray, capture", ""},
				{diag.Error, "invalid-config", `{ adress = "ws://localhost:3002", device = "cuda" }`, "missing field `address` in [[package.metadata.playground.servers]]", ""},
				{diag.Error, "unknown-key", "adress", "unknown field `adress`, expected one of `address`, `device`, `faults`", "address"},
				{diag.Error, "invalid-config", `{ address = "ws://localhost:3003" }`, "missing field `device` in [[package.metadata.playground.servers]]", ""},
				{diag.Error, "invalid-config", `"ws://localhost:3004"`, "two servers listen on `ws://localhost:3004`", ""},
				{diag.Error, "invalid-config", `"ws://localhost:3005"`, `invalid type: string "ws://localhost:3005", expected a server table with ` + "`address` and `device`", ""},
			},
		},
		{
			name: "malformed target and faults",
			manifest: burn + `[package.metadata.playground]
target = "wasm32-unknown-unknwon"
servers = [
  { address = "ws://localhost:3000", device = "flex", faults = ["exit-after-inti"] },
  { address = "ws://localhost:3001", device = "flex", faults = ["oversized-frame"] },
  { address = "ws://localhost:3002", device = "flex", faults = "close-before-init" },
]
`,
			want: []wantDiag{
				{diag.Error, "invalid-config", `"wasm32-unknown-unknwon"`, "unknown target `wasm32-unknown-unknwon`, expected one of wasm32-unknown-unknown, x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, aarch64-apple-darwin, x86_64-apple-darwin, x86_64-pc-windows-msvc", `"wasm32-unknown-unknown"`},
				{diag.Error, "invalid-config", `"exit-after-inti"`, "unknown server fault `exit-after-inti`, expected one of close-before-init, rejects-protocol-version, protocol-version, garbled-init-reply, wrong-init-reply, oversized-frame, truncated-frame, reset-stream, exit-after-init", `"exit-after-init"`},
				{diag.Error, "invalid-config", `"oversized-frame"`, "server fault `oversized-frame` happens in the Iroh transport's framing; this server is a WebSocket server", ""},
				{diag.Error, "invalid-config", `"close-before-init"`, `invalid type: string "close-before-init", expected a sequence of server faults`, ""},
			},
		},
		{
			name:     "the playground table of the wrong type",
			manifest: burn + "[package.metadata]\nplayground = 3\n",
			want:     []wantDiag{{diag.Error, "invalid-config", "3", "invalid type: integer `3`, expected a map", ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse(tt.manifest)
			checkDiagnostics(t, tt.manifest, diags, tt.want)
			checkFixes(t, tt.manifest, diags)
		})
	}
}

func checkDiagnostics(t *testing.T, text string, diags diag.List, want []wantDiag) {
	t.Helper()
	var got []wantDiag
	for _, d := range diags {
		if d.Phase != diag.Config || d.File != diag.CargoToml {
			t.Errorf("%s: phase %q file %q, want config in Cargo.toml", d.Code, d.Phase, d.File)
		}
		w := wantDiag{d.Severity, d.Code, text[d.Range.Start:d.Range.End], d.Message, ""}
		if len(d.Fixes) > 0 && len(d.Fixes[0].Edits) > 0 {
			w.fix = d.Fixes[0].Edits[0].NewText
		}
		got = append(got, w)
	}
	if len(got) != len(want) {
		t.Errorf("got %d diagnostics, want %d:", len(got), len(want))
		for _, g := range got {
			t.Errorf("  %+v", g)
		}
		return
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("diagnostic %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// checkFixes applies each fix and checks that the diagnostic it fixes is
// gone: the fixed text has fewer diagnostics with that code.
func checkFixes(t *testing.T, text string, diags diag.List) {
	t.Helper()
	for _, d := range diags {
		for _, fix := range d.Fixes {
			fixed := applyEdits(t, text, fix.Edits)
			_, after := Parse(fixed)
			if count(after, d.Code) >= count(diags, d.Code) {
				t.Errorf("fix %q of %s leaves it in place; fixed text:\n%s", fix.Title, d.Code, fixed)
			}
		}
	}
}

func count(diags diag.List, code string) int {
	n := 0
	for _, d := range diags {
		if d.Code == code {
			n++
		}
	}
	return n
}

func applyEdits(t *testing.T, text string, edits []diag.Edit) string {
	t.Helper()
	sorted := append([]diag.Edit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Range.Start > sorted[j].Range.Start })
	for _, e := range sorted {
		if e.File != diag.CargoToml || e.Range.Start < 0 || e.Range.End > len(text) || e.Range.Start > e.Range.End {
			t.Fatalf("edit %+v does not fit a text of %d bytes", e, len(text))
		}
		text = text[:e.Range.Start] + e.NewText + text[e.Range.End:]
	}
	return text
}

func TestPanicIDs(t *testing.T) {
	_, diags := Parse("[dependencies]\nburn = \"0.22\"\n[package.metadata.playground]\nenv = { BURN_DEVICE = \"rocm\" }\nservers = [{ address = \"ws://h:1\", device = \"tch\" }]\n")
	ids := map[string]string{}
	for _, d := range diags {
		ids[d.Code] = d.PanicID
	}
	want := map[string]string{
		"burn-device-rocm-requested-but-the-rocm-feature-is": "disp-burn-device-rocm",
		"libtorch-is-not-supported-as-a-remote-server-backe": "disp-remote-server-libtorch",
	}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("panic ids = %v, want %v", ids, want)
	}
}

func TestTargetAndFaults(t *testing.T) {
	c, diags := Parse(`[dependencies]
burn = { version = "0.22", features = ["remote"] }
[package.metadata.playground]
target = "wasm32-unknown-unknown"
[[package.metadata.playground.servers]]
address = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
device = "flex"
faults = ["oversized-frame", "exit-after-init", "oversized-frame"]
[[package.metadata.playground.servers]]
address = "ws://h:1"
device = "flex"
`)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if c.Dispatch.Target != "wasm32-unknown-unknown" {
		t.Errorf("target = %q", c.Dispatch.Target)
	}
	if got := c.Dispatch.Servers[0].Faults; !reflect.DeepEqual(got, []string{"oversized-frame", "exit-after-init"}) {
		t.Errorf("faults = %v, want each fault once, in order", got)
	}
	if got := c.Dispatch.Servers[1].Faults; len(got) != 0 {
		t.Errorf("a server without faults has %v", got)
	}
	plain, _ := Parse("[dependencies]\nburn = \"0.22\"\n")
	if plain.Dispatch.Target != "" {
		t.Errorf("default target = %q, want the host (\"\")", plain.Dispatch.Target)
	}
}

func TestSettings(t *testing.T) {
	const manifest = `[package]
name = "demo"

[dependencies]
burn = { version = "0.22", features = ["cuda", "vulkan", "cuda"] }

[package.metadata.playground]
env = { BURN_DEVICE = "vulkan", BURN_REMOTE_ADDRESS = "ws://127.0.0.1:3000" }
hardware = { cuda = 2, wgpu = ["IntegratedGpu", "Cpu"] }

[[package.metadata.playground.servers]]
address = "localhost:3000"
device = "Flex"

[[package.metadata.playground.servers]]
address = "wss://[::1]:4000/path"
device = "cuda"

[[package.metadata.playground.servers]]
address = "` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `"
device = "ndarray"
`
	c, diags := Parse(manifest)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %+v", diags)
	}
	wantEnv := map[string]string{"BURN_DEVICE": "vulkan", "BURN_REMOTE_ADDRESS": "ws://127.0.0.1:3000"}
	if !reflect.DeepEqual(c.Dispatch.Env, wantEnv) {
		t.Errorf("Env = %v, want %v", c.Dispatch.Env, wantEnv)
	}
	if got := manifest[c.EnvRanges["BURN_DEVICE"].Start:c.EnvRanges["BURN_DEVICE"].End]; got != `"vulkan"` {
		t.Errorf("EnvRanges[BURN_DEVICE] covers %q", got)
	}
	// rocm is left to its default (0 without the rocm feature), metal to
	// false; vulkan defaults to true because the vulkan feature is on.
	wantHW := dispatch.Hardware{Cuda: 2, Wgpu: []string{"IntegratedGpu", "Cpu"}, Vulkan: true}
	if !reflect.DeepEqual(c.Dispatch.Hardware, wantHW) {
		t.Errorf("Hardware = %+v, want %+v", c.Dispatch.Hardware, wantHW)
	}
	wantServers := []dispatch.Server{
		{Address: "ws://localhost:3000", Device: "flex"},
		{Address: "wss://[::1]:4000/path", Device: "cuda"},
		{Address: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Device: "ndarray"},
	}
	if !reflect.DeepEqual(c.Dispatch.Servers, wantServers) {
		t.Errorf("Servers = %+v, want %+v", c.Dispatch.Servers, wantServers)
	}
	if len(c.ServerRanges) != 3 || manifest[c.ServerRanges[1].Start:c.ServerRanges[1].End] != "[[package.metadata.playground.servers]]" {
		t.Errorf("ServerRanges = %v", c.ServerRanges)
	}
	if want := []string{"cuda", "vulkan"}; !reflect.DeepEqual(c.BurnFeatures, want) {
		t.Errorf("BurnFeatures = %v, want %v", c.BurnFeatures, want)
	}
	if !c.DefaultFeatures || !c.BurnDeclared || c.BurnVersion != "0.22" {
		t.Errorf("DefaultFeatures %v BurnDeclared %v BurnVersion %q", c.DefaultFeatures, c.BurnDeclared, c.BurnVersion)
	}
	if got := manifest[c.FeaturesArray.Start:c.FeaturesArray.End]; got != `["cuda", "vulkan", "cuda"]` {
		t.Errorf("FeaturesArray covers %q", got)
	}
	if got := manifest[c.BurnDep.Start:c.BurnDep.End]; !strings.HasPrefix(got, "{ version") || !strings.HasSuffix(got, "] }") {
		t.Errorf("BurnDep covers %q", got)
	}
}

func TestDefaultHardware(t *testing.T) {
	tests := []struct {
		features string
		want     dispatch.Hardware
	}{
		{`[]`, dispatch.Hardware{}},
		{`["cuda"]`, dispatch.Hardware{Cuda: 1}},
		{`["rocm", "metal"]`, dispatch.Hardware{Rocm: 1, Wgpu: []string{"DiscreteGpu"}, Metal: true}},
		{`["webgpu"]`, dispatch.Hardware{Wgpu: []string{"DiscreteGpu"}}},
	}
	for _, tt := range tests {
		c, _ := Parse("[dependencies]\nburn = { version = \"0.22\", features = " + tt.features + " }\n")
		if !reflect.DeepEqual(c.Dispatch.Hardware, tt.want) {
			t.Errorf("features %s: Hardware = %+v, want %+v", tt.features, c.Dispatch.Hardware, tt.want)
		}
	}
}

func TestEmptyAndImplicitConfig(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# only a comment\n"} {
		c, diags := Parse(text)
		if len(diags) != 0 {
			t.Errorf("%q: diagnostics %+v", text, diags)
		}
		if c.BurnDeclared || !c.DefaultFeatures || !c.Dispatch.Features["burn/default"] || c.BurnDep != (source.Range{}) {
			t.Errorf("%q: not the default config: %+v", text, c)
		}
		if c.Dispatch.Env == nil {
			t.Errorf("%q: Env is nil", text)
		}
	}
}

func TestAdmitsBurnRelease(t *testing.T) {
	tests := map[string]bool{
		"0.22": true, "^0.22": true, "=0.22.0-pre.2": true, "~0.22.1": true, "0.22.*": true, "*": true, "0": true,
		">=0.19": true, "<1": true, "0.22, <0.23": true, "0.x": true,
		"0.21": false, "^0.16.1": false, "1.0": false, "=0.20.0": false,
	}
	for req, want := range tests {
		if got := admitsBurnRelease(req); got != want {
			t.Errorf("admitsBurnRelease(%q) = %v, want %v", req, got, want)
		}
	}
}

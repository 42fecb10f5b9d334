package config

import (
	"github.com/dispatch-playground/playground/engine/diag"
	"slices"
	"strings"
	"testing"
)

// The layout of Burn's own examples: a workspace root two folders up whose
// burn turns default features off, a member that inherits burn and adds a
// backend, and a sibling crate by path that turns on more of burn.
const (
	rootManifest = `[workspace]
members = ["crates/*"]

[workspace.package]
version = "0.22.0-pre.2"
edition = "2024"

[workspace.dependencies]
burn = { path = "crates/burn", version = "=0.22.0-pre.2", default-features = false }
log = "0.4"
`
	memberManifest = `[package]
name = "custom-training-loop"
version.workspace = true
edition.workspace = true

[dependencies]
burn = { workspace = true, features = ["autodiff", "ndarray"] }
guide = { path = "../guide" }
log = { workspace = true }
`
	guideManifest = `[package]
name = "guide"
version.workspace = true

[features]
default = ["burn/default", "cuda"]
cuda = ["burn/cuda"]
vulkan = ["burn/vulkan"]

[dependencies]
burn = { workspace = true, features = ["train"] }
`
)

func burnLayout() Manifests {
	return Manifests{"../../Cargo.toml": rootManifest, "../guide/Cargo.toml": guideManifest}
}

func TestWorkspaceInheritance(t *testing.T) {
	c, diags := ParseIn(memberManifest, Manifests{"../../Cargo.toml": rootManifest})
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if c.Package.Version != "0.22.0-pre.2" {
		t.Errorf("version = %q, want the workspace's", c.Package.Version)
	}
	f := c.Dispatch.Features
	if f["burn/default"] || !f["burn/ndarray"] || !f["burn/autodiff"] {
		t.Errorf("features: default %v ndarray %v autodiff %v; want the workspace's default-features = false and the member's features",
			f["burn/default"], f["burn/ndarray"], f["burn/autodiff"])
	}
	// Without the workspace's manifest the playground says what it
	// assumes, as before.
	_, diags = Parse(memberManifest)
	if !slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return d.Code == CodeWorkspaceDependency }) {
		t.Errorf("no workspace-dependency warning without the workspace: %v", diags)
	}
}

func TestPathDependencyUnifiesFeatures(t *testing.T) {
	c, diags := ParseIn(memberManifest, burnLayout())
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	f := c.Dispatch.Features
	// guide's default feature turns on burn's default and its cuda
	// feature; its own declaration adds train; vulkan is not asked for.
	if !f["burn/default"] || !f["burn/cuda"] || !f["burn/train"] || f["burn/vulkan"] {
		t.Errorf("features: default %v cuda %v train %v vulkan %v", f["burn/default"], f["burn/cuda"], f["burn/train"], f["burn/vulkan"])
	}
	if len(c.PathCrates) != 1 || c.PathCrates[0].Name != "guide" || c.PathCrates[0].Dir != "../guide" {
		t.Fatalf("path crates = %+v", c.PathCrates)
	}
	if c.PathCrates[0].Package.Version != "0.22.0-pre.2" {
		t.Errorf("guide's version = %q, want the workspace's", c.PathCrates[0].Package.Version)
	}
	if len(c.Package.Unseen) != 0 {
		t.Errorf("unseen = %q: guide's manifest was read", c.Package.Unseen)
	}

	// The member's own features reach the dependency's: guide/vulkan.
	asks := strings.Replace(memberManifest, `guide = { path = "../guide" }`,
		`guide = { path = "../guide", default-features = false, features = ["vulkan"] }`, 1)
	c, _ = ParseIn(asks, burnLayout())
	f = c.Dispatch.Features
	if f["burn/default"] || f["burn/cuda"] || !f["burn/vulkan"] {
		t.Errorf("without guide's defaults, with its vulkan: default %v cuda %v vulkan %v", f["burn/default"], f["burn/cuda"], f["burn/vulkan"])
	}
	own := strings.Replace(asks, `features = ["vulkan"] }`, `}`, 1) + "\n[features]\ndefault = [\"guide/vulkan\"]\n"
	c, _ = ParseIn(own, burnLayout())
	if !c.Dispatch.Features["burn/vulkan"] {
		t.Errorf("the package's `guide/vulkan` did not reach guide")
	}
}

func TestMissingManifests(t *testing.T) {
	if got := MissingManifests(memberManifest, Manifests{"../../Cargo.toml": rootManifest}); !slices.Equal(got, []string{"../guide/Cargo.toml"}) {
		t.Errorf("missing = %q", got)
	}
	if got := MissingManifests(memberManifest, burnLayout()); len(got) != 0 {
		t.Errorf("missing with every manifest = %q", got)
	}
	// A path dependency of the path dependency, found from its folder.
	nested := burnLayout()
	nested["../guide/Cargo.toml"] = guideManifest + "helpers = { path = \"../helpers\" }\n"
	if got := MissingManifests(memberManifest, nested); !slices.Equal(got, []string{"../helpers/Cargo.toml"}) {
		t.Errorf("missing nested = %q", got)
	}
	nested["../helpers/Cargo.toml"] = "[package]\nname = \"helpers\"\n\n[dependencies]\nburn = { workspace = true, features = [\"metal\"] }\n"
	c, diags := ParseIn(memberManifest, nested)
	if len(diags) != 0 || !c.Dispatch.Features["burn/metal"] || len(c.PathCrates) != 2 || c.PathCrates[1].Dir != "../helpers" {
		t.Errorf("nested path crates: %+v metal %v %v", c.PathCrates, c.Dispatch.Features["burn/metal"], diags)
	}
}

func TestPathDependencyCycleEnds(t *testing.T) {
	a := "[package]\nname = \"a\"\n\n[dependencies]\nburn = \"0.22\"\nb = { path = \"../b\" }\n"
	b := "[package]\nname = \"b\"\n\n[dependencies]\na = { path = \"../a\" }\nb = { path = \".\" }\n"
	c, _ := ParseIn(a, Manifests{"../b/Cargo.toml": b, "../a/Cargo.toml": a})
	if len(c.PathCrates) == 0 || len(c.PathCrates) > 3 {
		t.Errorf("path crates of a cycle = %+v", c.PathCrates)
	}
}

func TestNotInWorkspace(t *testing.T) {
	member := "[package]\nname = \"m\"\n\n[dependencies]\nburn = { workspace = true }\nserde = { workspace = true }\n"
	_, diags := ParseIn(member, Manifests{"../Cargo.toml": rootManifest})
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Message)
	}
	want := "error inheriting `serde` from workspace root manifest's `workspace.dependencies.serde`: `dependency.serde` was not found in `workspace.dependencies` of ../Cargo.toml"
	if !slices.Contains(msgs, want) || len(diags) != 1 {
		t.Errorf("diagnostics = %q", msgs)
	}
}

// A diagnostic of another manifest names that manifest.
func TestOtherManifestsDiagnostics(t *testing.T) {
	bad := strings.Replace(guideManifest, `features = ["train"]`, `features = ["trian"]`, 1)
	_, diags := ParseIn(memberManifest, Manifests{"../../Cargo.toml": rootManifest, "../guide/Cargo.toml": bad})
	if len(diags) != 1 || diags[0].Code != CodeUnknownFeature || diags[0].File != "../guide/Cargo.toml" {
		t.Errorf("diagnostics = %+v", diags)
	}
	broken := Manifests{"../../Cargo.toml": rootManifest, "../guide/Cargo.toml": "[package\n"}
	_, diags = ParseIn(memberManifest, broken)
	if len(diags) != 1 || diags[0].Code != CodeInvalidTOML || diags[0].File != "../guide/Cargo.toml" {
		t.Errorf("diagnostics of a broken manifest = %+v", diags)
	}
}

// A package that is its own workspace root inherits from itself.
func TestOwnWorkspace(t *testing.T) {
	text := "[workspace]\n\n[workspace.dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"cuda\"] }\n\n[package]\nname = \"x\"\n\n[dependencies]\nburn = { workspace = true }\n"
	c, diags := Parse(text)
	if len(diags) != 0 || !c.Dispatch.Features["burn/cuda"] || c.Dispatch.Features["burn/default"] {
		t.Errorf("features cuda %v default %v, diagnostics %v", c.Dispatch.Features["burn/cuda"], c.Dispatch.Features["burn/default"], diags)
	}
}

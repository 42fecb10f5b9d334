package config

import (
	"slices"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
)

func TestAddFeatureEdit(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		want     string // the manifest after the edit
	}{
		{
			name:     "empty Cargo.toml",
			manifest: "",
			want:     "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
		},
		{
			name:     "no burn, a [dependencies] table",
			manifest: "[dependencies]\nserde = \"1\"\n\n[profile.dev]\nopt-level = 1",
			want:     "[dependencies]\nserde = \"1\"\nburn = { version = \"0.22\", features = [\"cuda\"] }\n\n[profile.dev]\nopt-level = 1",
		},
		{
			name:     "no burn, no [dependencies], no final newline",
			manifest: "[package]\nname = \"x\"",
			want:     "[package]\nname = \"x\"\n\n[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
		},
		{
			name:     "version string",
			manifest: "[dependencies]\nburn = '0.22'\n",
			want:     "[dependencies]\nburn = { version = '0.22', features = [\"cuda\"] }\n",
		},
		{
			name:     "inline table without features",
			manifest: "[dependencies]\nburn = { version = \"0.22\", default-features = false }\n",
			want:     "[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"cuda\"] }\n",
		},
		{
			name:     "inline table with a trailing comma",
			manifest: "[dependencies]\nburn = { version = \"0.22\", }\n",
			want:     "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"], }\n",
		},
		{
			name:     "empty inline table",
			manifest: "[dependencies]\nburn = {}\n",
			want:     "[dependencies]\nburn = { features = [\"cuda\"] }\n",
		},
		{
			name:     "inline array",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [\"train\", 'wgpu'] }\n",
			want:     "[dependencies]\nburn = { version = \"0.22\", features = [\"train\", 'wgpu', 'cuda'] }\n",
		},
		{
			name:     "empty array",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = [ ] }\n",
			want:     "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
		},
		{
			name: "array with one element per line",
			manifest: `[dependencies.burn]
version = "0.22"
features = [
    "train", # training loop
    "wgpu",
]
`,
			want: `[dependencies.burn]
version = "0.22"
features = [
    "train", # training loop
    "wgpu",
    "cuda",
]
`,
		},
		{
			name:     "sub-table without features",
			manifest: "[dependencies.burn]\nversion = \"0.22\"\noptional = false\n\n[dev-dependencies]\n",
			want:     "[dependencies.burn]\nversion = \"0.22\"\noptional = false\nfeatures = [\"cuda\"]\n\n[dev-dependencies]\n",
		},
		{
			name:     "empty sub-table at the end of the text",
			manifest: "[dependencies.burn]",
			want:     "[dependencies.burn]\nfeatures = [\"cuda\"]",
		},
		{
			name:     "dotted keys",
			manifest: "[dependencies]\n  burn.version = \"0.22\"\nserde = \"1\"\n",
			want:     "[dependencies]\n  burn.version = \"0.22\"\n  burn.features = [\"cuda\"]\nserde = \"1\"\n",
		},
		{
			name:     "dotted keys from the root",
			manifest: "dependencies.burn.version = \"0.22\"",
			want:     "dependencies.burn.version = \"0.22\"\ndependencies.burn.features = [\"cuda\"]",
		},
		{
			name:     "renamed dependency",
			manifest: "[dependencies]\nb = { package = \"burn\", version = \"0.22\" }\n",
			want:     "[dependencies]\nb = { package = \"burn\", version = \"0.22\", features = [\"cuda\"] }\n",
		},
		{
			name:     "features of the wrong type are replaced",
			manifest: "[dependencies]\nburn = { version = \"0.22\", features = \"wgpu\" }\n",
			want:     "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
		},
		{
			name:     "burn in [dev-dependencies] only",
			manifest: "[dev-dependencies]\nburn = \"0.22\"\n",
			want:     "[dev-dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
		},
		{
			name:     "dependencies as an inline table",
			manifest: "dependencies = { serde = \"1\" }\n",
			want:     "dependencies = { serde = \"1\", burn = { version = \"0.22\", features = [\"cuda\"] } }\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := Parse(tt.manifest)
			edit, ok := c.AddFeatureEdit("cuda")
			if !ok {
				t.Fatal("AddFeatureEdit reported no edit")
			}
			got := applyEdits(t, tt.manifest, []diag.Edit{edit})
			if got != tt.want {
				t.Fatalf("after the edit:\n%s\nwant:\n%s", got, tt.want)
			}
			after, diags := Parse(got)
			if !after.Dispatch.Features["burn-dispatch/cuda"] {
				t.Error("the edited Cargo.toml does not enable burn-dispatch/cuda")
			}
			for _, d := range diags {
				if d.Severity == diag.Error || d.Code == CodeNoBurnDependency {
					t.Errorf("the edited Cargo.toml has %s: %s", d.Code, d.Message)
				}
			}
		})
	}
}

func TestAddFeatureEditRefuses(t *testing.T) {
	tests := []struct {
		name, manifest, feature string
	}{
		{"unknown feature", "[dependencies]\nburn = \"0.22\"\n", "cudaa"},
		{"already listed", "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n", "cuda"},
		{"invalid TOML", "[dependencies\nburn = \"0.22\"\n", "cuda"},
		{"a burn key that is another package", "[dependencies]\nburn = { package = \"fork\", version = \"1\" }\n", "cuda"},
		{"a burn table nested in an inline table", "dependencies = { burn.version = \"0.22\" }\n", "cuda"},
	}
	for _, tt := range tests {
		c, _ := Parse(tt.manifest)
		if edit, ok := c.AddFeatureEdit(tt.feature); ok {
			t.Errorf("%s: got edit %+v, want none", tt.name, edit)
		}
	}
}

// TestEnablePackageFeatureEdit turns on a feature of the package itself by
// default, as `cargo run --features flex` does, and refuses what it cannot.
func TestEnablePackageFeatureEdit(t *testing.T) {
	pkg := "[package]\nname = \"ex\"\nversion = \"0.1.0\"\n\n"
	tests := []struct{ name, manifest, want string }{
		{"default listed", pkg + "[features]\ndefault = [\"burn/default\"]\nflex = [\"burn/flex\"]\n",
			pkg + "[features]\ndefault = [\"burn/default\", \"flex\"]\nflex = [\"burn/flex\"]\n"},
		{"no default", pkg + "[features]\nflex = [\"burn/flex\"]\nwgpu = []\n",
			pkg + "[features]\nflex = [\"burn/flex\"]\nwgpu = []\ndefault = [\"flex\"]\n"},
		{"an empty default", pkg + "[features]\ndefault = []\nflex = []\n",
			pkg + "[features]\ndefault = [\"flex\"]\nflex = []\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := Parse(tt.manifest)
			edit, ok := c.EnablePackageFeatureEdit("flex")
			if !ok {
				t.Fatal("no edit")
			}
			got := applyEdits(t, tt.manifest, []diag.Edit{edit})
			if got != tt.want {
				t.Fatalf("after the edit:\n%s\nwant:\n%s", got, tt.want)
			}
			if after, _ := Parse(got); !slices.Contains(after.Package.Features, "flex") {
				t.Errorf("the edited Cargo.toml does not enable flex: %v", after.Package.Features)
			}
		})
	}
	for _, m := range []string{pkg + "[features]\nwgpu = []\n", pkg + "[features]\ndefault = [\"flex\"]\nflex = []\n", pkg} {
		if c, _ := Parse(m); func() bool { _, ok := c.EnablePackageFeatureEdit("flex"); return ok }() {
			t.Errorf("an edit for %q", m)
		}
	}
	if c, _ := Parse(pkg + "[features]\ndefault = []\nflex = []\nwgpu = []\n"); !slices.Equal(c.DeclaredFeatures(), []string{"default", "flex", "wgpu"}) {
		t.Errorf("DeclaredFeatures = %v", c.DeclaredFeatures())
	}
}

func TestServerEdit(t *testing.T) {
	const burn = "[dependencies]\nburn = { version = \"0.22\", features = [\"remote-websocket\"] }\n"
	const server = "[[package.metadata.playground.servers]]\naddress = \"ws://gpu:3000\"\ndevice = \"cuda\"\n"
	add := dispatch.ServerEdit{Add: "ws://localhost:3000", Device: "flex"}
	drop := func(f string) dispatch.ServerEdit { return dispatch.ServerEdit{Address: "ws://gpu:3000", DropFault: f} }
	tests := []struct {
		name     string
		manifest string
		edit     dispatch.ServerEdit
		want     string // "" when no edit fits
	}{
		{"declare a server", burn, add, burn + "\n[[package.metadata.playground.servers]]\naddress = \"ws://localhost:3000\"\ndevice = \"flex\"\n"},
		{"declare a server, no final newline", "[dependencies]\nburn = \"0.22\"", add,
			"[dependencies]\nburn = \"0.22\"\n\n[[package.metadata.playground.servers]]\naddress = \"ws://localhost:3000\"\ndevice = \"flex\"\n"},
		{"declare a second server", burn + "\n" + server, add, burn + "\n" + server + "\n[[package.metadata.playground.servers]]\naddress = \"ws://localhost:3000\"\ndevice = \"flex\"\n"},
		{"servers written inline", burn + "\n[package.metadata.playground]\nservers = [{ address = \"ws://gpu:3000\", device = \"cuda\" }]\n", add, ""},
		{"the only fault", burn + "\n" + server + "faults = [\"exit-after-init\"]\n", drop("exit-after-init"), burn + "\n" + server},
		{"the first of two", burn + "\n" + server + "faults = [\"close-before-init\", \"exit-after-init\"]\n", drop("close-before-init"),
			burn + "\n" + server + "faults = [\"exit-after-init\"]\n"},
		{"the last of two", burn + "\n" + server + "faults = [\"close-before-init\", \"exit-after-init\"]\n", drop("exit-after-init"),
			burn + "\n" + server + "faults = [\"close-before-init\"]\n"},
		{"another server's fault", burn + "\n" + server + "faults = [\"exit-after-init\"]\n", dispatch.ServerEdit{Address: "ws://other:3000", DropFault: "exit-after-init"}, ""},
		{"a fault it does not have", burn + "\n" + server, drop("exit-after-init"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, diags := Parse(tt.manifest)
			if diags.HasErrors() {
				t.Fatalf("manifest: %v", diags)
			}
			edit, ok := c.ServerEdit(tt.edit)
			if !ok {
				if tt.want != "" {
					t.Fatalf("no edit, want %q", tt.want)
				}
				return
			}
			if tt.want == "" {
				t.Fatalf("edit %+v, want none", edit)
			}
			got := tt.manifest[:edit.Range.Start] + edit.NewText + tt.manifest[edit.Range.End:]
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if _, diags := Parse(got); diags.HasErrors() {
				t.Errorf("the edited manifest: %v", diags)
			}
		})
	}
}

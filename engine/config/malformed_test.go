package config

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/diag"
)

func TestInvalidTOML(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		at       string // the text the error covers
		offset   int    // where it starts
		message  string
	}{
		{"unclosed header", "[dependencies\nburn = \"0.22\"\n", "\n", 13, "TOML parse error: expected ']' to close table name"},
		{"unterminated string at the end", "[dependencies]\nburn = \"0.22", "2", 26, "TOML parse error: unterminated basic string"},
		{"missing value", "[dependencies]\nburn = \n", "\n", 22, "TOML parse error: unexpected character U+000A at start of value"},
		{"unquoted string", "[dependencies]\nburn = 0.22.1\n", ".", 26, "TOML parse error: expected newline but got U+002E '.'"},
		{"duplicate key", "[dependencies]\nburn = \"0.22\"\nburn = \"0.21\"\n", "burn", 29, "TOML parse error: key burn is already defined"},
		{"table defined twice", "[dependencies]\n[package]\n[dependencies]\n", "dependencies", 26, "TOML parse error: table dependencies already exists"},
		{"NUL in a string", "[dependencies]\nburn = \"0.\x0022\"\n", "\x00", 25, "TOML parse error: basic strings cannot have control characters"},
		{"invalid UTF-8 in a comment", "# caf\xe9\n[dependencies]\n", "\xe9", 5, "TOML parse error: invalid UTF-8 character in comment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, diags := Parse(tt.manifest)
			if len(diags) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %+v", len(diags), diags)
			}
			d := diags[0]
			if d.Code != CodeInvalidTOML || d.Severity != diag.Error || d.Phase != diag.Config || d.File != diag.CargoToml {
				t.Errorf("got %s %s %s %s", d.Code, d.Severity, d.Phase, d.File)
			}
			if got := tt.manifest[d.Range.Start:d.Range.End]; got != tt.at || d.Range.Start != tt.offset {
				t.Errorf("span %v covers %q, want %q at %d", d.Range, got, tt.at, tt.offset)
			}
			if d.Message != tt.message {
				t.Errorf("message %q, want %q", d.Message, tt.message)
			}
			if !c.Dispatch.Features["burn/default"] || !c.Dispatch.Features[DefaultBackend] || c.BurnDeclared {
				t.Error("the config of a malformed Cargo.toml is not the default one")
			}
			if _, ok := c.AddFeatureEdit("cuda"); ok {
				t.Error("AddFeatureEdit offers an edit of a malformed Cargo.toml")
			}
		})
	}
}

// malformedCorpus is text no Cargo.toml should be, each of which Parse
// must survive.
func malformedCorpus() map[string]string {
	const full = "[package]\nname = \"x\"\n[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"wgpu\"] }\n" +
		"[package.metadata.playground]\nenv = { BURN_DEVICE = \"cuda\" }\nhardware = { cuda = 2, wgpu = [\"DiscreteGpu\"] }\n" +
		"[[package.metadata.playground.servers]]\naddress = \"ws://localhost:3000\"\ndevice = \"flex\"\n"
	corpus := map[string]string{
		"nested arrays":          "a = " + strings.Repeat("[", 20000),
		"nested inline tables":   "a = " + strings.Repeat("{b = ", 20000),
		"closed nested arrays":   "a = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
		"deep header":            "[" + strings.Repeat("a.", 50000) + "a]\n",
		"deep dotted key":        strings.Repeat("a.", 50000) + "a = 1\n",
		"many servers":           strings.Repeat("[[package.metadata.playground.servers]]\naddress = \"ws://h:1\"\ndevice = \"flex\"\n", 2000),
		"NUL bytes":              strings.Repeat("\x00", 1000),
		"invalid UTF-8":          "[dependencies]\nburn = \"\xff\xfe\"\n",
		"invalid UTF-8 key":      "\xff = 1\n",
		"CR only":                "[dependencies]\rburn = \"0.22\"\r",
		"BOM":                    "\ufeff[dependencies]\nburn = \"0.22\"\n",
		"unterminated multiline": "a = \"\"\"abc",
		"bad escape":             "a = \"\\q\"\n",
		"bad date":               "a = 2024-13-45\n",
		"huge integer":           "[package.metadata.playground]\nhardware = { cuda = 99999999999999999999999 }\n",
		"array of tables clash":  "[[dependencies]]\n[dependencies.burn]\n",
		"dependencies as array":  "dependencies = [1, 2]\n",
		"target as string":       "target = \"x\"\n[target.x]\n",
		"servers as table":       "[package.metadata.playground.servers]\naddress = 1\n",
	}
	for i := 0; i <= len(full); i += 7 {
		corpus[fmt.Sprintf("truncated at %d", i)] = full[:i]
	}
	rng := rand.New(rand.NewSource(1))
	garbage := make([]byte, 1<<20)
	rng.Read(garbage)
	corpus["1 MB of random bytes"] = string(garbage)
	printable := make([]byte, 1<<20)
	const alphabet = "[]{}=\"'.,#\n abc-_0123456789\\\t"
	for i := range printable {
		printable[i] = alphabet[rng.Intn(len(alphabet))]
	}
	corpus["1 MB of TOML punctuation"] = string(printable)
	return corpus
}

func TestMalformedNeverPanics(t *testing.T) {
	for name, text := range malformedCorpus() {
		c, diags := Parse(text)
		checkInvariants(t, name, text, c, diags)
	}
}

// checkInvariants holds for any input: a usable Config, diagnostics of the
// config phase whose ranges lie in the text, and fixes that fit it.
func checkInvariants(t *testing.T, name, text string, c *Config, diags diag.List) {
	t.Helper()
	if c == nil || c.Dispatch.Features == nil || c.Dispatch.Env == nil {
		t.Fatalf("%.40q: incomplete Config %+v", name, c)
	}
	for _, d := range diags {
		if d.Phase != diag.Config || d.File != diag.CargoToml || d.Code == "" || d.Message == "" {
			t.Errorf("%.40q: malformed diagnostic %+v", name, d)
		}
		if d.Range.Start < 0 || d.Range.Start > d.Range.End || d.Range.End > len(text) {
			t.Errorf("%.40q: range %v outside a text of %d bytes", name, d.Range, len(text))
		}
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				if e.Range.Start < 0 || e.Range.Start > e.Range.End || e.Range.End > len(text) {
					t.Errorf("%.40q: fix %q edits %v outside the text", name, f.Title, e.Range)
				}
				if !utf8.ValidString(e.NewText) {
					t.Errorf("%.40q: fix %q writes invalid UTF-8", name, f.Title)
				}
			}
		}
	}
	if edit, ok := c.AddFeatureEdit("cuda"); ok && (edit.Range.Start < 0 || edit.Range.End > len(text) || edit.Range.Start > edit.Range.End) {
		t.Errorf("%.40q: AddFeatureEdit range %v outside the text", name, edit.Range)
	}
}

// TestInvalidTOMLFix: a syntax error that a missing closing character
// causes gets the insertion that makes the text read, after the value it
// closes, and one no single character mends gets none.
func TestInvalidTOMLFix(t *testing.T) {
	tests := []struct{ manifest, fixed string }{
		{"[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"autodiff\" }\n", "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"autodiff\"] }\n"},
		{"[dependencies\nburn = \"0.22\"\n", "[dependencies]\nburn = \"0.22\"\n"},
		{"[dependencies]\nburn = \"0.22\ntch = \"0.19\"\n", "[dependencies]\nburn = \"0.22\"\ntch = \"0.19\"\n"},
		{"[dependencies]\nburn = = \"0.22\"\n", ""},
	}
	for _, tt := range tests {
		_, diags := Parse(tt.manifest)
		if len(diags) != 1 {
			t.Fatalf("%q: %+v", tt.manifest, diags)
		}
		d := diags[0]
		if tt.fixed == "" {
			if len(d.Fixes) != 0 {
				t.Errorf("%q: fix %+v", tt.manifest, d.Fixes)
			}
			continue
		}
		if len(d.Fixes) != 1 || len(d.Fixes[0].Edits) != 1 {
			t.Fatalf("%q: fixes %+v", tt.manifest, d.Fixes)
		}
		e := d.Fixes[0].Edits[0]
		if got := tt.manifest[:e.Range.Start] + e.NewText + tt.manifest[e.Range.End:]; got != tt.fixed {
			t.Errorf("fixed %q, want %q", got, tt.fixed)
		}
	}
}

// TestSlashFeatureFix: a transitive dependency's feature is named as
// burn's own, or left out when burn's list has it already.
func TestSlashFeatureFix(t *testing.T) {
	for manifest, fixed := range map[string]string{
		"[dependencies]\nburn = { version = \"0.22\", features = [\"burn-core/cuda\"] }\n":           "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
		"[dependencies]\nburn = { version = \"0.22\", features = [\"burn-core/cuda\", \"cuda\"] }\n": "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
		"[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"burn-core/cuda\"] }\n": "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n",
	} {
		_, diags := Parse(manifest)
		if len(diags) != 1 || len(diags[0].Fixes) != 1 {
			t.Fatalf("%q: %+v", manifest, diags)
		}
		if got := applyEdits(t, manifest, diags[0].Fixes[0].Edits); got != fixed {
			t.Errorf("%q fixed to %q, want %q", manifest, got, fixed)
		}
	}
}

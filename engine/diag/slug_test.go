package diag

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestSlug(t *testing.T) {
	tests := []struct{ template, want string }{
		{"input tensor `{}` is on the wrong backend", "input-tensor-is-on-the-wrong-backend"},
		{"LibTorch is not supported as a remote-server backend (no BackendIr impl)", "libtorch-is-not-supported-as-a-remote-server-backe"},
		{"Cannot host a remote server on a remote device", "cannot-host-a-remote-server-on-a-remote-device"},
		{"Unknown BURN_DEVICE override: '{}'.", "unknown-burn-device-override"},
		{"BURN_DEVICE=cuda requested, but the 'cuda' feature is not enabled.", "burn-device-cuda-requested-but-the-cuda-feature-is"},
		// The cut lands on a separator: the trailing dash is trimmed.
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbb", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{"  --Leading and trailing!!  ", "leading-and-trailing"},
		{"non-ASCII é counts as a separator", "non-ascii-counts-as-a-separator"},
		{"", ""},
		{"!!!", ""},
	}
	for _, tt := range tests {
		if got := Slug(tt.template); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.template, got, tt.want)
		}
	}
}

// TestSlugMatchesSeeds checks Slug against the records the catalog started
// from (the two seeds, kept verbatim among the catalog's records): each
// seed's slug is the slug of its message template.
func TestSlugMatchesSeeds(t *testing.T) {
	for _, name := range []string{
		"input-tensor-is-on-the-wrong-backend.json",
		"libtorch-is-not-supported-as-a-remote-server-backe.json",
	} {
		f := filepath.Join("..", "catalog", "records", name)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var seed struct {
			Record struct {
				Slug         string `json:"slug"`
				ErrorMessage string `json:"errorMessage"`
			} `json:"record"`
		}
		if err := json.Unmarshal(data, &seed); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := Slug(seed.Record.ErrorMessage); got != seed.Record.Slug {
			t.Errorf("%s: Slug(%q) = %q, want %q", f, seed.Record.ErrorMessage, got, seed.Record.Slug)
		}
	}
}

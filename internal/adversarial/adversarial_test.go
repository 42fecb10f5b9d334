package adversarial

import (
	"strings"
	"testing"
)

func TestParseExpandsTemplates(t *testing.T) {
	c, err := Parse("t", []byte(`// What it is.
-- Cargo.toml --
a = "{{"\xff"}}"
-- main.rs --
{{repeat 3 "ab" -}}
-- want --
engine rejected invalid-utf8 syntax-error|invalid-toml
run 413 request_too_large
share 200
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.About != "What it is." || c.Snippet != "ababab" || c.Config != "a = \"\xff\"\n" {
		t.Errorf("case %+v", c)
	}
	if e := c.Want.Engine; e == nil || e.HTTP != 0 || e.Status != "rejected" || strings.Join(e.Codes, " ") != "invalid-utf8 syntax-error|invalid-toml" {
		t.Errorf("engine answer %+v", c.Want.Engine)
	}
	if r := c.Want.Run; r == nil || r.HTTP != 413 || r.Status != "" || strings.Join(r.Codes, " ") != "request_too_large" {
		t.Errorf("run answer %+v", c.Want.Run)
	}
	if s := c.Want.Share; s == nil || s.HTTP != 200 || len(s.Codes) != 0 {
		t.Errorf("share answer %+v", c.Want.Share)
	}
	if !Has([]string{"x", "invalid-toml"}, "syntax-error|invalid-toml") || Has([]string{"x"}, "y|z") {
		t.Error("Has does not read alternatives")
	}
}

func TestParseRefusesBadCases(t *testing.T) {
	for name, text := range map[string]string{
		"no want":            "-- main.rs --\nx\n",
		"unknown section":    "-- main.go --\nx\n-- want --\nengine ok\n",
		"unknown answer":     "-- want --\ncompile ok\n",
		"engine status":      "-- want --\nengine playground-limit\n",
		"HTTP status":        "-- want --\nrun ok\n",
		"200 without Result": "-- want --\nrun 200 playground-limit\n",
		"too large":          "-- main.rs --\n{{repeat 100000000 \"x\"}}\n-- want --\nengine ok\n",
		"too large in parts": "-- main.rs --\n{{range 70}}{{repeat 1048576 \"x\"}}{{end}}\n-- want --\nengine ok\n",
	} {
		if _, err := Parse(name, []byte(text)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

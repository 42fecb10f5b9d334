package config

import (
	"slices"
	"testing"
)

func TestPackage(t *testing.T) {
	c, _ := Parse(`[package]
name = "my-model"
version = "1.2.3-beta.1"
authors = ["Ada <ada@example.com>", "Alan"]
description = "a model"

[features]
default = ["fast"]
fast = ["extra"]
extra = []
unused = []

[dependencies]
burn = "0.22"
`)
	p := c.Package
	if p.Name != "my-model" || p.Version != "1.2.3-beta.1" || p.Description != "a model" {
		t.Errorf("package = %+v", p)
	}
	if !slices.Equal(p.Authors, []string{"Ada <ada@example.com>", "Alan"}) {
		t.Errorf("authors = %q", p.Authors)
	}
	if !slices.Equal(p.Features, []string{"default", "extra", "fast"}) {
		t.Errorf("features = %q, want default and what it enables", p.Features)
	}

	empty, _ := Parse("")
	if empty.Package.Name != DefaultPackageName || empty.Package.Version != DefaultPackageVersion || len(empty.Package.Features) != 0 {
		t.Errorf("default package = %+v", empty.Package)
	}
}

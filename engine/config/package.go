package config

import (
	"sort"
	"strings"
)

// Package is what Cargo tells a crate about itself at compile time: the
// [package] table (read by env!("CARGO_PKG_NAME") and friends) and the
// package's own features that are on (its `default` feature and what that
// enables), which cfg!(feature = "x") tests.
type Package struct {
	// Name is the package's name; "playground" when Cargo.toml has none.
	Name    string
	Version string // "0.1.0" when absent
	Authors []string
	// Description, Homepage, Repository, License, LicenseFile,
	// RustVersion and Readme are the [package] keys of the same names,
	// empty when absent.
	Description, Homepage, Repository, License, LicenseFile, RustVersion, Readme string
	// Features lists the package's own enabled features, sorted.
	Features []string
	// Crates are the crates the package depends on (every dependency
	// table), by the name its Rust code uses (`serde-json` is
	// `serde_json`), sorted.
	Crates []string
	// Unseen are the path and git dependencies among Crates (not Burn's):
	// their manifests are not in the request, so the features of burn they
	// turn on, as Cargo unifies them, are not known.
	Unseen []string
}

// Default package identity, as the playground's crate would have it.
const (
	DefaultPackageName    = "playground"
	DefaultPackageVersion = "0.1.0"
)

// readPackage reads the [package] table's strings. Cargo's own checks of
// those keys are not repeated here: a value of the wrong type is left out.
func (p *parser) readPackage(r *resolver) Package {
	pkg := Package{Name: DefaultPackageName, Version: DefaultPackageVersion}
	var t *table
	if v := p.doc.root.get("package"); v != nil && v.kind == kindTable {
		t = v.table
	}
	str := func(key string) string {
		v := t.get(key)
		if v != nil && v.kind == kindString {
			return v.text
		}
		s, _ := p.inheritedString(key, v)
		return s
	}
	if s := str("name"); s != "" {
		pkg.Name = s
	}
	if s := str("version"); s != "" {
		pkg.Version = s
	}
	if v := t.get("authors"); v != nil && v.kind == kindArray {
		for _, a := range v.items {
			if a.kind == kindString {
				pkg.Authors = append(pkg.Authors, a.text)
			}
		}
	}
	pkg.Description, pkg.Homepage, pkg.Repository = str("description"), str("homepage"), str("repository")
	pkg.License, pkg.LicenseFile, pkg.RustVersion = str("license"), str("license-file"), str("rust-version")
	pkg.Readme = str("readme")
	if r != nil {
		for key := range r.enabled {
			if f, ok := strings.CutPrefix(key, selfCrate+"/"); ok {
				pkg.Features = append(pkg.Features, f)
			}
		}
		sort.Strings(pkg.Features)
	}
	return pkg
}

package burncheck

import (
	_ "embed"
	"strings"
)

// Site is one place where a public Burn function runs a check: the check!
// invocation (or unwrap_dim_index call) inside it, which is where Rust
// reports the panic.
type Site struct {
	// Method is the public function: "Tensor::add", "activation::softmax",
	// "module::conv2d", "linalg::det", "signal::rfft".
	Method string
	// Check is the check.rs function it runs, by its Rust name:
	// "binary_ops_ew", "unwrap_dim_index", ... The Go function has the
	// CamelCase name, except slice (SliceArgs), unwrap_dim_index (DimIndex)
	// and unwrap_shape_reshape (Reshape).
	Check string
	// Arg tells apart the sites of one check in one method: the argument a
	// dim index resolves ("dim", "start_dim", ...), or "-".
	Arg string
	// Op is the operation name the message prints.
	Op string
	// Location is "crates/...rs:LINE".
	Location string
	// Note says when the site runs or why it cannot fail.
	Note string
}

//go:embed sites.tsv
var sitesTSV string

// siteTable is parsed once from the embedded table and never modified.
var siteTable = parseSites(sitesTSV)

func parseSites(text string) []Site {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	sites := make([]Site, 0, len(lines))
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		for len(f) < 6 {
			f = append(f, "")
		}
		sites = append(sites, Site{Method: f[0], Check: f[1], Arg: f[2], Op: f[3], Location: f[4], Note: f[5]})
	}
	return sites
}

// Sites lists every check site of Burn's public API, grouped by method in
// source order: the table of which method runs which check under which
// operation name.
func Sites() []Site {
	out := make([]Site, len(siteTable))
	copy(out, siteTable)
	return out
}

// SitesOf lists the sites of one method in the order they run.
func SitesOf(method string) []Site {
	var out []Site
	for _, s := range siteTable {
		if s.Method == method {
			out = append(out, s)
		}
	}
	return out
}

// site finds the site of a check in a method; arg is "-" for a check that
// has one site in the method.
func site(method, check, arg string) (Site, bool) {
	for _, s := range siteTable {
		if s.Method == method && s.Check == check && s.Arg == arg {
			return s, true
		}
	}
	return Site{}, false
}

// At places a check-level failure at a site: Rust reports it at the site's
// location. Failures that carry their own location (Reshape's, Rust's
// panics inside check.rs) keep it.
func (f *Failure) At(s Site) *Failure {
	if f == nil || f.Location != "" {
		return f
	}
	placed := *f
	placed.Location = s.Location
	return &placed
}

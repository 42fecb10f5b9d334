package engine

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// `cargo test` on a crate builds one test harness per target and runs
// them one after the other: the library's unit tests (src/lib.rs), each
// binary's (src/main.rs, src/bin/*.rs), then each integration test
// (tests/*.rs, a crate of its own that links the library), in that order,
// stopping after the first harness with a failing test (cargo's default,
// without --no-fail-fast). A harness is checked and run as a crate whose
// root is that target, so a test in tests/api.rs sees the library only
// through `<crate_name>::`, as rustc compiles it.

// harnesses are the roots of the test harnesses of a crate Request, in the
// order cargo runs them.
func harnesses(req Request) []string {
	var roots []string
	if _, ok := req.Files["src/lib.rs"]; ok {
		roots = append(roots, "src/lib.rs")
	}
	if strings.TrimSpace(req.Snippet) != "" {
		roots = append(roots, EntryMain)
	}
	var bins, tests []string
	for p := range req.Files {
		p = path.Clean(p)
		switch {
		case p == EntryMain || !isCrateRoot(p):
		case strings.HasPrefix(p, "src/bin/"):
			bins = append(bins, p)
		case strings.HasPrefix(p, "tests/"):
			tests = append(tests, p)
		}
	}
	sort.Strings(bins)
	sort.Strings(tests)
	return append(append(roots, bins...), tests...)
}

// runHarnesses runs the test harnesses of a crate Request and puts their
// Results together as cargo's run of them reads: the reports one after
// the other, the tests of every harness that ran, the status and the panic
// of the first harness that did not pass. A diagnostic of a file that
// several harnesses compile (the library's) is reported once.
func runHarnesses(req Request) (Result, Detail) {
	roots := harnesses(req)
	if len(roots) == 0 {
		roots = []string{EntryMain}
	}
	var res Result
	var detail Detail
	seen := map[string]bool{}
	for i, root := range roots {
		sub := req
		sub.Entry = root
		if root != EntryMain {
			sub.Snippet = req.Files[root]
		}
		r, d := runTarget(sub, true, runLimits{})
		if i == 0 {
			res, detail = r, d
			res.Diagnostics = nil
			res.Tests = nil
		} else {
			res.Output += r.Output
			res.Trace = append(res.Trace, r.Trace...)
			detail.CheckPanicIDs = append(detail.CheckPanicIDs, d.CheckPanicIDs...)
		}
		for _, dg := range r.Diagnostics {
			key := fmt.Sprintf("%s|%s|%s|%v|%s", dg.Phase, dg.Code, dg.File, dg.Span, dg.Message)
			if !seen[key] {
				seen[key] = true
				res.Diagnostics = append(res.Diagnostics, dg)
			}
		}
		res.Tests = append(res.Tests, r.Tests...)
		res.Complete = res.Complete && r.Complete
		if r.Status != StatusOK {
			if i > 0 {
				res.Status, res.Panic = r.Status, r.Panic
				detail.RunPanicID, detail.RunCauseIDs = d.RunPanicID, d.RunCauseIDs
			}
			break
		}
	}
	if res.Diagnostics == nil {
		res.Diagnostics = []Diagnostic{}
	}
	return res, detail
}

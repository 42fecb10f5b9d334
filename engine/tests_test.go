package engine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dispatch-playground/playground/engine"
)

// runTests runs src's tests, twice to check that the Result is the same.
func runTests(t *testing.T, src string) engine.Result {
	t.Helper()
	return run(t, engine.Request{Snippet: src, Entry: engine.EntryTests})
}

// statuses lists the tests of res as "name status" lines.
func statuses(res engine.Result) string {
	var b strings.Builder
	for _, tr := range res.Tests {
		b.WriteString(tr.Name + " " + tr.Status + "\n")
	}
	return b.String()
}

func testNamed(t *testing.T, res engine.Result, name string) engine.TestResult {
	t.Helper()
	for _, tr := range res.Tests {
		if tr.Name == name {
			return tr
		}
	}
	t.Fatalf("no test %q in %s", name, statuses(res))
	return engine.TestResult{}
}

// TestLibtestReport compares the report of a program of twelve tests with
// what cargo test printed for it (testdata/libtest.txtar).
func TestLibtestReport(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "libtest.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, f := range txtar.Parse(data).Files {
		sections[f.Name] = string(f.Data)
	}
	res := runTests(t, sections["main.rs"])
	if res.Output != sections["stdout"] {
		t.Errorf("report differs from cargo test's\n--- got\n%s--- cargo test\n%s", res.Output, sections["stdout"])
	}
	if res.Status != engine.StatusPanicked || len(res.Tests) != 12 {
		t.Fatalf("status %s with %d tests, want panicked with 12", res.Status, len(res.Tests))
	}
	// The Result's panic is the first failing test's, on its thread.
	if p := res.Panic; p == nil || p.Location != "src/main.rs:28:9" || p.Code != "assertion-failed" ||
		!strings.HasPrefix(p.Rendered, "thread 'tests::b_fails' panicked at src/main.rs:28:9:\n") {
		t.Errorf("panic %+v, want b_fails' assertion at src/main.rs:28:9", res.Panic)
	}
	checkPromises(t, res)
}

func TestTests(t *testing.T) {
	cases := []struct {
		name, src string
		status    string // of the Result
		tests     string // "name status" lines, in order
		// outputs are the captured outputs of some tests, exactly.
		outputs map[string]string
	}{
		{
			name: "sorted by full path",
			src: `#[test] fn c() {}
mod b { #[test] fn a() {} }
mod a { mod inner { #[test] fn y() {} } #[test] fn z() {} #[test] fn Z() {} }
fn main() {}`,
			status: "ok",
			tests:  "a::Z ok\na::inner::y ok\na::z ok\nb::a ok\nc ok\n",
		},
		{
			name: "should_panic without expected",
			src: `#[test]
#[should_panic]
fn panics() { let v: Vec<i32> = Vec::new(); v[3]; }
#[test]
#[should_panic]
fn does_not() { println!("fine"); }`,
			status:  "panicked",
			tests:   "does_not failed\npanics ok\n",
			outputs: map[string]string{"does_not": "fine\nnote: test did not panic as expected at src/main.rs:6:4"},
		},
		{
			name: "should_panic with expected",
			src: `#[test]
#[should_panic(expected = "out of range")]
fn contains() { panic!("index {} out of range", 4); }
#[test]
#[should_panic(expected = "out of range")]
fn differs() { panic!("index {} too large", 4); }`,
			status: "panicked",
			tests:  "contains ok\ndiffers failed\n",
			outputs: map[string]string{
				// The first panic of the process, in contains, took the
				// backtrace note.
				"differs": "\nthread 'differs' panicked at src/main.rs:6:16:\nindex 4 too large\n" +
					"note: panic did not contain expected string\n      panic message: \"index 4 too large\"\n expected substring: \"out of range\"",
			},
		},
		{
			name: "ignored tests do not run",
			src: `#[test]
#[ignore]
fn never() { println!("ran"); panic!("ran"); }
#[test]
#[ignore = "needs a GPU"]
#[should_panic]
fn gpu() {}
#[test]
fn runs() {}`,
			status:  "ok",
			tests:   "gpu ignored\nnever ignored\nruns ok\n",
			outputs: map[string]string{"never": "", "gpu": ""},
		},
		{
			name: "a test returning Result fails on Err",
			src: `#[derive(Debug)]
struct Bad { code: i32 }
#[test]
fn err() -> Result<(), Bad> { println!("before"); Err(Bad { code: 3 }) }
#[test]
fn ok() -> Result<(), String> { Ok(()) }
#[test]
fn question() -> Result<(), String> { let r: Result<i32, String> = Err("no".to_string()); let _v = r?; Ok(()) }`,
			status:  "panicked",
			tests:   "err failed\nok ok\nquestion failed\n",
			outputs: map[string]string{"err": "before\nError: Bad { code: 3 }\n", "question": "Error: \"no\"\n", "ok": ""},
		},
		{
			name: "each test captures its own output",
			src: `fn helper(tag: &str) { println!("helper for {tag}"); }
#[test]
fn first() { helper("first"); }
#[test]
fn second() { helper("second"); eprintln!("to stderr"); assert!(false); }`,
			status: "panicked",
			tests:  "first ok\nsecond failed\n",
			outputs: map[string]string{
				"first":  "helper for first\n",
				"second": "helper for second\nto stderr\n\nthread 'second' panicked at src/main.rs:5:57:\nassertion failed: false\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
			},
		},
		{
			name: "cfg(test) modules are compiled, cfg(not(test)) ones are not",
			src: `fn main() {}
#[cfg(test)]
mod tests { #[test] fn seen() {} }
#[cfg(not(test))]
mod hidden { #[test] fn unseen() {} }
#[test]
#[cfg(not(test))]
fn unseen_either() {}`,
			status: "ok",
			tests:  "tests::seen ok\n",
		},
		{
			name:   "a program without tests",
			src:    "fn main() { println!(\"main does not run\"); }",
			status: "ok",
			tests:  "",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runTests(t, c.src)
			if res.Status != c.status || statuses(res) != c.tests {
				t.Fatalf("status %s, tests:\n%swant %s, tests:\n%sdiagnostics %+v", res.Status, statuses(res), c.status, c.tests, res.Diagnostics)
			}
			if res.Tests == nil {
				t.Fatal("tests is null for a test run")
			}
			for name, want := range c.outputs {
				if got := testNamed(t, res, name).Output; got != want {
					t.Errorf("output of %s:\n%q\nwant\n%q", name, got, want)
				}
			}
			checkPromises(t, res)
		})
	}
}

// TestTestsRunInAFreshWorld gives two tests the same random tensor: each
// starts with a fresh dispatch.World, so with the generator where a run
// of main starts it, even after the first test seeded its own.
func TestTestsRunInAFreshWorld(t *testing.T) {
	src := `use burn::tensor::{Device, Distribution, Tensor};
#[test]
fn a() {
    let device = Device::default();
    let x = Tensor::<1>::random([3], Distribution::Default, &device);
    device.seed(99);
}
#[test]
fn b() {
    let device = Device::default();
    let x = Tensor::<1>::random([3], Distribution::Default, &device);
}`
	res := runTests(t, src)
	if res.Status != engine.StatusOK || len(res.Trace) < 2 {
		t.Fatalf("status %s, trace %+v, diagnostics %+v", res.Status, res.Trace, res.Diagnostics)
	}
	var notes []string
	for _, e := range res.Trace {
		if e.Op == "float_random" {
			notes = append(notes, e.Note)
		}
	}
	if len(notes) != 2 || notes[0] != notes[1] || notes[0] == "" {
		t.Errorf("the two tests' random tensors differ, or are missing: %q", notes)
	}
	// A run of main that draws twice gets two different tensors: the
	// equality above is the fresh world's, not the generator's.
	twice := run(t, engine.Request{Snippet: `use burn::tensor::{Device, Distribution, Tensor};
fn main() {
    let device = Device::default();
    let x = Tensor::<1>::random([3], Distribution::Default, &device);
    let y = Tensor::<1>::random([3], Distribution::Default, &device);
}`})
	if len(twice.Trace) < 2 || twice.Trace[0].Note == twice.Trace[1].Note || twice.Trace[0].Note != notes[0] {
		t.Errorf("main's two draws: %+v; the tests' draw: %q", twice.Trace, notes[0])
	}
}

// TestTestsAreChecked requires the check to see a test's panic before the
// run, and to leave out the panics a test expects or never reaches.
func TestTestsAreChecked(t *testing.T) {
	res := runTests(t, `#[test]
fn fails() { let x = 2; assert_eq!(x, 3); }
#[test]
#[should_panic(expected = "boom")]
fn expects() { panic!("boom"); }
#[test]
#[ignore]
fn ignored() { panic!("never"); }
fn main() {}`)
	var check []string
	for _, d := range res.Diagnostics {
		if d.Phase == "check" {
			check = append(check, d.Code+" "+d.Message)
		}
	}
	want := []string{"assertion-failed assertion `left == right` failed\n  left: 2\n right: 3"}
	if strings.Join(check, "|") != strings.Join(want, "|") {
		t.Errorf("check diagnostics %q, want %q", check, want)
	}
	checkPromises(t, res)

	clean := runTests(t, `#[test]
#[should_panic]
fn expects() { panic!("anything"); }`)
	for _, d := range clean.Diagnostics {
		if d.Severity == "error" {
			t.Errorf("a should_panic test that panics is reported: %s %s %s", d.Phase, d.Code, d.Message)
		}
	}
	if clean.Status != engine.StatusOK || clean.Panic != nil {
		t.Errorf("status %s, panic %+v", clean.Status, clean.Panic)
	}
}

// TestTestsRejected covers what rustc refuses in a test build, and an
// entry the engine cannot run.
func TestTestsRejected(t *testing.T) {
	cases := []struct{ name, src, entry, code, message string }{
		{"arguments", "#[test]\nfn takes(x: i32) {}", engine.EntryTests, "invalid-test-function",
			"functions used as tests can not have any arguments"},
		{"should_panic returning Result", "#[test]\n#[should_panic]\nfn r() -> Result<(), String> { Ok(()) }", engine.EntryTests,
			"invalid-test-function", "functions using `#[should_panic]` must return `()`"},
		{"a misspelled call no test makes", "fn unused() { nope(); }\n#[test]\nfn t() {}", engine.EntryTests, "unknown-function",
			"cannot find function `nope` in this scope"},
		{"unknown entry", "fn main() {}", "src/tool.rs", "unknown-entry",
			"no target `src/tool.rs` in this package: the playground runs \"src/main.rs\" (main), src/bin/NAME.rs, examples/NAME.rs or \"tests\" (the #[test] functions)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, engine.Request{Snippet: c.src, Entry: c.entry})
			if res.Status != engine.StatusRejected || len(res.Diagnostics) == 0 ||
				res.Diagnostics[0].Code != c.code || res.Diagnostics[0].Message != c.message || res.Tests != nil {
				t.Fatalf("status %s, tests %v, diagnostics %+v", res.Status, res.Tests, res.Diagnostics)
			}
		})
	}
}

// TestMainRunIgnoresTests: without an entry the program runs main, as
// cargo run does, and its Result has no tests; the Request's JSON is
// version 1's.
func TestMainRunIgnoresTests(t *testing.T) {
	src := "fn main() { println!(\"main\"); }\n#[test]\nfn t() { panic!(\"a test\"); }"
	for _, entry := range []string{"", engine.EntryMain} {
		res := run(t, engine.Request{Snippet: src, Entry: entry})
		if res.Status != engine.StatusOK || res.Output != "main\n" || res.Tests != nil {
			t.Errorf("entry %q: status %s, output %q, tests %v", entry, res.Status, res.Output, res.Tests)
		}
		if b, _ := json.Marshal(res); !strings.Contains(string(b), `"tests":null`) {
			t.Errorf("entry %q: the Result has no null tests: %s", entry, b)
		}
	}
	// cfg(test) holds in a test build only.
	gated := "fn main() { helper(); }\n#[cfg(test)]\nfn helper() {}\n#[test]\nfn t() { helper(); }"
	if res := run(t, engine.Request{Snippet: gated}); res.Status != engine.StatusRejected || res.Diagnostics[0].Code != "unknown-function" {
		t.Errorf("main calling a #[cfg(test)] function: status %s, %+v", res.Status, res.Diagnostics)
	}
	if res := runTests(t, gated); res.Status != engine.StatusOK || statuses(res) != "t ok\n" {
		t.Errorf("a test calling a #[cfg(test)] function: status %s, tests %s, %+v", res.Status, statuses(res), res.Diagnostics)
	}
	b, _ := json.Marshal(engine.Request{Snippet: "x"})
	if string(b) != `{"config":"","snippet":"x"}` {
		t.Errorf("a Request without an entry encodes as %s", b)
	}
}

// TestTestsShareTheBudget: the step budget is the whole test run's, as it
// is a run of main's. A test that never ends stops the run inside its line
// of the report, and the tests after it do not run.
func TestTestsShareTheBudget(t *testing.T) {
	res := runTests(t, `#[test]
fn a_quick() { let mut n = 0; for i in 0..100 { n += i; } assert_eq!(n, 4950); }
#[test]
fn b_endless() { let mut n = 0; loop { n += 1; } }
#[test]
fn c_never_reached() {}`)
	if res.Status != engine.StatusRejected || statuses(res) != "a_quick ok\nb_endless failed\n" {
		t.Fatalf("status %s, tests:\n%s", res.Status, statuses(res))
	}
	if want := "\nrunning 3 tests\ntest a_quick ... ok\ntest b_endless ... "; res.Output != want {
		t.Errorf("report %q, want %q", res.Output, want)
	}
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Phase == "run" && d.Code == "playground-time-limit" && d.Span.Start.Line == 4
	}
	if !found {
		t.Errorf("no time limit in b_endless: %+v", res.Diagnostics)
	}
}

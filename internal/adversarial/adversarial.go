package adversarial

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/template"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dispatch-playground/playground/internal/procmem"
)

// Dir is the corpus, relative to a package directory one level below the
// module root (engine/, web/, wasm/).
const Dir = "../testdata/adversarial"

// MaxExpanded bounds what one template may expand to, so that a typo in a
// generator description cannot exhaust the test's memory.
const MaxExpanded = 64 << 20

// Case is one hostile input, expanded.
type Case struct {
	Name    string // file name without .txtar
	About   string // the file's comment: what the input is and why it is hostile
	Config  string // Cargo.toml
	Snippet string // main.rs
	// Body, when set, is the raw body POSTed to /api/run instead of the
	// JSON of Config and Snippet: for inputs that are not a Request at all.
	Body []byte
	// Share, when set, is the raw body POSTed to /api/share.
	Share []byte
	Want  Want
}

// Want is what a case must answer. A nil expectation is not checked.
type Want struct {
	// Engine is engine.Run's answer.
	Engine *Answer
	// Run is POST /api/run's answer.
	Run *Answer
	// Share is POST /api/share's answer.
	Share *Answer
}

// Answer is an HTTP status (0 for engine.Run), the Result's status when
// there is a Result, and codes: the diagnostic codes the Result must hold,
// or the single error code of a 4xx body.
type Answer struct {
	HTTP   int
	Status string
	Codes  []string
}

func (a Answer) String() string {
	s := a.Status
	if a.HTTP != 0 {
		s = strings.TrimSpace(strconv.Itoa(a.HTTP) + " " + s)
	}
	return strings.TrimSpace(s + " " + strings.Join(a.Codes, " "))
}

// Load reads and expands every case in dir, sorted by name.
func Load(dir string) ([]Case, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no cases in %s", dir)
	}
	slices.Sort(names)
	var cases []Case
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		c, err := Parse(strings.TrimSuffix(filepath.Base(name), ".txtar"), data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Parse expands one case file: sections Cargo.toml, main.rs, body and
// share are templates (see Expand); want lists the expected answers, one
// per line:
//
//	engine <result status> <code>...
//	run <http status> [<result status>] <code>...
//	share <http status> [<code>]
func Parse(name string, data []byte) (Case, error) {
	ar := txtar.Parse(data)
	c := Case{Name: name, About: strings.TrimSpace(strings.ReplaceAll(string(ar.Comment), "// ", ""))}
	seen := map[string]bool{}
	for _, f := range ar.Files {
		if seen[f.Name] {
			return Case{}, fmt.Errorf("section %s twice", f.Name)
		}
		seen[f.Name] = true
		if f.Name == "want" {
			w, err := parseWant(string(f.Data))
			if err != nil {
				return Case{}, err
			}
			c.Want = w
			continue
		}
		text, err := Expand(f.Name, string(f.Data))
		if err != nil {
			return Case{}, err
		}
		switch f.Name {
		case "Cargo.toml":
			c.Config = text
		case "main.rs":
			c.Snippet = text
		case "body":
			c.Body = []byte(text)
		case "share":
			c.Share = []byte(text)
		default:
			return Case{}, fmt.Errorf("unknown section %q", f.Name)
		}
	}
	if c.Want == (Want{}) {
		return Case{}, fmt.Errorf("no want section, or an empty one")
	}
	return c, nil
}

// Expand runs a section's template. Besides text/template's own syntax
// (`-}}` drops the newline txtar ends a section with) it has repeat
// (repeat N "text"); quoted strings take Go escapes, so "\xff" is an
// invalid UTF-8 byte and "\x00" a NUL.
func Expand(name, text string) (string, error) {
	tmpl, err := template.New(name).Funcs(template.FuncMap{"repeat": repeat}).Parse(text)
	if err != nil {
		return "", err
	}
	var out limitedBuffer
	if err := tmpl.Execute(&out, nil); err != nil {
		return "", err
	}
	return out.String(), nil
}

func repeat(n int, s string) (string, error) {
	if n < 0 || n > 0 && len(s) > MaxExpanded/n {
		return "", fmt.Errorf("repeat %d × %d bytes is more than %d", n, len(s), MaxExpanded)
	}
	return strings.Repeat(s, n), nil
}

type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > MaxExpanded {
		return 0, fmt.Errorf("a section expands to more than %d bytes", MaxExpanded)
	}
	return b.Buffer.Write(p)
}

func parseWant(text string) (Want, error) {
	var w Want
	for line := range strings.SplitSeq(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		var a Answer
		rest := f[1:]
		if f[0] != "engine" {
			if len(rest) == 0 {
				return Want{}, fmt.Errorf("want %q: no HTTP status", line)
			}
			status, err := strconv.Atoi(rest[0])
			if err != nil || status < 100 || status > 599 {
				return Want{}, fmt.Errorf("want %q: bad HTTP status", line)
			}
			a.HTTP, rest = status, rest[1:]
		}
		if len(rest) > 0 && isResultStatus(rest[0]) {
			a.Status, rest = rest[0], rest[1:]
		}
		a.Codes = rest
		switch {
		case f[0] == "engine" && a.Status == "":
			return Want{}, fmt.Errorf("want %q: engine needs a Result status", line)
		case f[0] == "run" && a.HTTP == 200 && a.Status == "":
			return Want{}, fmt.Errorf("want %q: a 200 carries a Result status", line)
		}
		ans := &a
		switch f[0] {
		case "engine":
			w.Engine = ans
		case "run":
			w.Run = ans
		case "share":
			w.Share = ans
		default:
			return Want{}, fmt.Errorf("want %q: unknown answer %q", line, f[0])
		}
	}
	return w, nil
}

func isResultStatus(s string) bool { return s == "ok" || s == "panicked" || s == "rejected" }

// Bounds every answer is held to.
const (
	// TimeLimit is the sandbox's wall time per run (wasm.DefaultWallTime;
	// the server's test checks they agree). The time each answer takes is
	// logged and reported in BENCHMARKS.md against TimeLimit plus a
	// second; the tests do not assert it, since a loaded machine would
	// fail a clock.
	TimeLimit = 2 * time.Second
	// MemoryLimit bounds the resident memory of the process answering.
	MemoryLimit = 512 << 20
	// ResultLimit is the sandbox's cap on a Result's JSON
	// (wasm.DefaultResultBytes): an engine Result within it is one the
	// server returns unchanged.
	ResultLimit = 4 << 20
)

// Has reports whether codes holds want, which may list alternatives
// separated by "|" (a run may stop at the engine's step budget or at the
// sandbox's wall time first, for one).
func Has(codes []string, want string) bool {
	for alt := range strings.SplitSeq(want, "|") {
		if slices.Contains(codes, alt) {
			return true
		}
	}
	return false
}

// PeakRSS is the most resident memory this process has had, in bytes
// (VmHWM on Linux); elsewhere the memory the Go runtime holds from the
// system, which bounds the resident memory of a pure Go process.
func PeakRSS() int64 {
	if n, err := procmem.PeakRSS(os.Getpid()); err == nil {
		return n
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.Sys)
}

// MemoryWatch samples, until Stop, the resident memory of this process
// together with the processes it started (a server's sandbox workers),
// and keeps the largest sample. Linux only: elsewhere it reads PeakRSS.
type MemoryWatch struct {
	peak atomic.Int64
	stop chan struct{}
	done chan struct{}
}

// WatchMemory starts sampling every interval.
func WatchMemory(interval time.Duration) *MemoryWatch {
	w := &MemoryWatch{stop: make(chan struct{}), done: make(chan struct{})}
	w.sample()
	go func() {
		defer close(w.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-tick.C:
				w.sample()
			}
		}
	}()
	return w
}

func (w *MemoryWatch) sample() {
	n, err := procmem.TreeRSS(os.Getpid())
	if err != nil {
		n = PeakRSS()
	}
	for {
		old := w.peak.Load()
		if n <= old || w.peak.CompareAndSwap(old, n) {
			return
		}
	}
}

// Peak is the largest sample so far, taking one now.
func (w *MemoryWatch) Peak() int64 {
	w.sample()
	return w.peak.Load()
}

// Stop ends the sampling.
func (w *MemoryWatch) Stop() {
	close(w.stop)
	<-w.done
}

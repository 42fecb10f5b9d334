package catalog

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/dispatch-playground/playground/engine/diag"
)

//go:embed records/*.json
var recordFiles embed.FS

//go:embed panics.tsv
var panicTable string

// siteTable lists Burn panic sites that the model raises and the shared
// panic table does not (conversions in burn-std, burn-capture's scope
// checks), in the same columns. Their rows follow the shared ones.
//
//go:embed sites.tsv
var siteTable string

// titleTable gives the records whose message does not read as a title (it
// has placeholders, is one, or names no failure) a title written for
// people: columns code and title, after a header line.
//
//go:embed titles.tsv
var titleTable string

// Record is one catalog entry: what a diagnostic code means, where Burn
// raises it, and how to avoid it. Empty strings and zero stand for the
// JSON nulls of the stored record.
type Record struct {
	Code             string // the slug; also the file name and the diagnostic code
	Repo             string // "tracel-ai/burn" or "dispatch-playground/playground"
	Title            string // the heading: titles.tsv's title, else errorMessage's first line or the code (see title)
	Message          string // errorMessage: the message as written in the source
	Pattern          string // messagePattern: finds the printed message
	Type             string // errorType: panic, compile, error, validation, limit
	Class            string // errorClass: the Rust error type of a returned error
	Severity         string
	FilePath         string
	Line             int
	GithubURL        string
	Documentation    string
	TriggerScenarios string
	CommonSituations string
	Solutions        []string
	ExampleFix       string
	HandlingStrategy string
	ValidationCode   string
	TypeGuard        string
	TryCatchPattern  string
	PreventionTips   []string
	Tags             []string
	BackgroundTag    string

	raw json.RawMessage
	// encoded is raw as encoding/json writes it (see EncodedJSON).
	encoded json.RawMessage
	re      *regexp.Regexp
	// placeholders lists the capture groups that stand for placeholders.
	placeholders []int
	// matchesAnything is set for a pattern with no fixed text, which
	// identifies no message.
	matchesAnything bool
	// lowerMessage and words serve Search's fallbacks.
	lowerMessage string
	words        map[string]bool
}

// JSON returns the stored record object (the inner "record" value) with
// insignificant whitespace removed and every other byte as stored.
func (r Record) JSON() json.RawMessage { return bytes.Clone(r.raw) }

// EncodedJSON is JSON as encoding/json writes a json.RawMessage holding
// it: compact, with <, > and & and the line and paragraph separators
// escaped. It is the catalog's own copy, shared by every caller: read it,
// never change it. An encoder may copy it as it is (IsEncodedJSON); a
// Result holds it, so that encoding a Result does not escape the same
// record again on every run.
func (r Record) EncodedJSON() json.RawMessage { return r.encoded }

// encodedRecords holds the first byte's address of every record's
// EncodedJSON, with its length.
var encodedRecords sync.Map

// IsEncodedJSON reports whether b is, whole, a slice EncodedJSON returned,
// so that it is in the form encoding/json would write and can be copied
// as it is.
func IsEncodedJSON(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	n, ok := encodedRecords.Load(unsafe.SliceData(b))
	return ok && n.(int) == len(b)
}

// clone copies the slices so that callers cannot change the shared catalog.
func (r Record) clone() Record {
	r.Solutions = slices.Clone(r.Solutions)
	r.PreventionTips = slices.Clone(r.PreventionTips)
	r.Tags = slices.Clone(r.Tags)
	return r
}

// Row is one row of Burn's panic table, panics.tsv.
type Row struct {
	ID   string
	File string // crates/...rs, or crates/...rs@commit (post-snapshot)
	// Line is the line number at commit 2c06be35, a comma-separated list
	// when one message is raised at several lines, or the enclosing
	// function ("fn place") for post-snapshot sites.
	Line      string
	Kind      string // panic, expect, assert_eq, unimplemented, unreachable, error, ...
	Message   string // with real newlines; "(bare unreachable!())" for a bare macro
	Cfg       string
	Scenario  string
	Reachable string // "yes", "yes (edge)", "internal", "no (swallowed)", ...
}

// UserReachable reports whether user code can reach the site.
func (r Row) UserReachable() bool { return strings.HasPrefix(r.Reachable, "yes") }

// All returns every record, sorted by code.
func All() []Record {
	c := load()
	out := make([]Record, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.full().clone()
	}
	return out
}

// Codes returns every code, sorted.
func Codes() []string {
	c := load()
	out := make([]string, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.code
	}
	return out
}

// ByCode returns the record of a diagnostic code.
func ByCode(code string) (Record, bool) {
	c := load()
	i, ok := c.byCode[code]
	if !ok {
		return Record{}, false
	}
	return c.entries[i].full().clone(), true
}

// PanicRow returns the row of panics.tsv with the given id.
func PanicRow(id string) (Row, bool) {
	c := load()
	i, ok := c.rowByID[id]
	if !ok {
		return Row{}, false
	}
	return c.rows[i], true
}

// ByPanicID returns the record of the message raised at a panic site.
// The row's message is looked up as written in the source and, failing
// that, as Rust prints it, so that a record keyed either way is found.
// A row whose message column describes the message rather than quoting it
// (the check envelope, a user-defined reason) is found by the slug of that
// column, which is the record's code.
func ByPanicID(id string) (Record, bool) {
	c := load()
	i, known := c.byPanicID.Load(id)
	if !known {
		i, _ = c.byPanicID.LoadOrStore(id, c.panicEntry(id))
	}
	if i.(int) < 0 {
		return Record{}, false
	}
	return c.entries[i.(int)].full().clone(), true
}

// panicEntry finds the entry of ByPanicID, or -1. It matches messages
// with a regular expression, which costs more inside the sandbox than the
// rest of a lookup together, so ByPanicID remembers its answer per row.
func (c *catalog) panicEntry(id string) int {
	row, ok := PanicRow(id)
	if !ok {
		return -1
	}
	for _, msg := range []string{sourceMessage(row), printedMessage(row)} {
		if i, ok := c.byMessage[messageKey(msg)]; ok {
			return i
		}
	}
	if i, ok := c.byCode[diag.Slug(sourceMessage(row))]; ok && c.entries[i].repo == burnRepo {
		return i
	}
	return -1
}

// catalog is the index of the embedded data. Building it reads only each
// record's code, repo and message, so the first diagnostic of a process
// (and of every fresh WebAssembly instance) does not pay for decoding a
// megabyte of JSON; a record is decoded in full the first time it is
// asked for.
type catalog struct {
	entries   []*entry
	byCode    map[string]int
	byMessage map[string]int
	rows      []Row
	rowByID   map[string]int
	// byPanicID remembers ByPanicID's entry index (an int, -1 for none)
	// per panic row.
	byPanicID sync.Map
}

// entry is one record file, decoded on first use.
type entry struct {
	code, repo, message string
	data                []byte
	once                sync.Once
	record              Record
}

// full decodes the entry's record once. The data is part of the build and
// checked by the package tests, so a malformed file is a programming error.
func (e *entry) full() Record {
	e.once.Do(func() {
		r, err := parseRecord(e.data)
		if err == nil {
			encodedRecords.Store(unsafe.SliceData(r.encoded), len(r.encoded))
		}
		if err != nil {
			panic("catalog: " + e.code + ": " + err.Error())
		}
		e.record = r
	})
	return e.record
}

// records decodes every record, in code order.
func (c *catalog) records() []Record {
	out := make([]Record, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.full()
	}
	return out
}

// load parses the embedded data once. The data is part of the build and
// checked by the package tests, so a malformed file is a programming error.
var load = sync.OnceValue(func() *catalog {
	c, err := parse(recordFiles, panicTable, siteTable)
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return c
})

func parse(files embed.FS, tables ...string) (*catalog, error) {
	c := &catalog{
		byCode:    map[string]int{},
		byMessage: map[string]int{},
		rowByID:   map[string]int{},
	}
	for _, table := range tables {
		rows, err := parseTable(table)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if _, dup := c.rowByID[r.ID]; dup {
				return nil, fmt.Errorf("panic id %q is on two rows", r.ID)
			}
			c.rowByID[r.ID] = len(c.rows)
			c.rows = append(c.rows, r)
		}
	}

	names, err := files.ReadDir("records")
	if err != nil {
		return nil, err
	}
	for _, f := range names {
		data, err := files.ReadFile(path.Join("records", f.Name()))
		if err != nil {
			return nil, err
		}
		e, err := indexRecord(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		c.entries = append(c.entries, e)
	}
	slices.SortFunc(c.entries, func(a, b *entry) int { return strings.Compare(a.code, b.code) })
	for i, e := range c.entries {
		if _, dup := c.byCode[e.code]; dup {
			return nil, fmt.Errorf("code %q is used by two records", e.code)
		}
		c.byCode[e.code] = i
		if e.repo == burnRepo {
			c.byMessage[messageKey(e.message)] = i
		}
	}
	return c, nil
}

// indexRecord reads the fields the index needs from a record file without
// decoding the rest. Record files are written as the seeds are: two-space
// indentation, one key per line (the package tests hold every file to it).
func indexRecord(data []byte) (*entry, error) {
	e := &entry{data: data}
	for _, f := range []struct {
		key string
		dst *string
	}{{"slug", &e.code}, {"repo", &e.repo}, {"errorMessage", &e.message}} {
		v, err := recordField(data, f.key)
		if err != nil {
			return nil, err
		}
		*f.dst = v
	}
	if e.code == "" {
		return nil, fmt.Errorf("no slug")
	}
	return e, nil
}

// recordField returns the string value of a key of the record object.
func recordField(data []byte, key string) (string, error) {
	marker := []byte("\n    \"" + key + "\": ")
	i := bytes.Index(data, marker)
	if i < 0 {
		return "", fmt.Errorf("no %q key", key)
	}
	rest := data[i+len(marker):]
	if bytes.HasPrefix(rest, []byte("null")) {
		return "", nil
	}
	if len(rest) == 0 || rest[0] != '"' {
		return "", fmt.Errorf("%q is not a string", key)
	}
	end := 1
	for end < len(rest) && rest[end] != '"' {
		if rest[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(rest) {
		return "", fmt.Errorf("%q: unterminated string", key)
	}
	var v string
	if err := json.Unmarshal(rest[:end+1], &v); err != nil {
		return "", fmt.Errorf("%q: %w", key, err)
	}
	return v, nil
}

const burnRepo = "tracel-ai/burn"

// storedRecord mirrors the JSON keys of a record.
type storedRecord struct {
	Slug             string   `json:"slug"`
	Repo             string   `json:"repo"`
	ErrorMessage     string   `json:"errorMessage"`
	MessagePattern   string   `json:"messagePattern"`
	ErrorType        string   `json:"errorType"`
	ErrorClass       *string  `json:"errorClass"`
	Severity         string   `json:"severity"`
	FilePath         *string  `json:"filePath"`
	LineNumber       *int     `json:"lineNumber"`
	GithubURL        *string  `json:"githubUrl"`
	Documentation    string   `json:"documentation"`
	TriggerScenarios string   `json:"triggerScenarios"`
	CommonSituations string   `json:"commonSituations"`
	Solutions        []string `json:"solutions"`
	ExampleFix       *string  `json:"exampleFix"`
	HandlingStrategy string   `json:"handlingStrategy"`
	ValidationCode   *string  `json:"validationCode"`
	TypeGuard        *string  `json:"typeGuard"`
	TryCatchPattern  *string  `json:"tryCatchPattern"`
	PreventionTips   []string `json:"preventionTips"`
	Tags             []string `json:"tags"`
	BackgroundTag    string   `json:"backgroundTag"`
}

// htmlEscaped is b with json.HTMLEscape applied, which is what
// json.Marshal does to a compact json.RawMessage.
func htmlEscaped(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b))
	json.HTMLEscape(&out, b)
	return out.Bytes()
}

func parseRecord(data []byte) (Record, error) {
	var file struct {
		Record json.RawMessage `json:"record"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return Record{}, err
	}
	var s storedRecord
	if err := json.Unmarshal(file.Record, &s); err != nil {
		return Record{}, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, file.Record); err != nil {
		return Record{}, err
	}
	re, err := regexp.Compile(s.MessagePattern)
	if err != nil {
		return Record{}, fmt.Errorf("messagePattern: %w", err)
	}
	groups, err := placeholderGroups(s.MessagePattern)
	if err != nil {
		return Record{}, fmt.Errorf("messagePattern: %w", err)
	}
	r := Record{
		Code:             s.Slug,
		Repo:             s.Repo,
		Title:            title(s.Repo, s.ErrorMessage, s.Slug),
		Message:          s.ErrorMessage,
		Pattern:          s.MessagePattern,
		Type:             s.ErrorType,
		Class:            deref(s.ErrorClass),
		Severity:         s.Severity,
		FilePath:         deref(s.FilePath),
		GithubURL:        deref(s.GithubURL),
		Documentation:    s.Documentation,
		TriggerScenarios: s.TriggerScenarios,
		CommonSituations: s.CommonSituations,
		Solutions:        s.Solutions,
		ExampleFix:       deref(s.ExampleFix),
		HandlingStrategy: s.HandlingStrategy,
		ValidationCode:   deref(s.ValidationCode),
		TypeGuard:        deref(s.TypeGuard),
		TryCatchPattern:  deref(s.TryCatchPattern),
		PreventionTips:   s.PreventionTips,
		Tags:             s.Tags,
		BackgroundTag:    s.BackgroundTag,
		raw:              compact.Bytes(),
		encoded:          htmlEscaped(compact.Bytes()),
		re:               re,
		placeholders:     groups,
		// Text without a single letter cannot contain any message's wording.
		matchesAnything: re.MatchString("\x00"),
		lowerMessage:    strings.ToLower(s.ErrorMessage),
		words:           words(s.ErrorMessage + " " + s.Slug),
	}
	if s.LineNumber != nil {
		r.Line = *s.LineNumber
	}
	return r, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func parseTable(table string) ([]Row, error) {
	lines := strings.Split(strings.TrimRight(table, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "id\t") {
		return nil, fmt.Errorf("panics.tsv: missing header")
	}
	rows := make([]Row, 0, len(lines)-1)
	for n, line := range lines[1:] {
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("panics.tsv:%d: %d fields, want 8", n+2, len(f))
		}
		rows = append(rows, Row{
			ID: f[0], File: f[1], Line: f[2], Kind: f[3],
			// The table writes a newline inside a message as the two
			// characters \n; no message contains a literal backslash.
			Message: strings.ReplaceAll(f[4], `\n`, "\n"),
			Cfg:     f[5], Scenario: f[6], Reachable: f[7],
		})
	}
	return rows, nil
}

// placeholder matches a Rust format argument: {}, {:?}, {name}, {0:#?}.
var placeholder = regexp.MustCompile(`\{[A-Za-z0-9_]*(?::[^{}]*)?\}`)

// messageKey erases argument names, which do not change what is printed,
// so "{t:?} and {g:?}" and "{:?} and {:?}" are the same message. A message
// that is nothing but placeholders ("{err}", "{reason}") could print
// anything; its names are all that tell such messages apart, so they stay.
func messageKey(msg string) string {
	if strings.TrimSpace(placeholder.ReplaceAllString(msg, "")) == "" {
		return msg
	}
	return placeholder.ReplaceAllStringFunc(msg, func(p string) string {
		if i := strings.IndexByte(p, ':'); i >= 0 {
			return "{" + p[i:]
		}
		return "{}"
	})
}

// bareMacro is how panics.tsv writes a macro called without a message.
func bareMacro(msg string) bool { return strings.HasPrefix(msg, "(bare ") }

// Rust's prefixes for the message of each panicking macro.
var macroPrefix = map[string]string{
	"unimplemented": "not implemented",
	"unreachable":   "internal error: entered unreachable code",
	"todo":          "not yet implemented",
}

// sourceMessage is the message as the catalog keys it (see the package
// documentation): the source text, or Rust's text for a bare macro.
func sourceMessage(r Row) string {
	if bareMacro(r.Message) {
		return macroPrefix[r.Kind]
	}
	return r.Message
}

// printedMessage is the row's message with the prefix Rust adds.
func printedMessage(r Row) string {
	prefix, ok := macroPrefix[r.Kind]
	if !ok {
		return r.Message
	}
	if bareMacro(r.Message) {
		return prefix
	}
	return prefix + ": " + r.Message
}

// title is a record's heading: the title titles.tsv gives its code, else,
// for a Burn record, the first line of its message, and for a playground
// record (or a message of placeholders only) its code, whose words are
// chosen to read as a title. The table has a row for every message with a
// placeholder (the package tests hold it to that); were one missing, its
// placeholders would show as "…".
func title(repo, msg, code string) string {
	if t, ok := titles()[code]; ok {
		return t
	}
	first, _, _ := strings.Cut(msg, "\n")
	t := strings.TrimSpace(placeholder.ReplaceAllString(first, "…"))
	if (repo == burnRepo && strings.Trim(t, "… ") != "") || code == "" {
		return t
	}
	words := strings.Split(code, "-")
	for i, w := range words {
		if spelled, ok := titleWords[w]; ok {
			words[i] = spelled
		}
	}
	words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
	return strings.Join(words, " ")
}

// WrittenTitles is titles.tsv by code: the titles written for the records
// whose message does not read as one. The page's cards take them from it.
func WrittenTitles() map[string]string { return maps.Clone(titles()) }

// titles is titleTable by code. The table is part of the build and checked
// by the package tests, so a malformed row is a programming error.
var titles = sync.OnceValue(func() map[string]string {
	t, err := parseTitles(titleTable)
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return t
})

// parseTitles reads a table in titles.tsv's columns.
func parseTitles(table string) (map[string]string, error) {
	lines := strings.Split(strings.TrimRight(table, "\n"), "\n")
	if lines[0] != "code\ttitle" {
		return nil, fmt.Errorf("titles.tsv: missing header")
	}
	out := make(map[string]string, len(lines)-1)
	for n, line := range lines[1:] {
		f := strings.Split(line, "\t")
		if len(f) != 2 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("titles.tsv:%d: want a code and a title", n+2)
		}
		if _, dup := out[f[0]]; dup {
			return nil, fmt.Errorf("titles.tsv:%d: code %q is on two rows", n+2, f[0])
		}
		out[f[0]] = f[1]
	}
	return out, nil
}

// titleWords spells the words of codes that are not written in lowercase.
var titleWords = map[string]string{"utf8": "UTF-8", "toml": "TOML", "api": "API"}

// placeholderGroups returns the numbers of the capture groups written
// "(.+?)", the form a placeholder takes in a pattern.
func placeholderGroups(pattern string) ([]int, error) {
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	var groups []int
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpCapture && len(re.Sub) == 1 {
			sub := re.Sub[0]
			if sub.Op == syntax.OpPlus && sub.Flags&syntax.NonGreedy != 0 &&
				len(sub.Sub) == 1 && sub.Sub[0].Op == syntax.OpAnyCharNotNL {
				groups = append(groups, re.Cap)
			}
		}
		for _, s := range re.Sub {
			walk(s)
		}
	}
	walk(tree)
	return groups, nil
}

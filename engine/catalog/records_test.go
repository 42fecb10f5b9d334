package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
)

// sharedDir is the team's shared folder, beside the repository root.
var sharedDir = filepath.Join("..", "..", "..", "shared")

// seedKeys are the keys of a record, in the order of the seed records.
var seedKeys = []string{
	"id", "repo", "slug", "errorCode", "errorMessage", "messagePattern",
	"errorType", "errorClass", "httpStatus", "severity", "filePath",
	"lineNumber", "sourceCode", "sourceCodeStart", "sourceCodeEnd",
	"githubUrl", "documentation", "triggerScenarios", "commonSituations",
	"solutions", "exampleFix", "handlingStrategy", "validationCode",
	"typeGuard", "tryCatchPattern", "preventionTips", "tags",
	"backgroundTag", "analyzedSha", "analyzedAt", "contentChangedAt",
	"schemaVersion",
}

var seedFiles = []string{
	"input-tensor-is-on-the-wrong-backend.json",
	"libtorch-is-not-supported-as-a-remote-server-backe.json",
}

const (
	analyzedSha = "2c06be351006851d42fdb6df16b976f4a82d9747"
	commitDate  = "2026-08-21T00:00:00.000Z"
	ownRepo     = "dispatch-playground/playground"
)

// playgroundCodes are the errors of the playground itself that every
// phase may rely on; the phases add more as they need them.
var playgroundCodes = []string{
	"syntax-error", "unsupported-syntax", "invalid-utf8", "unterminated-string",
	"unterminated-comment", "nesting-too-deep", "invalid-toml", "unknown-feature",
	"unknown-key", "invalid-config", "unknown-method", "unknown-function",
	"unknown-variable", "feature-not-enabled", "wrong-arguments", "unsupported-api",
	"type-mismatch", "playground-time-limit", "playground-memory-limit",
	"playground-output-limit", "playground-missing-hardware", "snippet-too-large",
	"assertion-failed", "user-panic",
}

type recordFile struct {
	name string
	data []byte
	rec  map[string]any
	keys []string // record keys in file order
	top  []string // wrapper keys in file order
}

func readRecordFiles(t *testing.T) []recordFile {
	t.Helper()
	entries, err := fs.ReadDir(recordFiles, "records")
	if err != nil {
		t.Fatal(err)
	}
	var files []recordFile
	for _, e := range entries {
		data, err := fs.ReadFile(recordFiles, "records/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		f := recordFile{name: e.Name(), data: data}
		var wrapper struct {
			Record json.RawMessage `json:"record"`
		}
		if err := json.Unmarshal(data, &wrapper); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if err := json.Unmarshal(wrapper.Record, &f.rec); err != nil {
			t.Fatalf("%s: record: %v", e.Name(), err)
		}
		f.top = objectKeys(t, data)
		f.keys = objectKeys(t, wrapper.Record)
		files = append(files, f)
	}
	return files
}

// objectKeys lists the keys of the JSON object in data, in order.
func objectKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %v %v", tok, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func isSeed(name string) bool { return slices.Contains(seedFiles, name) }

func TestSeedsAreCopiedVerbatim(t *testing.T) {
	for _, name := range seedFiles {
		want, err := os.ReadFile(filepath.Join(sharedDir, "seeds", name))
		if errors.Is(err, fs.ErrNotExist) {
			t.Skip("shared seeds not present")
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := fs.ReadFile(recordFiles, "records/"+name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("records/%s differs from the shared seed", name)
		}
	}
}

func TestPanicTableIsTheSharedOne(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(sharedDir, "burn", "panics.tsv"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("shared panics.tsv not present")
	}
	if err != nil {
		t.Fatal(err)
	}
	if panicTable != string(want) {
		t.Error("engine/catalog/panics.tsv differs from ../shared/burn/panics.tsv; copy it again")
	}
}

func TestRecordFilesFollowTheSeedSchema(t *testing.T) {
	for _, f := range readRecordFiles(t) {
		if !slices.Equal(f.top, []string{"record", "datasetVersion"}) {
			t.Errorf("%s: wrapper keys %v", f.name, f.top)
		}
		if !slices.Equal(f.keys, seedKeys) {
			t.Errorf("%s: record keys %v\nwant %v", f.name, f.keys, seedKeys)
		}
		var compact, indented bytes.Buffer
		if err := json.Compact(&compact, f.data); err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if strings.TrimRight(string(f.data), "\n") != indented.String() {
			t.Errorf("%s: not indented by two spaces", f.name)
		}
	}
}

func TestCodesAreSlugsOfTheirMessages(t *testing.T) {
	files := readRecordFiles(t)
	columnSlugs := map[string]bool{} // codes that are slugs of a row's message column
	for _, row := range load().rows {
		if r, ok := ByPanicID(row.ID); ok && r.Code == diag.Slug(sourceMessage(row)) {
			columnSlugs[r.Code] = true
		}
	}
	bySlug := map[string]string{} // plain slug -> message holding it
	for _, f := range files {
		if msg, _ := f.rec["errorMessage"].(string); f.rec["repo"] == burnRepo {
			bySlug[f.rec["slug"].(string)] = msg
		}
	}
	suffix := regexp.MustCompile(`^(.*)-([2-9])$`)
	for _, f := range files {
		slug, _ := f.rec["slug"].(string)
		if f.name != slug+".json" {
			t.Errorf("%s: slug field %q", f.name, slug)
		}
		if f.rec["repo"] != burnRepo || isSeed(f.name) {
			continue
		}
		msg := f.rec["errorMessage"].(string)
		want := diag.Slug(msg)
		if slug == want || columnSlugs[slug] {
			continue
		}
		// A later message whose slug is taken by a different message.
		m := suffix.FindStringSubmatch(slug)
		if m == nil || m[1] != want || bySlug[want] == "" || bySlug[want] == msg {
			t.Errorf("%s: slug %q, want %q (message %q)", f.name, slug, want, msg)
		}
	}
}

func TestIDsAreUniqueAndDerivedFromTheCode(t *testing.T) {
	seen := map[string]string{}
	for _, f := range readRecordFiles(t) {
		id, _ := f.rec["id"].(string)
		if other, dup := seen[id]; dup {
			t.Errorf("%s and %s share id %s", f.name, other, id)
		}
		seen[id] = f.name
		if isSeed(f.name) {
			continue
		}
		sum := sha256.Sum256([]byte(f.rec["repo"].(string) + ":" + f.rec["slug"].(string)))
		if want := hex.EncodeToString(sum[:])[:16]; id != want {
			t.Errorf("%s: id %s, want %s", f.name, id, want)
		}
	}
}

// rustOnlySyntax finds RE2 constructs that JavaScript's RegExp lacks or
// reads differently: flags and named groups in Go's spelling, \A \z \Q \C,
// Unicode classes and POSIX classes.
var rustOnlySyntax = regexp.MustCompile(`\(\?[^:=!]|\\[AzQCpP]|\[\[:`)

func TestPatternsMatchTheirMessages(t *testing.T) {
	for _, r := range All() {
		if rustOnlySyntax.MatchString(r.Pattern) {
			t.Errorf("%s: pattern %q uses syntax JavaScript lacks", r.Code, r.Pattern)
		}
		if onlyPlaceholders(r.Message) {
			// No sample stands for the texts that can fill it; the
			// pattern must name them.
			if r.matchesAnything {
				t.Errorf("%s: pattern %q matches anything", r.Code, r.Pattern)
			}
			continue
		}
		filled := fillPlaceholders(r.Message)
		if !r.re.MatchString(filled) {
			t.Errorf("%s: pattern %q does not match %q", r.Code, r.Pattern, filled)
		}
	}
}

func onlyPlaceholders(msg string) bool {
	return strings.TrimSpace(placeholder.ReplaceAllString(msg, "")) == ""
}

// fillPlaceholders puts a sample value, full of regexp metacharacters, in
// each placeholder, the way a Debug print would.
func fillPlaceholders(msg string) string {
	return placeholder.ReplaceAllString(msg, "Autodiff { device: Flex(Cpu), index: [0.5] }")
}

func TestBurnRecordsCiteTheModelledCommit(t *testing.T) {
	for _, f := range readRecordFiles(t) {
		if isSeed(f.name) {
			continue
		}
		r := f.rec
		for _, k := range []string{"analyzedAt", "contentChangedAt"} {
			if r[k] != commitDate {
				t.Errorf("%s: %s = %v", f.name, k, r[k])
			}
		}
		var wrapper struct{ DatasetVersion string }
		json.Unmarshal(f.data, &wrapper)
		if wrapper.DatasetVersion != commitDate {
			t.Errorf("%s: datasetVersion %q", f.name, wrapper.DatasetVersion)
		}
		if sev := r["severity"]; r["schemaVersion"] != 2.0 || (sev != "error" && sev != "warning" && sev != "note") {
			t.Errorf("%s: schemaVersion %v severity %v", f.name, r["schemaVersion"], r["severity"])
		}
		for _, k := range []string{"sourceCode", "sourceCodeStart", "sourceCodeEnd", "errorCode", "httpStatus"} {
			if r[k] != nil {
				t.Errorf("%s: %s should be null", f.name, k)
			}
		}
		for _, k := range []string{"documentation", "triggerScenarios", "commonSituations", "handlingStrategy", "backgroundTag"} {
			if s, _ := r[k].(string); strings.TrimSpace(s) == "" {
				t.Errorf("%s: empty %s", f.name, k)
			}
		}
		for _, k := range []string{"solutions", "preventionTips", "tags"} {
			if l, _ := r[k].([]any); len(l) == 0 {
				t.Errorf("%s: empty %s", f.name, k)
			}
		}
		if r["repo"] != burnRepo {
			continue
		}
		if r["analyzedSha"] != analyzedSha {
			t.Errorf("%s: analyzedSha %v", f.name, r["analyzedSha"])
		}
		file, _ := r["filePath"].(string)
		url, _ := r["githubUrl"].(string)
		if line, ok := r["lineNumber"].(float64); ok {
			want := fmt.Sprintf("https://github.com/tracel-ai/burn/blob/%s/%s#L%d", analyzedSha, file, int(line))
			if url != want {
				t.Errorf("%s: githubUrl %q, want %q", f.name, url, want)
			}
		} else if !strings.HasPrefix(url, "https://github.com/tracel-ai/burn/blob/") || !strings.HasSuffix(url, "/"+file) {
			t.Errorf("%s: githubUrl %q does not point at %s", f.name, url, file)
		}
	}
}

func TestPlaygroundRecords(t *testing.T) {
	for _, code := range playgroundCodes {
		if _, ok := ByCode(code); !ok {
			t.Errorf("no record for %s", code)
		}
	}
	for _, r := range All() {
		if r.Repo != ownRepo && r.Repo != burnRepo {
			t.Errorf("%s: repo %q", r.Code, r.Repo)
		}
		if r.Repo != ownRepo {
			continue
		}
		code := r.Code
		if r.Repo != ownRepo || (r.Type != "validation" && r.Type != "limit") {
			t.Errorf("%s: repo %q errorType %q", code, r.Repo, r.Type)
		}
		if r.FilePath != "" || r.Line != 0 || r.GithubURL != "" {
			t.Errorf("%s: cites a file", code)
		}
		var raw map[string]any
		json.Unmarshal(r.JSON(), &raw)
		for _, k := range []string{"filePath", "lineNumber", "githubUrl"} {
			if raw[k] != nil {
				t.Errorf("%s: %s should be null", code, k)
			}
		}
		if id := raw["id"].(string); id != idOf(ownRepo, code) {
			t.Errorf("%s: id %s", code, id)
		}
	}
}

func idOf(repo, code string) string {
	sum := sha256.Sum256([]byte(repo + ":" + code))
	return hex.EncodeToString(sum[:])[:16]
}

// TestEveryReachablePanicHasARecord fails until every user-reachable row of
// panics.tsv has its record; it names all the missing ids at once.
func TestEveryReachablePanicHasARecord(t *testing.T) {
	var missing []string
	for _, row := range load().rows {
		if !row.UserReachable() {
			continue
		}
		if _, ok := ByPanicID(row.ID); !ok {
			missing = append(missing, row.ID)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d reachable panic ids have no record: %s", len(missing), strings.Join(missing, " "))
	}
}

func TestEveryBurnRecordHasAPanicSite(t *testing.T) {
	cited := map[string]bool{}
	for _, row := range load().rows {
		if r, ok := ByPanicID(row.ID); ok {
			cited[r.Code] = true
		}
	}
	for _, r := range All() {
		if r.Repo == burnRepo && !cited[r.Code] {
			t.Errorf("%s: message %q is on no row of panics.tsv", r.Code, r.Message)
		}
	}
}

func TestRecordsCiteTheFirstRowOfTheirMessage(t *testing.T) {
	first := map[string]Row{}
	for _, row := range load().rows {
		r, ok := ByPanicID(row.ID)
		if _, seen := first[r.Code]; ok && !seen && row.UserReachable() {
			first[r.Code] = row
		}
	}
	for _, r := range All() {
		row, ok := first[r.Code]
		if !ok || isSeed(r.Code+".json") {
			continue
		}
		file, _, _ := strings.Cut(row.File, "@")
		if r.FilePath != file {
			t.Errorf("%s: filePath %q, first reachable row %s is in %q", r.Code, r.FilePath, row.ID, file)
		}
		if want := fmt.Sprint(r.Line); r.Line != 0 && !strings.HasPrefix(row.Line+",", want+",") {
			t.Errorf("%s: lineNumber %d, first reachable row %s is at %s", r.Code, r.Line, row.ID, row.Line)
		}
	}
}

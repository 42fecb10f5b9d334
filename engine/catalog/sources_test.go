package catalog

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// unsited lists the Burn records that do not link to a line at the
// modelled commit, each with the reason it has none.
var unsited = map[string]string{
	// The two seeds are copied verbatim from the shared seeds
	// (TestSeedsAreCopiedVerbatim) and keep the commit and line range they
	// came with.
	"input-tensor-is-on-the-wrong-backend":               "seed; its message is raised only by newer Burn (burn-backend-extension's routing.rs)",
	"libtorch-is-not-supported-as-a-remote-server-backe": "seed; at 2c06be35 the panic is at crates/burn-dispatch/src/remote_server.rs:115",

	// Messages only newer Burn has (the post-snapshot rows of panics.tsv):
	// their file is not in the tree at 2c06be35, so the record links to the
	// file at the newer commit and says so in its documentation.
	"a-quantized-tensor-is-not-split-over-a-device-grou": "newer Burn only: crates/burn-dispatch/src/group.rs@0bd1f938",
	"only-a-tensor-on-a-device-group-has-a-placement":    "newer Burn only: crates/burn-dispatch/src/group.rs@0bd1f938",
	"failed-to-read-tensor-during-cross-backend-transfe": "newer Burn only: crates/burn-dispatch/src/ops/transfer.rs@0a91cc0d",
	"autodiff-context-requires-the-autodiff-feature":     "newer Burn only: crates/burn-backend-extension/src/routing.rs@23486cc",
	"autodiff-float-input-reached-concrete-dispatch":     "newer Burn only: crates/burn-backend-extension/src/routing.rs@23486cc",
	"autodiff-not-supported-for-custom-op":               "newer Burn only: crates/burn-backend-extension/src/routing.rs@23486cc",
	"backend-extension-input-is-on-the-wrong-backend":    "newer Burn only: crates/burn-backend-extension/src/routing.rs@23486cc",
	"only-float-tensors-may-use-an-autodiff-primitive":   "newer Burn only: crates/burn-backend-extension/src/routing.rs@23486cc",
}

const burnBlob = "https://github.com/tracel-ai/burn/blob/"

// burnSite is where a record says Burn raises its message.
type burnSite struct {
	code, file, url, message string
	line                     int
}

// burnSites lists the sites of the records of tracel-ai/burn and of any
// record that links into Burn's repository.
func burnSites(t *testing.T) []burnSite {
	t.Helper()
	var sites []burnSite
	for _, f := range readRecordFiles(t) {
		r := f.rec
		url, _ := r["githubUrl"].(string)
		if r["repo"] != burnRepo && !strings.HasPrefix(url, burnBlob) {
			continue
		}
		s := burnSite{code: r["slug"].(string), url: url}
		s.file, _ = r["filePath"].(string)
		s.message, _ = r["errorMessage"].(string)
		if line, ok := r["lineNumber"].(float64); ok {
			s.line = int(line)
		}
		sites = append(sites, s)
	}
	return sites
}

func TestBurnRecordsLinkToTheirLineAtTheModelledCommit(t *testing.T) {
	for _, s := range burnSites(t) {
		if _, ok := unsited[s.code]; ok {
			if strings.HasPrefix(s.url, burnBlob+analyzedSha+"/") {
				t.Errorf("%s: listed as having no line at the modelled commit, but links to %s", s.code, s.url)
			}
			continue
		}
		if s.line < 1 {
			t.Errorf("%s: lineNumber %d", s.code, s.line)
		}
		if want := fmt.Sprintf("%s%s/%s#L%d", burnBlob, analyzedSha, s.file, s.line); s.url != want {
			t.Errorf("%s: githubUrl %q, want %q", s.code, s.url, want)
		}
	}
	for code := range unsited {
		if r, ok := ByCode(code); !ok || r.Repo != burnRepo {
			t.Errorf("unsited lists %s, which is no Burn record", code)
		}
	}
}

// citesACall lists the Burn records that cite, as the panic table does,
// the call in Burn that makes the message, whose text is elsewhere: in a
// macro's body, in an error type's Display, in a log line, or in a crate
// Burn depends on. The value is where the text is ("" for another crate).
var citesACall = map[string]string{
	// Shape::reshape of cubecl-zspace divides without a check.
	"attempt-to-divide-by-zero": "",
	// BlockSize::new of cubecl-common has the debug_assert!.
	"tried-creating-a-block-size-larger-than-the-cap": "",
	// set_default_dtypes returns burn-std's DeviceError.
	"device-device-does-not-support-the-requested-data":  "crates/burn-std/src/device_settings.rs:65",
	"device-device-settings-have-already-been-initializ": "crates/burn-std/src/device_settings.rs:74",
	// The server logs the reason PeerAuthorizer::authorize returns.
	"user-defined-reason-returned-by-peerauthorizer-aut": "crates/burn-remote/src/transport/iroh/protocol.rs:182",
	// The panic! is in dispatch_rank!'s body; Rust names the call.
	"unsupported-tensor-rank-for-optimizer-state-other": "crates/burn-optim/src/optim/module/base.rs:126",
}

// runtimeFragments gives, for a message Rust itself prints (an arithmetic
// overflow, an index, unwrap), the construct in Burn's source that raises
// it.
var runtimeFragments = map[string]string{
	"attempt to calculate the remainder with a divisor of zero":                              "%",
	"attempt to subtract with overflow":                                                      " - ",
	"called `Option::unwrap()` on a `None` value":                                            ".unwrap()",
	"called `Result::unwrap()` on an `Err` value: Any { .. }":                                ".unwrap()",
	"index out of bounds: the len is {len} but the index is {index}":                         "[",
	"range end index 1 out of range for slice of length 0":                                   "[..1]",
	"range end index {} out of range for slice of length {}":                                 "[..",
	"copy_from_slice: source slice length ({}) does not match destination slice length ({})": ".copy_from_slice(",
	"assertion `left == right` failed":                                                       "assert_eq!",
	"assertion failed: step != 0":                                                            ".step_by(", // std's assert
}

// panicking are the constructs that raise a message made of placeholders
// only.
var panicking = []string{"panic!", "assert", ".expect(", ".unwrap(", "check!", "unreachable!", "unimplemented!", "todo!", "compile_error!", "Err("}

// TestBurnRecordsCiteTheirMessage reads each cited file at the modelled
// commit, when $BURN_GIT_DIR names a snapshot of tracel-ai/burn (a git
// directory or a work tree), and checks that the cited line, a line
// within three of it, or the macro or call that opens on it holds the
// message's longest literal text.
func TestBurnRecordsCiteTheirMessage(t *testing.T) {
	src := burnSnapshot(t)
	for _, s := range burnSites(t) {
		text, exists := src.file(t, s.file)
		frags := messageFragments(s.message)
		if reason, ok := unsited[s.code]; ok {
			if at := src.grep(t, frags[0]); at != "" && !isSeed(s.code+".json") {
				t.Errorf("%s: listed as having no line at the modelled commit (%s), but %s holds %q", s.code, reason, at, frags[0])
			}
			continue
		}
		if !exists {
			t.Errorf("%s: %s is not in Burn's tree at %.8s", s.code, s.file, analyzedSha)
			continue
		}
		lines := strings.Split(text, "\n")
		if s.line < 1 || s.line > len(lines) {
			t.Errorf("%s: %s has %d lines, the record cites line %d", s.code, s.file, len(lines), s.line)
			continue
		}
		if at, ok := citesACall[s.code]; ok {
			if file, line, found := strings.Cut(at, ":"); found {
				n, _ := strconv.Atoi(line)
				other, ok := src.file(t, file)
				if !ok || !holdsFragment(strings.Split(other, "\n"), n, frags) {
					t.Errorf("%s: the message's text is not at %s", s.code, at)
				}
			}
			continue
		}
		if !holdsFragment(lines, s.line, frags) {
			t.Errorf("%s: %s:%d: neither a line within 3 of it nor what opens on it holds %q", s.code, s.file, s.line, frags)
		}
	}
	for code := range citesACall {
		if _, ok := ByCode(code); !ok {
			t.Errorf("citesACall lists %s, which is no record", code)
		}
	}
}

// holdsFragment reports whether one of frags is on a line within three
// of line (1-based), a string continued with a backslash read as one
// line, or in the macro or call whose parenthesis opens on that line.
func holdsFragment(lines []string, line int, frags []string) bool {
	for i := max(line-4, 0); i < min(line+3, len(lines)); i++ {
		if containsAny(continued(lines, i, 0), frags) {
			return true
		}
	}
	return containsAny(continued(lines, line-1, 40), frags)
}

func containsAny(s string, frags []string) bool {
	for _, f := range frags {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// continued is line i with the lines a trailing backslash continues it
// onto, joined as Rust joins them; with maxLines > 0 it reads on, up to
// that many lines, until the parentheses that open on line i close.
func continued(lines []string, i, maxLines int) string {
	var b strings.Builder
	depth, inString := 0, false
	for j := i; j < len(lines); j++ {
		l := lines[j]
		if j > i {
			l = strings.TrimLeft(l, " \t")
		}
		cont := strings.HasSuffix(l, "\\")
		b.WriteString(strings.TrimSuffix(l, "\\"))
		for k := 0; k < len(l); k++ {
			switch c := l[k]; {
			case c == '\\' && inString:
				k++
			case c == '"':
				inString = !inString
			case (c == '(' || c == '{') && !inString:
				depth++
			case (c == ')' || c == '}') && !inString:
				depth--
			}
		}
		if cont {
			continue
		}
		if maxLines == 0 || depth <= 0 || j-i >= maxLines {
			break
		}
		b.WriteString("\n")
	}
	return b.String()
}

// messageFragments are the texts that identify a message in Burn's
// source: the longest run of its literal text that reads as written on
// one line (the message cut at its placeholders, at line breaks and at
// the characters a Rust string literal escapes, a colon that expect
// adds trimmed), the construct that raises a message Rust prints, or,
// for a message with no text of its own, the panicking constructs.
func messageFragments(msg string) []string {
	if f, ok := runtimeFragments[msg]; ok {
		return []string{f}
	}
	for kind, prefix := range macroPrefix {
		if msg == prefix {
			return []string{kind + "!"}
		}
	}
	if expr, ok := strings.CutPrefix(msg, "assertion failed: "); ok {
		return []string{expr}
	}
	best := ""
	for _, lit := range placeholder.Split(msg, -1) {
		for _, part := range strings.FieldsFunc(lit, func(r rune) bool { return r == '\n' || r == '"' || r == '\\' }) {
			if part = strings.Trim(part, " :"); len(part) > len(best) {
				best = part
			}
		}
	}
	if best == "" {
		return panicking
	}
	return []string{best}
}

// snapshot reads Burn's files at the modelled commit.
type snapshot struct {
	dir   string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	cache map[string]*string
}

// burnSnapshot opens $BURN_GIT_DIR at the modelled commit, or skips the
// test.
func burnSnapshot(t *testing.T) *snapshot {
	t.Helper()
	dir := os.Getenv("BURN_GIT_DIR")
	if dir == "" {
		t.Skip("BURN_GIT_DIR names no snapshot of tracel-ai/burn: the cited lines are not read")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no snapshot of tracel-ai/burn at %s (set BURN_GIT_DIR): the cited lines are not read", dir)
	}
	if err := exec.Command("git", "-C", dir, "cat-file", "-e", analyzedSha+"^{commit}").Run(); err != nil {
		t.Skipf("the snapshot at %s lacks the modelled commit %.8s", dir, analyzedSha)
	}
	s := &snapshot{dir: dir, cmd: exec.Command("git", "-C", dir, "cat-file", "--batch"), cache: map[string]*string{}}
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.out = bufio.NewReader(stdout)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.in.Close()
		s.cmd.Wait()
	})
	return s
}

// file returns a file's text at the modelled commit and whether it is
// there.
func (s *snapshot) file(t *testing.T, path string) (string, bool) {
	t.Helper()
	if text, ok := s.cache[path]; ok {
		if text == nil {
			return "", false
		}
		return *text, true
	}
	if _, err := fmt.Fprintf(s.in, "%s:%s\n", analyzedSha, path); err != nil {
		t.Fatal(err)
	}
	header, err := s.out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(header)
	if len(fields) != 3 || fields[1] != "blob" {
		s.cache[path] = nil
		return "", false
	}
	n, err := strconv.Atoi(fields[2])
	if err != nil {
		t.Fatalf("git cat-file: %q", header)
	}
	body := make([]byte, n+1) // the blob and a newline
	if _, err := io.ReadFull(s.out, body); err != nil {
		t.Fatal(err)
	}
	text := string(body[:n])
	s.cache[path] = &text
	return text, true
}

// grep returns the first place in Burn's crates at the modelled commit
// that holds text, or "".
func (s *snapshot) grep(t *testing.T, text string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", s.dir, "grep", "-n", "-F", "-e", text, analyzedSha, "--", "crates").Output()
	if err != nil {
		if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 1 {
			return ""
		}
		t.Fatalf("git grep: %v", err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimPrefix(first, analyzedSha+":")
}

package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/web"
)

// okResult is what the stub runner of these tests answers every run with:
// they test the server around the sandbox, not the engine.
const okResult = `{"status":"ok","complete":true}`

// newStubServer is a server with a share store and a runner that answers
// every run with okResult.
func newStubServer(t testing.TB, edit func(*web.Config)) *web.Server {
	t.Helper()
	shares, err := store.OpenSQLite(filepath.Join(t.TempDir(), "shares.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shares.Close() })
	cfg := web.Config{
		Runner: func(context.Context, engine.Request) ([]byte, error) { return []byte(okResult), nil },
		Shares: shares, Limits: web.DefaultLimits(), CORS: web.DefaultCORSConfig, Version: "test",
	}
	if edit != nil {
		edit(&cfg)
	}
	s, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func serve(s http.Handler, method, target, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// shareOpens posts a share body and checks the property every share must
// have: an id the API acknowledges opens at /s/{id} and /embed/{id}; a
// refusal is a 400 or 413 with the API's JSON error. It returns the status
// and the error's message.
func shareOpens(t testing.TB, s http.Handler, body string) (int, string) {
	t.Helper()
	rec := serve(s, http.MethodPost, "/api/share", body, "Content-Type", "application/json")
	if rec.Code != http.StatusOK {
		if rec.Code != http.StatusBadRequest && rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("POST /api/share %.100q: %d %.300s", body, rec.Code, rec.Body)
		}
		var answer struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil || answer.Error.Code == "" || answer.Error.Message == "" {
			t.Fatalf("POST /api/share %.100q: %d with body %.300q, not the API's JSON error", body, rec.Code, rec.Body)
		}
		return rec.Code, answer.Error.Message
	}
	var created struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || len(created.ID) != store.IDLength {
		t.Fatalf("POST /api/share %.100q: 200 with %.300s", body, rec.Body)
	}
	for _, page := range []string{"/s/" + created.ID, "/embed/" + created.ID} {
		if got := serve(s, http.MethodGet, page, ""); got.Code != http.StatusOK {
			t.Fatalf("POST /api/share %.100q acknowledged %s, but GET %s = %d: %.200s", body, created.ID, page, got.Code, got.Body)
		}
	}
	return rec.Code, ""
}

// TestShareValidatesTheStateAsItIsRead: POST /api/share stores exactly the
// states /s/{id} and /embed/{id} can read, and says what is wrong with the
// others.
func TestShareValidatesTheStateAsItIsRead(t *testing.T) {
	s := newStubServer(t, nil)
	texts := func(n int) string {
		return `{"v":1,"config":"","snippet":"` + strings.Repeat("x", n) + `","mode":"panic"}`
	}
	for _, tc := range []struct {
		name, body string
		status     int
		message    string // part of the error's message
	}{
		{"the README's body", `{"config": "[dependencies]\nburn = \"0.22\"\n", "snippet": "let a = Tensor::<1>::ones([2], &Device::default());"}`, 200, ""},
		{"the page's body", `{"v":1,"config":"","snippet":"let a = 1;","mode":"validation"}`, 200, ""},
		{"empty object", `{}`, 200, ""},
		{"texts at the read limit", texts(store.MaxTextBytes), 200, ""},
		{"escaped texts at the read limit", `{"snippet":"` + strings.Repeat(`\u0000`, store.MaxTextBytes) + `"}`, 200, ""},
		{"array", `[1,2]`, 400, "it is an array, not a JSON object"},
		{"null", `null`, 400, "it is null, not a JSON object"},
		{"number", `123`, 400, "it is a number, not a JSON object"},
		{"config a number", `{"config": 1}`, 400, `"config" must be a string`},
		{"invalid UTF-8", "{\"snippet\": \"let a = \xff;\"}", 400, "not valid UTF-8"},
		{"unknown version", `{"v": 2, "config": "", "snippet": ""}`, 400, "version 2 is unknown"},
		{"not JSON", `not json`, 400, "not JSON"},
		{"texts over the read limit", texts(store.MaxTextBytes + 1), 400, "more than the limit of 65536"},
		{"between 64 KiB and 512 KiB", texts(300_000), 400, "hold 300000 bytes"},
		{"over 512 KiB", texts(store.MaxStateBytes), 413, "limited to 524288 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, message := shareOpens(t, s, tc.body)
			if status != tc.status || !strings.Contains(message, tc.message) {
				t.Errorf("answered %d %q, want %d saying %q", status, message, tc.status, tc.message)
			}
		})
	}
}

// TestShareFormStatesOpen: the form post that works without JavaScript
// stores what the share pages read, whatever bytes the form carries.
func TestShareFormStatesOpen(t *testing.T) {
	s := newStubServer(t, nil)
	for name, form := range map[string]url.Values{
		"plain":         {"config": {"[dependencies]\r\nburn = \"0.22\"\r\n"}, "snippet": {"let a = 1;\r\n"}, "mode": {"validation"}},
		"invalid UTF-8": {"config": {"\xff\xfe"}, "snippet": {"let \xc3 = 1;"}},
		"at the limit":  {"snippet": {strings.Repeat("\x01", store.MaxTextBytes)}},
	} {
		rec := serve(s, http.MethodPost, "/share", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
		id, ok := strings.CutPrefix(rec.Header().Get("Location"), "/s/")
		if rec.Code != http.StatusSeeOther || !ok {
			t.Errorf("%s: POST /share = %d to %q", name, rec.Code, rec.Header().Get("Location"))
			continue
		}
		for _, page := range []string{"/s/" + id, "/embed/" + id} {
			if got := serve(s, http.MethodGet, page, ""); got.Code != http.StatusOK {
				t.Errorf("%s: GET %s = %d", name, page, got.Code)
			}
		}
	}
}

// FuzzShare: whatever the body of POST /api/share, an id it acknowledges
// opens at /s/{id} and /embed/{id}, and anything else is a 400 or 413 with
// the API's JSON error.
func FuzzShare(f *testing.F) {
	for _, seed := range []string{
		`{"config": "[dependencies]\nburn = \"0.22\"\n", "snippet": "let a = 1;"}`,
		`{"v":1,"config":"","snippet":"let a = 1;","mode":"panic"}`,
		`{"v":1,"snippet":"\u0000\ud800","mode":"validation","extra":[1,{"a":null}]}`,
		`{"V":1,"CONFIG":"a","Snippet":"b"}`,
		`{"snippet":"a","snippet":1}`,
		`{"v":1.0}`, `{"v":-1}`, `{"v":null}`, `{"mode":7}`,
		`[1,2]`, `null`, `123`, `"state"`, `true`, `{"config": 1}`, "{\"snippet\":\"\xff\"}", `{"v":2}`,
		`{"snippet":"` + strings.Repeat("x", store.MaxTextBytes+1) + `"}`,
		` {} `, `{}x`, ``,
	} {
		f.Add([]byte(seed))
	}
	s := newStubServer(f, nil)
	f.Fuzz(func(t *testing.T, body []byte) {
		shareOpens(t, s, string(body))
	})
}

package web_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/web"
)

// postPart sends a POST that announces a body of 1000 bytes and sends
// part of it. Then it ends its side of the connection when abort is set,
// or waits for the server's read timeout. It returns the answer.
func postPart(t *testing.T, addr, path, contentType, part string, abort bool) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Only so that a broken server fails the test instead of hanging it.
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	if _, err := fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: 1000\r\n\r\n%s", path, addr, contentType, part); err != nil {
		t.Fatal(err)
	}
	if abort {
		if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// TestIncompleteBodiesArePlainErrors: a body that stops coming is a 408
// once the server's read timeout passes, and a body cut short is a 400;
// neither is a 413, their messages name no address of the connection, and
// nothing runs or is stored.
func TestIncompleteBodiesArePlainErrors(t *testing.T) {
	s, runs := countingServer(t, web.DefaultCORSConfig)
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	defer ts.Close()
	addr := ts.Listener.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	for _, tc := range []struct{ path, contentType, part string }{
		{"/api/run", "application/json", `{"config":"","snippet":"let a`},
		{"/api/share", "application/json", `{"v":1,"snippet":"let a`},
		{"/run", "application/x-www-form-urlencoded", "snippet=let+a"},
		{"/share", "application/x-www-form-urlencoded", "snippet=let+a"},
	} {
		for _, abort := range []bool{false, true} {
			resp, body := postPart(t, addr, tc.path, tc.contentType, tc.part, abort)
			want, code := http.StatusRequestTimeout, "request_timeout"
			if abort {
				want, code = http.StatusBadRequest, "bad_request"
			}
			if resp.StatusCode != want {
				t.Errorf("POST %s, abort %v: %d %s, want %d", tc.path, abort, resp.StatusCode, body, want)
				continue
			}
			if strings.Contains(body, "127.0.0.1") || strings.Contains(body, port) || strings.Contains(body, "tcp") {
				t.Errorf("POST %s, abort %v: the message shows the connection: %s", tc.path, abort, body)
			}
			var answer struct {
				Message string
				Error   struct{ Code, Message string }
			}
			if err := json.Unmarshal([]byte(body), &answer); err != nil {
				t.Errorf("POST %s, abort %v: body %q: %v", tc.path, abort, body, err)
			}
			if strings.HasPrefix(tc.path, "/api/") && (answer.Error.Code != code || answer.Error.Message == "") {
				t.Errorf("POST %s, abort %v: %s, want the API's error %s", tc.path, abort, body, code)
			}
			if !strings.HasPrefix(tc.path, "/api/") && answer.Message == "" {
				t.Errorf("POST %s, abort %v: %s, want a message", tc.path, abort, body)
			}
		}
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("incomplete bodies ran %d programs", n)
	}
}

// TestRunRefusesABodyThatIsNotARequest: a Request is a JSON object; null
// (which encoding/json would read as the empty Request) is a 400 like the
// other values that are not one.
func TestRunRefusesABodyThatIsNotARequest(t *testing.T) {
	s, runs := countingServer(t, web.DefaultCORSConfig)
	for _, body := range []string{"null", " null\n", "[]", "123", `"let a = 1;"`, "true", ""} {
		rec := serve(s, http.MethodPost, "/api/run", body, "Content-Type", "application/json")
		var answer struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &answer); rec.Code != http.StatusBadRequest || err != nil ||
			answer.Error.Code != "bad_request" || !strings.Contains(answer.Error.Message, "object") {
			t.Errorf("POST /api/run %q: %d %s, want 400 bad_request saying a Request is an object", body, rec.Code, rec.Body)
		}
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("bodies that are not a Request ran %d programs", n)
	}
	if rec := serve(s, http.MethodPost, "/api/run", `{}`, "Content-Type", "application/json"); rec.Code != http.StatusOK {
		t.Errorf("the empty Request: %d %s", rec.Code, rec.Body)
	}
}

package socket

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestAdmitRefuses: a request that is no upgrade is refused with
// ErrNotUpgrade, before Enter; Enter's refusal is Admit's.
func TestAdmitRefuses(t *testing.T) {
	entered := 0
	enter := func() (func(), error) { entered++; return func() {}, nil }
	r := httptest.NewRequest("GET", "/ws", nil)
	if _, err := Admit(r, Options{Enter: enter}); !errors.Is(err, ErrNotUpgrade) || entered != 0 {
		t.Errorf("Admit(no upgrade) = %v, entered %d; want ErrNotUpgrade, none", err, entered)
	}
	r.Header.Set("Upgrade", "websocket")
	full := errors.New("full")
	if _, err := Admit(r, Options{Enter: func() (func(), error) { return nil, full }}); err != full {
		t.Errorf("Admit(a refusing Enter) = %v, want its error", err)
	}
}

// TestClient: messages reach the handler and an echo reaches the page;
// a page that closes with 1000 has left (not dropped), and End gives
// back the places Enter took.
func TestClient(t *testing.T) {
	left := make(chan bool, 1)
	var placed atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Admit(r, Options{Enter: func() (func(), error) { placed.Add(1); return func() { placed.Add(-1) }, nil }})
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		if !c.Accept(w, r) {
			c.End()
			return
		}
		echo := make(chan []byte, 1)
		c.Receive(func(_ context.Context, data []byte) { echo <- data })
		for done := false; !done; {
			select {
			case data := <-echo:
				c.Send(append([]byte("echo "), data...))
			case <-c.Gone():
				done = true
			}
		}
		l := c.Finish()
		c.End()
		left <- l
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Write(ctx, websocket.MessageText, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if _, data, err := conn.Read(ctx); err != nil || string(data) != "echo hi" {
		t.Fatalf("read %q, %v; want the echo", data, err)
	}
	conn.Close(websocket.StatusNormalClosure, "bye")
	select {
	case l := <-left:
		if !l {
			t.Error("a page that closed with 1000: dropped, want left")
		}
	case <-ctx.Done():
		t.Fatal("the client did not end")
	}
	if n := placed.Load(); n != 0 {
		t.Errorf("%d places held after End, want 0", n)
	}
}

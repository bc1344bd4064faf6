package account

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestRedacted logs and prints a password and a token every way a
// program might, and looks for them in the output.
func TestRedacted(t *testing.T) {
	const pw, tk = "hunter2-secret", "tok3n-secret"
	creds := Credentials{Username: "nam", Password: pw}
	type wrapper struct {
		Creds Credentials
		Tok   Token
	}
	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		l := slog.New(h)
		l.Info("sign-in", "password", Password(pw), "token", Token(tk))
		l.Info("sign-in", slog.Any("creds", creds), slog.Any("p", &creds))
		l.Info("sign-in", "w", wrapper{creds, tk}, "group", slog.GroupValue(slog.Any("t", Token(tk))))
		l.Info("sign-in", "s", []Password{pw}, "m", map[string]Token{"a": tk})
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3s"} {
		fmt.Fprintf(&buf, verb+" "+verb+" "+verb+"\n", Password(pw), Token(tk), wrapper{creds, tk})
	}
	fmt.Fprintln(&buf, Password(pw), Token(tk), creds, &creds)
	j, err := json.Marshal(wrapper{creds, tk})
	if err != nil {
		t.Fatal(err)
	}
	buf.Write(j)
	out := buf.String()
	for _, secret := range []string{pw, tk, "hunter2", "tok3n", fmt.Sprintf("%x", pw), fmt.Sprintf("%x", tk)} {
		if strings.Contains(out, secret) {
			t.Errorf("output shows %q:\n%s", secret, out)
		}
	}
	for _, v := range []any{Password(pw), Token(tk)} {
		if r := slog.AnyValue(v).Resolve(); r.Kind() != slog.KindString || r.String() != redacted {
			t.Errorf("slog.AnyValue(%T).Resolve() = %v %q, want the string %q", v, r.Kind(), r.String(), redacted)
		}
	}
	if n := strings.Count(out, redacted); n < 40 {
		t.Errorf("%q appears %d times, want 40 or more:\n%s", redacted, n, out)
	}
}

// TestCredentialsDecode: redaction does not stop a request body from
// giving the password.
func TestCredentialsDecode(t *testing.T) {
	var c Credentials
	err := json.Unmarshal([]byte(`{"username":"nam","password":"Mèo con đi học"}`), &c)
	if err != nil || c.Username != "nam" || string(c.Password) != "Mèo con đi học" {
		t.Errorf("Unmarshal = %+q, %v; want nam and the password", []string{c.Username, string(c.Password)}, err)
	}
}

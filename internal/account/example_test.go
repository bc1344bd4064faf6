package account_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"oanquan/internal/account"
)

// A sign-up, then a sign-in with a wrong password and a right one, and
// one for a name with no account.
func Example() {
	ctx := context.Background()
	u, err := account.ParseUsername("Nguye\u0302\u0303n_Lan") // ễ typed as e and two marks
	fmt.Println(u.Name, u.Key, err)

	pw := account.Password("ô ăn quan với bà")
	fmt.Println(account.CheckPassword(pw, u.Name))
	fmt.Println(account.CheckPassword("nguyễn_lan", u.Name))

	// Small parameters for the example; a server uses DefaultParams.
	hasher, _ := account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 2)
	stored, _ := hasher.Hash(ctx, pw)
	fmt.Println(stored[:28])

	ok, rehash, _ := hasher.Verify(ctx, stored, "ô ăn quan với ông")
	fmt.Println("wrong password:", ok, rehash)
	ok, rehash, _ = hasher.Verify(ctx, stored, pw)
	fmt.Println("right password:", ok, rehash)
	ok, _, _ = hasher.Verify(ctx, "", pw) // no such account: the same work
	fmt.Println("unknown name:", ok)

	tok := account.NewToken()
	r := httptest.NewRequest("POST", "https://oanquan.example/api/session", nil)
	cookie := account.SessionCookies{BehindTLS: true}.Session(r, tok)
	fmt.Println(cookie.Name, cookie.HttpOnly, cookie.Secure, cookie.MaxAge, len(cookie.Value))
	fmt.Println(len(tok.Key().String()), tok)

	// Output:
	// Nguyễn_Lan nguyễn_lan <nil>
	// <nil>
	// password: is the username
	// $argon2id$v=19$m=64,t=1,p=1$
	// wrong password: false false
	// right password: true false
	// unknown name: false
	// __Host-oq_session true true 2592000 43
	// 64 [redacted]
}

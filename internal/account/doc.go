// Package account holds the rules of player accounts (issue 21): what a
// username may be, what a password must be and how it is stored, and the
// session tokens and cookies that keep a player signed in. It does no
// I/O of its own: the store keeps what it returns and the server calls it.
//
//	u, err := account.ParseUsername(req.Username)         // 400 if err
//	err = account.CheckPassword(req.Password, u.Name)      // 400 if err
//	hash, err := hasher.Hash(ctx, req.Password)            // store u.Name, u.Key, hash
//	tok := account.NewToken()                              // store tok.Key()
//	http.SetCookie(w, cookies.Session(r, tok))
//
// and at sign-in, for a found account and an unknown name alike:
//
//	ok, rehash, err := hasher.Verify(ctx, storedHashOrEmpty, req.Password)
//
// # Usernames
//
// 3 to 20 characters (code points, after NFC normalisation), made of
// letters and digits of any script, '_' and '-'; beginning with a letter,
// ending with a letter or digit, never two separators in a row. lichess
// allows only ASCII letters, digits, '_' and '-', which is simple and
// immune to look-alikes; this package does not, because its players are
// Vietnamese first: "Nguyễn", "Đạt" and "Phương" are names, and a name
// stripped of its tones reads as another word (Bảo, Báo, Bão). Persian,
// another of the six languages of the site, has no Latin letters at all.
// The issue asks the same. What Unicode makes possible is kept out by
// rules taken from UTS #39 (Unicode Security Mechanisms) and RFC 8265
// (PRECIS usernames):
//
//   - NFC normalisation (UAX #15): Vietnamese keyboards send ễ either as
//     one code point or as e with two combining marks; both give one name.
//   - Case-insensitive uniqueness through UsernameKey: Unicode case
//     folding, '-' read as '_', and Cyrillic and Greek letters that look
//     Latin read as Latin (a small skeleton in UTS #39's sense), so "Nam",
//     "NAM", "nam" and "nаm" with a Cyrillic а are one name.
//   - One script a name (UTS #39 "highly restrictive"; the Japanese,
//     Korean and Chinese mixes allowed) and one numbering system.
//   - No styled copies of letters (anything NFKC changes: full-width,
//     mathematical bold, superscripts), no letters of no script (modifier
//     letters, the Arabic tatweel), no invisible characters (joiners,
//     direction marks), no combining mark but on a letter and at most
//     three on one.
//   - Reserved names (the service's, roles such as admin and moderator,
//     anonymous, words of the site's paths), compared without case,
//     accents or separators.
//
// Left as they are: digits and letters alike within Latin (0 and O, l
// and 1), as lichess leaves them, and whole names of one script that
// equal a name of another script outside the look-alike table.
//
// ParseUsername's errors are *InputError values naming the field, a
// Reason word (for the page's six languages) and the problem in English.
//
// # Passwords
//
// As NIST SP 800-63B asks of memorized secrets (revision 3, 2017,
// section 5.1.1.2): at least 8 characters, no composition rules (any
// characters, spaces and all scripts included, normalised with NFKC
// before hashing so one password has one form), at most 256 bytes (above
// the 64 characters it asks to allow), and refused when it is the
// username, in a list of the most common passwords (common_passwords.txt,
// 250 or so of 8 characters or more, Vietnamese ones and the service's
// names among them, from general knowledge: a list of the 100,000 of
// breach corpora would be better and weighs a megabyte), or one character
// repeated or a run like "12345678". Revision 4 (2025) raises the
// minimum to 15 characters for a password used alone; this package keeps
// 8 (MinPassword) for a game children play, where a game account guards
// little, sign-in is to be limited per address and per account (issue
// 21), and the hash below makes an offline guess costly.
//
// # Storage: argon2id
//
// Passwords are hashed with argon2id (RFC 9106): Argon2 won the Password
// Hashing Competition (2015), and its id variant is RFC 9106's and
// OWASP's first choice (Password Storage Cheat Sheet). The code is
// golang.org/x/crypto/argon2; each hash has a random 16-byte salt and is
// 32 bytes long, stored in the PHC string format:
//
//	$argon2id$v=19$m=47104,t=1,p=1$<salt, base64>$<hash, base64>
//
// The parameters travel with the hash, so they can be raised later:
// Verify reports a hash made with other parameters, and the server
// rehashes it at the player's next sign-in. RFC 9106's recommended
// settings (2 GiB, or 64 MiB with t=3 and 4 lanes) suit a machine that
// does little else; this server has 2 cores shared with live games, so
// DefaultParams take OWASP's first minimum, 46 MiB, one pass, one lane:
// 40 to 50 ms a hash measured here, on a shared machine under load
// (medians of BenchmarkHash and BenchmarkVerify; m=19 MiB t=2 took 25 to
// 31 ms, 64 MiB t=3 134 to 157 ms). Two at once, one a core, allow some
// 40 sign-ins a second: far above what per-address limits let through. OWASP rates its five settings equal in cost
// to an attacker; this one spends memory rather than passes, which a
// GPU finds the harder to pay. A Hasher runs at most a set number of
// hashes at once (the number of cores) and waits for a turn under a
// context, so a flood of sign-ins queues instead of taking gigabytes.
//
// A sign-in with an unknown username runs the same argon2id on a dummy
// hash, so its time does not tell that the name is free; the comparison
// is constant-time (crypto/subtle). (An account whose hash still has
// older parameters takes their time until its next sign-in rehashes it:
// that tells an attacker the name exists only if the parameters were
// changed and the player has not signed in since.)
//
// # Sessions
//
// A session token is 256 bits from crypto/rand in base64url (NewToken).
// Only its SHA-256 (Token.Key) is stored, so the sessions table gives no
// one a way in; a fast hash suffices since the token is not guessable.
// SessionCookies builds the cookie: HttpOnly, SameSite=Lax, Path=/,
// Max-Age 30 days, Secure with the __Host- prefix when the request came
// over TLS or the server says it is behind TLS; and the cookie that
// deletes it.
//
// Password and Token print, log and marshal as "[redacted]", whatever
// the verb or handler, so neither reaches a log by accident.
package account

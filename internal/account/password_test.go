package account

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckPasswordAccepts(t *testing.T) {
	for _, pw := range []string{
		"correct horse battery staple",
		"Mèo con đi học",
		"ô ăn quan vui lắm",
		"gà-trống-gáy",
		"رمز عبور من",
		"🐉🐉🐉🐉🐉🐉🐉🐲", // not one character repeated
		"x7#kQ!vP",
		strings.Repeat("ab", MaxPasswordBytes/2),
	} {
		if err := CheckPassword(Password(pw), "nam_anh"); err != nil {
			t.Errorf("CheckPassword(%q) = %v, want nil", pw, err)
		}
	}
}

func TestCheckPasswordRefuses(t *testing.T) {
	for _, tc := range []struct{ pw, username, reason string }{
		{"", "nam", "too_short"},
		{"Abc!234", "nam", "too_short"},
		{"ễễễễễễễ", "nam", "too_short"}, // 7 characters, 21 bytes
		{strings.Repeat("x7", MaxPasswordBytes/2) + "y", "nam", "too_long"},
		{"abcdefg\xff", "nam", "encoding"},
		{"Nguyen_Van_Anh", "nguyen_van_anh", "same_as_username"},
		{"nguyen-van-anh", "Nguyen_Van_Anh", "same_as_username"},
		{"NGUYỄNVĂNANH", "nguyễnvănanh", "same_as_username"},
		{"password", "nam", "common"},
		{"Password1", "nam", "common"},
		{"QWERTY123", "nam", "common"},
		{"anhyeuem", "nam", "common"},
		{"matkhau123", "nam", "common"},
		{"Ô Ăn Quan", "nam", "common"},
		{"oanquan123", "nam", "common"},
		{"aaaaaaaa", "nam", "repetitive"},
		{"12345678", "nam", "repetitive"},
		{"987654321", "nam", "repetitive"},
		{"abcdefghij", "nam", "repetitive"},
		{"ZYXWVUTS", "nam", "repetitive"},
	} {
		err := CheckPassword(Password(tc.pw), tc.username)
		var ie *InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInvalid) {
			t.Errorf("CheckPassword(%q, %q) = %v, want an *InputError, reason %s", tc.pw, tc.username, err, tc.reason)
			continue
		}
		if ie.Field != "password" || ie.Reason != tc.reason {
			t.Errorf("CheckPassword(%q, %q): field %s, reason %s; want password, %s", tc.pw, tc.username, ie.Field, ie.Reason, tc.reason)
		}
		if tc.pw != "" && strings.Contains(ie.Problem, tc.pw) {
			t.Errorf("CheckPassword(%q): error %q shows the password", tc.pw, err)
		}
	}
}

// TestCommonPasswordsFile checks the list itself: long enough to matter,
// and every entry one the length rule would have let through.
func TestCommonPasswordsFile(t *testing.T) {
	if n := len(commonPasswords); n < 200 {
		t.Errorf("%d common passwords, want 200 or more", n)
	}
	for pw := range commonPasswords {
		if n := len([]rune(pw)); n < MinPassword {
			t.Errorf("common password %q has %d characters: the length rule refuses it already", pw, n)
		}
	}
}

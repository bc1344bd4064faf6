package account

import (
	"errors"
	"strings"
	"testing"
)

func TestParseUsernameAccepts(t *testing.T) {
	for _, tc := range []struct{ in, name string }{
		{"nam", "nam"},
		{"Nam_2010", "Nam_2010"},
		{"van-anh", "van-anh"},
		{"Nguyễn", "Nguyễn"},
		{"Nguye\u0302\u0303n", "Nguyễn"}, // decomposed, as some Vietnamese keyboards send it
		{"ĐạtPhạm", "ĐạtPhạm"},
		{"Алёша", "Алёша"},
		{"علی_۱۳۸۰", "علی_۱۳۸۰"},
		{"山田たろう", "山田たろう"},
		{"ラーメン", "ラーメン"},
		{"김민준", "김민준"},
		{"สมชาย", "สมชาย"},
		{"नमस्ते", "नमस्ते"},
		{"Lệ_Thủy", "Lệ_Thủy"},
		{"abc", "abc"},
		{"a2345678901234567890", "a2345678901234567890"},
	} {
		u, err := ParseUsername(tc.in)
		if err != nil {
			t.Errorf("ParseUsername(%q) = %v, want %q", tc.in, err, tc.name)
			continue
		}
		if u.Name != tc.name {
			t.Errorf("ParseUsername(%q).Name = %q, want %q", tc.in, u.Name, tc.name)
		}
	}
}

func TestParseUsernameRefuses(t *testing.T) {
	for _, tc := range []struct{ in, reason string }{
		{"", "too_short"},
		{"ab", "too_short"},
		{"Ễn", "too_short"},
		{"a23456789012345678901", "too_long"},
		{strings.Repeat("a", 1000), "too_long"},
		{"ab\xffc", "encoding"},
		{"nam anh", "character"},
		{"nam.anh", "character"},
		{"nam@x", "character"},
		{"na\u200bm", "character"},    // zero-width space
		{"na\u200dm", "character"},    // zero-width joiner
		{"علی\u200cرضا", "character"}, // zero-width non-joiner, as Persian may type it
		{"abc\u202e", "character"},    // right-to-left override
		{"\u0301abc", "character"},    // a mark on nothing
		{"a_\u0301bc", "character"},
		{"nam\u0301\u0301\u0301\u0301", "character"},
		{"ｎａｍ", "styled"},     // full-width
		{"𝐧𝐚𝐦", "styled"},     // mathematical bold
		{"nam²", "character"}, // a digit of category No, not Nd
		{"nam𝟐", "styled"},    // mathematical digit two
		{"ệ\u0301\u0301", "character"},
		{"ﬁsh", "styled"},
		{"ʻokina", "styled"}, // a modifier letter of no script
		{"عـلی", "styled"},   // tatweel
		{"_nam", "start"},
		{"-nam", "start"},
		{"2nam", "start"},
		{"nam_", "end"},
		{"nam-", "end"},
		{"na__m", "separators"},
		{"na-_m", "separators"},
		{"аdmin1", "scripts"}, // Cyrillic а
		{"namΑ", "scripts"},   // Greek capital alpha
		{"nam١2", "digits"},   // Arabic-Indic one beside an ASCII two
		{"admin", "reserved"},
		{"ADMIN", "reserved"},
		{"Ádmin", "reserved"},
		{"ô_ăn_quan", "reserved"},
		{"O-An-Quan", "reserved"},
		{"anonymous", "reserved"},
		{"System", "reserved"},
		{"quản_trị", "reserved"},
		{"api", "reserved"},
	} {
		_, err := ParseUsername(tc.in)
		var ie *InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseUsername(%q) = %v, want an *InputError, reason %s", tc.in, err, tc.reason)
			continue
		}
		if ie.Field != "username" || ie.Reason != tc.reason {
			t.Errorf("ParseUsername(%q): field %s, reason %s (%v); want username, %s", tc.in, ie.Field, ie.Reason, err, tc.reason)
		}
	}
}

// TestUsernameKeyCollides lists names that must not live beside each
// other, and names that may.
func TestUsernameKeyCollides(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Nam", "nam", true},
		{"NGUYỄN", "nguyễn", true},
		{"Nguyễn", "Nguye\u0302\u0303n", true},
		{"van-anh", "van_anh", true},
		{"Straße", "STRASSE", true},
		{"ace", "асе", true},   // Cyrillic а, с, е
		{"Pop", "Ρορ", true},   // Greek Ρ, ο, ρ
		{"NIKE", "ΝΙΚΕ", true}, // Greek capitals
		{"Mäx", "Мӓх", true},   // Cyrillic ӓ, precomposed
		{"HYMN", "ΗΥΜΝ", true},
		{"ÐẠT", "ĐẠT", true}, // eth and Vietnamese đ: the same capital
		{"Đạt", "Dat", false},
		{"Bảo", "Bão", false},
		{"nam", "nam1", false},
	} {
		ka, kb := UsernameKey(tc.a), UsernameKey(tc.b)
		if (ka == kb) != tc.same {
			t.Errorf("UsernameKey(%q) = %q, UsernameKey(%q) = %q; want same %v", tc.a, ka, tc.b, kb, tc.same)
		}
	}
}

// TestErrorsNameTheRule checks the text a client sees: the field, and
// what is wanted.
func TestErrorsNameTheRule(t *testing.T) {
	_, err := ParseUsername("ab")
	if got, want := err.Error(), "username: has 2 characters; want 3 to 20"; got != want {
		t.Errorf("ParseUsername(%q) = %q, want %q", "ab", got, want)
	}
	_, err = ParseUsername("nam!x")
	if got, want := err.Error(), `username: has '!' (U+0021); use letters, digits, _ or -`; got != want {
		t.Errorf("ParseUsername(%q) = %q, want %q", "nam!x", got, want)
	}
	_, err = ParseUsername("aлёша")
	if got, want := err.Error(), "username: mixes letters of the Cyrillic and Latin scripts; write it in one"; got != want {
		t.Errorf("ParseUsername(%q) = %q, want %q", "aлёша", got, want)
	}
}

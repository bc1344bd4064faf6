package account

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Bounds of a username, in characters (code points after NFC).
const (
	MinUsername = 3
	MaxUsername = 20
	// maxUsernameBytes refuses a long input before any normalisation
	// work: 20 characters of 4 bytes, with room for decomposed input.
	maxUsernameBytes = 200
	// maxMarks is how many combining marks may follow one letter: Thai
	// and Devanagari need up to three (vowel sign, tone or nukta,
	// nasal); more is only a way to pile marks on a letter.
	maxMarks = 3
)

// Username is a valid username: the name as the player chose it
// (NFC-normalised) and the key under which it is unique.
type Username struct {
	Name string // shown to players, as typed once normalised
	Key  string // UsernameKey(Name): what the store keeps unique
}

// String returns the name as shown.
func (u Username) String() string { return u.Name }

// ParseUsername checks s against the rules of the package doc and returns
// it normalised, or an *InputError (matching ErrInvalid) that names the
// rule broken. The reserved names are refused here; whether the name is
// free is the store's question, asked with the Key.
func ParseUsername(s string) (Username, error) {
	if len(s) > maxUsernameBytes {
		return Username{}, usernameErr("too_long", "has more than %d characters", MaxUsername)
	}
	if !utf8.ValidString(s) {
		return Username{}, usernameErr("encoding", "is not valid UTF-8")
	}
	name := norm.NFC.String(s)
	if n := utf8.RuneCountInString(name); n < MinUsername || n > MaxUsername {
		reason := "too_short"
		if n > MaxUsername {
			reason = "too_long"
		}
		return Username{}, usernameErr(reason, "has %d characters; want %d to %d", n, MinUsername, MaxUsername)
	}
	if err := checkRunes(name); err != nil {
		return Username{}, err
	}
	if err := checkScripts(name); err != nil {
		return Username{}, err
	}
	key := UsernameKey(name)
	if reserved[bare(key)] {
		return Username{}, usernameErr("reserved", "is reserved")
	}
	return Username{Name: name, Key: key}, nil
}

func usernameErr(reason, format string, args ...any) error {
	return inputErr("username", reason, format, args...)
}

// checkRunes checks each character of name (NFC) and where it stands: a
// letter first; then letters, digits, marks on a letter, and single
// separators between them; a letter, digit or mark last.
func checkRunes(name string) error {
	prev, marks := rune(0), 0
	for i, r := range name {
		switch {
		case isSeparator(r):
			if i == 0 {
				return usernameErr("start", "must begin with a letter")
			}
			if isSeparator(prev) {
				return usernameErr("separators", "has %q after %q; put a letter or digit between them", r, prev)
			}
		case unicode.In(r, unicode.Mn, unicode.Mc):
			if !unicode.IsLetter(prev) && !unicode.In(prev, unicode.Mn, unicode.Mc) {
				return usernameErr("character", "has a combining mark (%U) that is not on a letter", r)
			}
			if marks++; marks > maxMarks {
				return usernameErr("character", "has more than %d marks on one letter", maxMarks)
			}
		case unicode.IsLetter(r) || unicode.Is(unicode.Nd, r):
			if !plainLetter(r) {
				return usernameErr("styled", "has %q (%U), a styled, full-width or symbol form; type the plain letter or digit", r, r)
			}
			if i == 0 && !unicode.IsLetter(r) {
				return usernameErr("start", "must begin with a letter")
			}
		case unicode.IsSpace(r):
			return usernameErr("character", "has a space; use letters, digits, _ or -")
		default:
			return usernameErr("character", "has %q (%U); use letters, digits, _ or -", r, r)
		}
		if !unicode.In(r, unicode.Mn, unicode.Mc) {
			marks = precomposedMarks(r)
		}
		prev = r
	}
	if isSeparator(prev) {
		return usernameErr("end", "must end with a letter or digit")
	}
	return nil
}

// precomposedMarks returns how many marks letter r already carries: ḿ
// (U+1E3F) is m and an acute, ệ is e and two marks. So a mark on it counts
// with them, however NFC composed the input.
func precomposedMarks(r rune) int {
	if r < utf8.RuneSelf {
		return 0
	}
	return utf8.RuneCountInString(norm.NFD.String(string(r))) - 1
}

func isSeparator(r rune) bool { return r == '_' || r == '-' }

// plainLetter refuses the letters and digits that are another's styled
// copy (full-width Ａ, mathematical 𝐀, superscript ², ligature ﬁ: all
// that NFKC changes), and letters of no script of their own (modifier
// letters such as ʻ, the Arabic tatweel that stretches a word without
// changing it), but for the prolonged sound mark ー that Japanese needs.
func plainLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return true
	}
	s := string(r)
	if norm.NFKC.String(s) != s {
		return false
	}
	return r == 'ー' || !unicode.IsLetter(r) || !unicode.In(r, unicode.Common, unicode.Inherited)
}

// fold is Unicode default case folding (ß → ss, Σ and ς → σ), shared:
// a cases.Caser is not safe for concurrent use, so each call takes its own.
func fold(s string) string { return cases.Fold().String(s) }

// UsernameKey returns the key under which a username is unique: its NFC
// form case-folded, with '-' read as '_' and the letters of other scripts
// that look like Latin ones (Cyrillic а, Greek ο, …) read as those. Two
// names with one key cannot both exist, so no one can take "Nam" beside
// "nam", or "Аdmin" beside "admin". Sign-in looks the account up by the
// key of what is typed; UsernameKey takes any string and never fails.
func UsernameKey(s string) string {
	// The look-alikes are read on the decomposed form, so that Cyrillic ӓ
	// is read as a with its diaeresis (ä), as а is read as a.
	k := norm.NFD.String(fold(norm.NFC.String(s)))
	return norm.NFC.String(strings.Map(func(r rune) rune {
		if r == '-' {
			return '_'
		}
		if l, ok := lookalike[r]; ok {
			return l
		}
		return r
	}, k))
}

// bare returns key without separators and accents: reserved names are
// compared in this form, so "ô_ăn_quan" is as reserved as "oanquan".
func bare(key string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(key) {
		if !isSeparator(r) && !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookalike maps letters of Cyrillic and Greek, and a few Latin ones, to
// the Latin letter they cannot be told from in common fonts (UTS #39's
// idea of a skeleton, written here for the letters that matter most; the
// full confusables table is some 6,000 lines). Keys are case-folded, so a
// letter is read by its capital, which is where the scripts meet (Greek
// Η, Ν, Υ are H, N, Y; their small forms η, ν, υ are not). Vietnamese
// đ stays apart from d: it is a letter of its own, and "Đạt" is not
// "Dat"; but the eth ð and African ɖ, whose capitals are drawn as Đ is,
// are read as đ.
var lookalike = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j',
	'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y',
	'х': 'x', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l',
	// Greek
	'α': 'a', 'β': 'b', 'ε': 'e', 'ζ': 'z', 'η': 'h', 'ι': 'i', 'κ': 'k', 'μ': 'm',
	'ν': 'n', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'y', 'χ': 'x',
	// Latin
	'ı': 'i', 'ð': 'đ', 'ɖ': 'đ',
}

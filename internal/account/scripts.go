package account

import (
	"slices"
	"unicode"
)

// checkScripts applies UTS #39's "highly restrictive" level: the letters
// of a name are all of one script, or of one of the mixes a language
// writes with (Han with Hiragana and Katakana for Japanese, with Hangul
// for Korean, with Bopomofo for Chinese, any of them with Latin); and its
// digits are of one numbering system. So "Аdmin", its first letter
// Cyrillic, is refused, while "Nguyễn", "Алёша", "علی" and "山田たろう" pass.
func checkScripts(name string) error {
	var scripts []string
	var zero rune = -1
	for _, r := range name {
		if unicode.Is(unicode.Nd, r) {
			z := digitZero(r)
			if zero >= 0 && z != zero {
				return usernameErr("digits", "mixes digits of two numbering systems (%q and %q)", zero, z)
			}
			zero = z
		}
		if s := scriptOf(r); s != "" && !slices.Contains(scripts, s) {
			scripts = append(scripts, s)
		}
	}
	if !allowedMix(scripts) {
		return usernameErr("scripts", "mixes letters of the %s scripts; write it in one", joinScripts(scripts))
	}
	return nil
}

// scriptOf returns the name of r's script, or "" for the characters of
// every script (ASCII digits, ー) and combining marks that take their
// base's script.
func scriptOf(r rune) string {
	if r < 0x80 {
		if unicode.IsLetter(r) {
			return "Latin"
		}
		return ""
	}
	if unicode.In(r, unicode.Common, unicode.Inherited) {
		return ""
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

// mixes are the sets of scripts that one writing system uses together
// (UTS #39 section 5.2, "Highly Restrictive"); Latin may join any.
var mixes = [][]string{
	{"Han", "Hiragana", "Katakana", "Latin"},
	{"Han", "Hangul", "Latin"},
	{"Han", "Bopomofo", "Latin"},
}

func allowedMix(scripts []string) bool {
	if len(scripts) <= 1 {
		return true
	}
	for _, mix := range mixes {
		if !slices.ContainsFunc(scripts, func(s string) bool { return !slices.Contains(mix, s) }) {
			return true
		}
	}
	return false
}

func joinScripts(scripts []string) string {
	slices.Sort(scripts)
	s := ""
	for i, name := range scripts {
		switch {
		case i == 0:
		case i == len(scripts)-1:
			s += " and "
		default:
			s += ", "
		}
		s += name
	}
	return s
}

// digitZero returns the zero of r's numbering system. Unicode assigns the
// decimal digits (category Nd) in runs of ten, 0 to 9, so the zero is the
// start of r's run of ten within its range of unicode.Nd.
func digitZero(r rune) rune {
	for _, rg := range unicode.Nd.R16 {
		if lo, hi := rune(rg.Lo), rune(rg.Hi); lo <= r && r <= hi {
			return lo + (r-lo)/10*10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if lo, hi := rune(rg.Lo), rune(rg.Hi); lo <= r && r <= hi {
			return lo + (r-lo)/10*10
		}
	}
	return r
}

package web

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"oanquan/notation"
)

// Every example board of the how-to-play pages is a valid position and
// highlights squares that exist.
func TestHowToExamples(t *testing.T) {
	files, err := fs.Glob(FS(), "howto/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no how-to-play pages: %v", err)
	}
	figure := regexp.MustCompile(`<figure class="mini-board"([^>]*)>`)
	attr := regexp.MustCompile(`data-(position|highlight)="([^"]*)"`)
	for _, name := range files {
		text, err := fs.ReadFile(FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		figures := figure.FindAllStringSubmatch(string(text), -1)
		if len(figures) < 4 {
			t.Errorf("%s: %d example boards, want at least 4", name, len(figures))
		}
		for _, f := range figures {
			for _, a := range attr.FindAllStringSubmatch(f[1], -1) {
				switch a[1] {
				case "position":
					if _, err := notation.ParsePosition(a[2]); err != nil {
						t.Errorf("%s: example %q: %v", name, a[2], err)
					}
				case "highlight":
					for _, h := range strings.Fields(a[2]) {
						if len(h) != 1 || !strings.Contains("0123456789LR", h) {
							t.Errorf("%s: highlight %q: want squares 0-9, L or R", name, h)
						}
					}
				}
			}
		}
	}
}

// Every translation has every English key (a plural key at least in its
// "other" form), no key English lacks, and no placeholder English lacks.
func TestTranslationsMatchEnglish(t *testing.T) {
	load := func(name string) map[string]string {
		b, err := fs.ReadFile(FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return m
	}
	en := load("i18n/en.json")
	plural := regexp.MustCompile(`_(zero|one|two|few|many|other)$`)
	placeholder := regexp.MustCompile(`\{\w+\}`)
	base := func(k string) string { return plural.ReplaceAllString(k, "") }
	enBase := map[string]string{} // base key to its English text ("other" form for plurals)
	for k, v := range en {
		if b := base(k); b == k || strings.HasSuffix(k, "_other") {
			enBase[b] = v
		}
	}
	for _, lang := range []string{"vi", "fr", "de", "ca", "fa"} {
		tr := load("i18n/" + lang + ".json")
		for k := range en {
			want := k
			if base(k) != k {
				want = base(k) + "_other"
			}
			if _, ok := tr[want]; !ok {
				t.Errorf("%s: missing %q", lang, want)
			}
		}
		for k, v := range tr {
			ref, ok := enBase[base(k)]
			if !ok {
				t.Errorf("%s: key %q is not in en.json", lang, k)
				continue
			}
			for _, p := range placeholder.FindAllString(v, -1) {
				if !strings.Contains(ref, p) && !strings.Contains(en[k], p) {
					t.Errorf("%s: %q uses %s, which English does not give", lang, k, p)
				}
			}
		}
	}
}

package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// The committed icons are what `oanquan icons` draws, at their sizes.
func TestIconsUpToDate(t *testing.T) {
	for name, want := range iconFiles() {
		got, err := os.ReadFile(filepath.Join("../..", iconDir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from what oanquan icons draws (%v): run go generate ./web", name, err)
		}
	}
	for name, size := range map[string]int{"icon-192.png": 192, "icon-512.png": 512} {
		img, err := png.Decode(bytes.NewReader(iconFiles()[name]))
		if err != nil || img.Bounds().Dx() != size || img.Bounds().Dy() != size {
			t.Errorf("%s: %v, %v", name, err, img.Bounds())
		}
		// Opaque to the corners (a maskable icon), the stone dark.
		if _, _, _, a := img.At(0, 0).RGBA(); a != 0xffff {
			t.Errorf("%s: corner alpha %d", name, a)
		}
		if r, _, _, _ := img.At(112*size/512, 256*size/512).RGBA(); r > 0x4000 {
			t.Errorf("%s: no stone on the left mandarin square", name)
		}
	}
}

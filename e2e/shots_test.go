package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	. "oanquan/e2e/internal/browsertest"
)

// checkShot saves the page's screenshot in file and checks the page and
// the picture: the board's twelve squares shown whole in the w×h window,
// one of them chosen, the number of moves in the list; a PNG of w×h
// pixels with the board drawn in it (many colours where the board is).
func checkShot(t *testing.T, p *Page, file string, w, h, moves int) {
	t.Helper()
	shown := Eval[struct {
		Cells, Selected, Moves int
		Board                  [4]float64 // left, top, right, bottom
	}](p, `(() => {
  const b = document.getElementById('game-board').getBoundingClientRect();
  return { cells: document.querySelectorAll('#game-board .cell').length,
    selected: document.querySelectorAll('#game-board .cell.selected').length,
    moves: `+MovesShown+`, board: [b.left, b.top, b.right, b.bottom] };
})()`)
	if shown.Cells != 12 || shown.Selected != 1 || shown.Moves != moves {
		t.Errorf("the page showed %d squares, %d chosen, %d moves; want 12, 1, %d", shown.Cells, shown.Selected, shown.Moves, moves)
	}
	b := image.Rect(int(shown.Board[0]), int(shown.Board[1]), int(shown.Board[2]), int(shown.Board[3]))
	if b.Dx() < 200 || b.Dy() < 80 || !b.In(image.Rect(0, 0, w, h)) {
		t.Errorf("the board is at %v, want it whole in the %d×%d window", b, w, h)
	}
	p.Screenshot(file)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if got := img.Bounds(); got != image.Rect(0, 0, w, h) {
		t.Fatalf("%s is %v, want %d×%d", file, got, w, h)
	}
	colours := map[color.RGBA]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			colours[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
		}
	}
	if len(colours) < 16 {
		t.Errorf("%s: %d colours where the board is, want the board drawn (16 or more)", file, len(colours))
	}
}

// TestScreenshots saves a game in progress at the sizes issue 10 names,
// light and dark, phones upright and on their side, and in Persian, to be
// looked at; on every one the page must not scroll sideways and the whole
// board must be in view.
func TestScreenshots(t *testing.T) {
	dir := ShotDir(t)
	p := NewPage(t, 1280, 800, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(21, 22))
	for range 3 {
		PlayByKeyboard(p, rng)
	}
	sizes := []struct {
		name  string
		w, h  int
		phone bool
	}{
		{"320x568", 320, 568, true}, {"360x740", 360, 740, true}, {"740x360", 740, 360, true}, {"390x844", 390, 844, true}, {"844x390", 844, 390, true},
		{"768x1024", 768, 1024, true}, {"1280x800", 1280, 800, false}, {"1920x1080", 1920, 1080, false},
	}
	for _, lang := range []string{"en", "fa"} {
		if lang == "fa" {
			p.Do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'fa'; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`))
			p.Wait(`document.documentElement.dir === 'rtl'`, 5*time.Second)
		}
		for _, s := range sizes {
			if lang == "fa" && s.w != 390 && s.w != 1280 {
				continue
			}
			for _, dark := range []bool{false, true} {
				var emu []chromedp.EmulateViewportOption
				if s.phone {
					emu = append(emu, chromedp.EmulateMobile, chromedp.EmulateTouch)
				}
				p.Do(chromedp.EmulateViewport(int64(s.w), int64(s.h), emu...), ColorScheme(dark), chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
				name := fmt.Sprintf("%s-%s", s.name, lang)
				if dark {
					name += "-dark"
				}
				// A square chosen, its arrows shown.
				p.Do(chromedp.KeyEvent(kb.ArrowRight))
				p.Wait(`document.querySelector('.arrows .arrow')`, 5*time.Second)
				time.Sleep(100 * time.Millisecond)
				p.Screenshot(filepath.Join(dir, name+".png"))
				if w := Eval[int](p, `document.documentElement.scrollWidth`); w > s.w {
					t.Errorf("%s: the page is %d px wide", name, w)
				}
				if b := Eval[[]float64](p, `(r => [r.left, r.right, r.bottom])(document.getElementById('game-board').getBoundingClientRect())`); b[0] < 0 || b[1] > float64(s.w) || b[2] > float64(s.h) {
					t.Errorf("%s: the board (left %v, right %v, bottom %v) is not all in view", name, b[0], b[1], b[2])
				}
				// A store cuts off what does not fit: its points, its lead
				// and its count must fit.
				if cut := Eval[[]string](p, `[...document.querySelectorAll('.store')].filter(s => s.scrollHeight > s.clientHeight + 1).map(s => s.id + ' ' + s.scrollHeight + '>' + s.clientHeight)`); len(cut) > 0 {
					t.Errorf("%s: stores cut off: %q", name, cut)
				}
				p.Do(chromedp.KeyEvent(kb.Escape))
			}
		}
	}
	t.Logf("screenshots in %s", dir)
}

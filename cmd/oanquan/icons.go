package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
)

// iconDir is where `oanquan icons` writes, from the module's root.
const iconDir = "web/static/icons"

// shape is one filled shape of the icon, on a 512 by 512 canvas: a
// rectangle with rounded corners (radius r), or a circle (w = 0; x, y its
// centre).
type shape struct {
	x, y, w, h, r float64
	fill          color.RGBA
}

func (s shape) contains(px, py float64) bool {
	if s.w == 0 {
		dx, dy := px-s.x, py-s.y
		return dx*dx+dy*dy <= s.r*s.r
	}
	if px < s.x || py < s.y || px > s.x+s.w || py > s.y+s.h {
		return false
	}
	// The nearest point of the rectangle shrunk by r; inside if within r.
	cx := min(max(px, s.x+s.r), s.x+s.w-s.r)
	cy := min(max(py, s.y+s.r), s.y+s.h-s.r)
	dx, dy := px-cx, py-cy
	return dx*dx+dy*dy <= s.r*s.r
}

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }

// iconShapes is the icon, bottom first: the board of the game seen from
// above on the page's wood, its ten squares with pebbles and its two
// mandarin squares with their stones. It all fits the central circle
// that a maskable icon keeps (radius 40% of the width).
func iconShapes() []shape {
	wood, dark, square, pebble, stone := rgb(0x8a5a2b), rgb(0x5e3a17), rgb(0xf1ddb4), rgb(0x5c4a33), rgb(0x26313a)
	s := []shape{
		{x: 0, y: 0, w: 512, h: 512, fill: wood},
		{x: 66, y: 166, w: 380, h: 180, r: 90, fill: dark},
		{x: 116, y: 256, r: 40, fill: square}, // the mandarin squares
		{x: 396, y: 256, r: 40, fill: square},
		{x: 112, y: 256, r: 20, fill: stone},
		{x: 400, y: 256, r: 20, fill: stone},
	}
	for row := range 2 {
		for i := range 5 {
			x, y := 166+float64(i)*37, 178+float64(row)*80
			s = append(s, shape{x: x, y: y, w: 32, h: 76, r: 8, fill: square})
			for k := range 1 + (i+row*2)%3 { // one to three pebbles
				s = append(s, shape{x: x + 16, y: y + 20 + float64(k)*18, r: 7, fill: pebble})
			}
		}
	}
	return s
}

// iconSVG draws the shapes as SVG.
func iconSVG(shapes []shape) []byte {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">` + "\n")
	for _, s := range shapes {
		fill := fmt.Sprintf("#%02x%02x%02x", s.fill.R, s.fill.G, s.fill.B)
		if s.w == 0 {
			fmt.Fprintf(&b, `<circle cx="%g" cy="%g" r="%g" fill="%s"/>`+"\n", s.x, s.y, s.r, fill)
		} else {
			fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s"/>`+"\n", s.x, s.y, s.w, s.h, s.r, fill)
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// iconPNG draws the shapes at size by size pixels, each pixel the mean
// of 4×4 samples (smooth edges).
func iconPNG(shapes []shape, size int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	const n = 4
	scale := 512 / float64(size)
	for py := range size {
		for px := range size {
			var r, g, b int
			for sy := range n {
				for sx := range n {
					x, y := (float64(px)+(float64(sx)+.5)/n)*scale, (float64(py)+(float64(sy)+.5)/n)*scale
					for i := len(shapes) - 1; i >= 0; i-- {
						if shapes[i].contains(x, y) {
							c := shapes[i].fill
							r, g, b = r+int(c.R), g+int(c.G), b+int(c.B)
							break
						}
					}
				}
			}
			img.SetRGBA(px, py, color.RGBA{uint8(r / (n * n)), uint8(g / (n * n)), uint8(b / (n * n)), 255})
		}
	}
	var out bytes.Buffer
	png.Encode(&out, img)
	return out.Bytes()
}

// iconFiles returns the icons by file name.
func iconFiles() map[string][]byte {
	s := iconShapes()
	return map[string][]byte{"icon.svg": iconSVG(s), "icon-192.png": iconPNG(s, 192), "icon-512.png": iconPNG(s, 512)}
}

func runIcons(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("icons", flag.ContinueOnError)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("icons takes no arguments")
	}
	root, err := goOut(ctx, "", "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		return err
	}
	dir := filepath.Join(root, iconDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range iconFiles() {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s/%s: %d bytes\n", iconDir, name, len(data))
	}
	return nil
}

package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"rsc.io/qr"

	"oanquan/internal/api"
)

// maxQRURL bounds the link a QR code may carry: an invitation is short.
const maxQRURL = 300

// qrCode answers GET /api/qr.svg?url=URL with a QR code of URL as SVG,
// for a phone in the same room to scan an invitation from the screen. The
// code is made by rsc.io/qr; this draws it. Only links to this server are
// drawn (the same host as the request's), so that it is no QR service
// for anyone's links.
func (s *Server) qrCode(w http.ResponseWriter, r *http.Request) error {
	raw := r.URL.Query().Get("url")
	if raw == "" {
		return api.Fail(api.ErrBadRequest, "url: missing; want the link to draw, such as http://host/?game=ID")
	}
	if len(raw) > maxQRURL {
		return api.Fail(api.ErrBadRequest, "url: %d bytes, want at most %d", len(raw), maxQRURL)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return api.Fail(api.ErrBadRequest, "url: %s is not an http or https link", api.Short(raw))
	}
	if !strings.EqualFold(u.Host, r.Host) {
		return api.Fail(api.ErrBadRequest, "url: only links to this server are drawn, not to %s", api.Short(u.Host))
	}
	code, err := qr.Encode(raw, qr.M)
	if err != nil {
		return api.Fail(api.ErrBadRequest, "url: cannot be drawn: %v", err)
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(qrSVG(code)))
	return nil
}

// qrSVG draws code with a quiet zone of four modules, one path of unit
// squares, black on white whatever the page's colours (scanners want it).
func qrSVG(code *qr.Code) string {
	const quiet = 4
	n := code.Size + 2*quiet
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y := range code.Size {
		for x := range code.Size {
			if code.Black(x, y) {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String()
}

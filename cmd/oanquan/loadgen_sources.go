package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Many clients on one machine (oanquan loadgen lobby and rated): each
// source address is a client of its own to the server, whose limits
// count per address (100 WebSockets, 3 sign-ups an hour, 10 seeks at
// once…). Every address of 127.0.0.0/8 is this machine's on Linux, so
// loadgen spreads its clients over many of them, a few per address as
// a family or a class would be, and never needs a limit weakened.

// sources hands out source addresses of a loopback prefix, each with its
// own HTTP transport bound to it. Safe for concurrent use.
type sources struct {
	prefix netip.Prefix
	mu     sync.Mutex
	byAddr map[int]*http.Transport
}

// parseSources reads --from: an IPv4 prefix within 127.0.0.0/8.
func parseSources(s string) (*sources, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return nil, fmt.Errorf("--from %q: want a prefix such as 127.1.0.0/16", s)
	}
	p = p.Masked()
	if !p.Addr().Is4() || p.Bits() < 8 || !netip.MustParsePrefix("127.0.0.0/8").Contains(p.Addr()) {
		return nil, fmt.Errorf("--from %q: want an IPv4 prefix within 127.0.0.0/8 (this machine's own addresses)", s)
	}
	return &sources{prefix: p, byAddr: map[int]*http.Transport{}}, nil
}

// addr returns the i-th usable address of the prefix (from 0): those
// whose last byte is neither 0 nor 255.
func (s *sources) addr(i int) (netip.Addr, error) {
	host := 32 - s.prefix.Bits()
	var off uint64
	ok := i >= 0
	if host >= 8 {
		off = uint64(i/254)<<8 | uint64(i%254+1)
		ok = ok && uint64(i/254) < 1<<(host-8)
	} else {
		off = uint64(i) + 1
		ok = ok && off < 1<<host-1
	}
	if !ok {
		return netip.Addr{}, fmt.Errorf("--from %s has fewer than %d usable addresses", s.prefix, i+1)
	}
	b := s.prefix.Addr().As4()
	v := (uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])) + uint32(off)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

// transport returns the transport of the i-th address: its connections
// come from that address, and go to loopback addresses only.
func (s *sources) transport(i int) (*http.Transport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.byAddr[i]; t != nil {
		return t, nil
	}
	a, err := s.addr(i)
	if err != nil {
		return nil, err
	}
	d := *loopbackDialer
	d.LocalAddr = &net.TCPAddr{IP: a.AsSlice()}
	t := &http.Transport{
		DialContext:         d.DialContext,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
	s.byAddr[i] = t
	return t, nil
}

// client returns a client from the i-th address, with a cookie jar of its
// own if jar (a player: its session and poster key).
func (s *sources) client(i int, jar bool) (*http.Client, error) {
	t, err := s.transport(i)
	if err != nil {
		return nil, err
	}
	c := &http.Client{Transport: t, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if jar {
		c.Jar, _ = cookiejar.New(nil)
	}
	return c, nil
}

// closeIdle closes the idle connections of every address.
func (s *sources) closeIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.byAddr {
		t.CloseIdleConnections()
	}
}

// apiCall sends one API request with client and decodes a 2xx answer into
// out (nil: the body is not read as JSON, as for a 204).
func apiCall(ctx context.Context, client *http.Client, base *url.URL, method, path, secret string, body, out any) *loadError {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			panic(err) // loadgen's own types always marshal
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, base.String()+path, rd)
	if err != nil {
		return &loadError{"transport", err.Error()}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := client.Do(req)
	if err != nil {
		return &loadError{"transport", method + " " + path + ": " + err.Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		detail, _ := io.ReadAll(io.LimitReader(resp.Body, maxDetail))
		io.Copy(io.Discard, resp.Body)
		return &loadError{strconv.Itoa(resp.StatusCode), method + " " + path + ": " + string(detail)}
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return &loadError{"bad_answer", method + " " + path + ": " + err.Error()}
		}
	}
	io.Copy(io.Discard, resp.Body)
	return nil
}

// dialWS opens a WebSocket at path with client.
func dialWS(ctx context.Context, client *http.Client, base *url.URL, path string) (*websocket.Conn, error) {
	u := *base
	u.Scheme = strings.Replace(u.Scheme, "http", "ws", 1)
	u.Path = path
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	c, _, err := websocket.Dial(ctx, u.String(), &websocket.DialOptions{HTTPClient: client})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	return c, nil
}

// errorCounts counts errors by kind, keeping the first of each. Safe for
// concurrent use.
type errorCounts struct {
	mu       sync.Mutex
	counts   map[string]int64
	examples map[string]string
}

func newErrorCounts() *errorCounts {
	return &errorCounts{counts: map[string]int64{}, examples: map[string]string{}}
}

// add counts e.
func (c *errorCounts) add(e *loadError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[e.kind]++
	if _, ok := c.examples[e.kind]; !ok {
		c.examples[e.kind] = oneLine(e.detail)
	}
}

// total returns how many errors were counted.
func (c *errorCounts) total() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, v := range c.counts {
		n += v
	}
	return n
}

// snapshot returns copies of the counts and the first of each kind.
func (c *errorCounts) snapshot() (map[string]int64, map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	counts, examples := make(map[string]int64, len(c.counts)), make(map[string]string, len(c.examples))
	for k, v := range c.counts {
		counts[k] = v
	}
	for k, v := range c.examples {
		examples[k] = v
	}
	return counts, examples
}

// cpuWindow reads this process's and the server's CPU time at its start
// and end.
type cpuWindow struct {
	pid          int
	self0, srv0  float64
	Self, Server float64
}

func startCPU(pid int) *cpuWindow {
	w := &cpuWindow{pid: pid, self0: selfCPU()}
	w.srv0, _ = procCPU(pid)
	return w
}

// stop ends the window and returns the server's CPU (nil without --pid).
func (w *cpuWindow) stop() *float64 {
	w.Self = selfCPU() - w.self0
	if w.pid == 0 {
		return nil
	}
	s, err := procCPU(w.pid)
	if err != nil {
		return nil
	}
	w.Server = s - w.srv0
	return &w.Server
}

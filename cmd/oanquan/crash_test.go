package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// startBinary starts the program built at bin with args and returns the
// address it serves at; the process is killed when the test ends.
func startBinary(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	timeout := time.After(guard)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the server ended before serving: %s", stderr.String())
			}
			if url := regexp.MustCompile(`http://[^ ]+/`).FindString(line); url != "" {
				go func() {
					for range lines {
					}
				}()
				return cmd, url
			}
		case <-timeout:
			t.Fatal("the server printed no address")
		}
	}
}

// apiGame is what this test reads of a game.
type apiGame struct {
	ID       string
	Secret   string
	Mode     string
	Moves    []string
	Legal    []string
	Ply      int
	ToMove   int
	Human    int
	Thinking bool
	Over     bool
}

func call(url, method, path, secret string, body any) (apiGame, int, error) {
	var rd *bytes.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return apiGame{}, 0, err
	}
	defer resp.Body.Close()
	var g apiGame
	if path == "/api/games" || method == "GET" {
		json.NewDecoder(resp.Body).Decode(&g)
	} else {
		var turn struct {
			Move  string
			State apiGame
		}
		json.NewDecoder(resp.Body).Decode(&turn)
		g = turn.State
	}
	return g, resp.StatusCode, nil
}

// TestSIGKILL starts the real program on a SQLite file, plays several
// games at once, kills it with SIGKILL in the middle of play, starts it
// again on the file and finds every move it had answered; in the games
// against the computer that waited for its move, the computer moves
// without anyone asking.
func TestSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "oanquan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "games.db")
	// A fixed port: the server started again is the same server, and
	// takes up its own leases on games against the computer at once.
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--addr", port, "--db", db, "--new-games-per-minute", "0"}
	// The first server thinks for a long time at Hard: a game against it
	// is sure to be waiting for the computer when the server is killed.
	cmd, url := startBinary(t, bin, append(args, "--move-time", "60s")...)
	hard, status, err := call(url, "POST", "/api/games", "", map[string]any{"mode": "ai", "level": "hard"})
	if err != nil || status != 201 {
		t.Fatalf("creating a game against Hard: %d %v", status, err)
	}
	if _, status, err := call(url, "POST", "/api/games/"+hard.ID+"/moves", hard.Secret, map[string]any{"move": hard.Legal[0]}); err != nil || status != 200 {
		t.Fatalf("a move against Hard: %d %v", status, err)
	}

	var mu sync.Mutex
	answered := map[string][]string{} // by game: the moves answered 200, in order
	secrets := map[string]string{}
	var games []apiGame
	for i := range 6 {
		body := map[string]any{"mode": "local"}
		if i%3 == 2 {
			body = map[string]any{"mode": "ai", "level": "easy"}
		}
		g, status, err := call(url, "POST", "/api/games", "", body)
		if err != nil || status != 201 {
			t.Fatalf("creating a game: %d %v", status, err)
		}
		games = append(games, g)
		secrets[g.ID] = g.Secret
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, g := range games {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				cur, status, err := call(url, "GET", "/api/games/"+g.ID, "", nil)
				if err != nil || status != 200 {
					return // killed
				}
				if cur.Over {
					return
				}
				if len(cur.Legal) == 0 {
					time.Sleep(time.Millisecond) // the computer thinks
					continue
				}
				mv := cur.Legal[i%len(cur.Legal)]
				after, status, err := call(url, "POST", "/api/games/"+g.ID+"/moves", g.Secret, map[string]any{"move": mv, "ply": cur.Ply})
				if err != nil {
					return
				}
				if status == 200 {
					mu.Lock()
					answered[g.ID] = after.Moves
					mu.Unlock()
				}
			}
		})
	}
	// Kill it in the middle of play: once a few moves are answered (each
	// waits for its fsync, which a busy disk makes slow), within 10 s.
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := 0
		for _, ms := range answered {
			n += len(ms)
		}
		mu.Unlock()
		if n >= 24 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	close(stop)
	wg.Wait()

	moves := 0
	for _, ms := range answered {
		moves += len(ms)
	}
	if moves < 12 {
		t.Fatalf("only %d moves answered before the kill: the test cannot tell", moves)
	}
	t.Logf("%d moves answered before SIGKILL", moves)

	_, url = startBinary(t, bin, args...)
	games = append(games, hard)
	answered[hard.ID] = []string{hard.Legal[0]}
	secrets[hard.ID] = hard.Secret
	for _, g := range games {
		want := answered[g.ID]
		deadline := time.Now().Add(guard)
		for {
			got, status, err := call(url, "GET", "/api/games/"+g.ID, "", nil)
			if err != nil || status != 200 {
				t.Fatalf("game %s after the restart: %d %v", g.ID, status, err)
			}
			if len(got.Moves) < len(want) || !slices.Equal(got.Moves[:len(want)], want) {
				t.Fatalf("game %s after the restart has moves %v, want %v first", g.ID, got.Moves, want)
			}
			computerToMove := got.Mode == "ai" && !got.Over && got.ToMove != got.Human
			if !computerToMove {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %s: the computer did not move after the restart", g.ID)
			}
			time.Sleep(10 * time.Millisecond)
		}
		// The secret still acts for the game's seats.
		if _, status, _ := call(url, "GET", "/api/games/"+g.ID+"/hints", secrets[g.ID], nil); status == http.StatusForbidden {
			t.Errorf("game %s: the secret is refused after the restart", g.ID)
		}
	}
}

// freePort returns a loopback address with a port free now.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// clockedGame is what TestSIGKILLClock reads of a game.
type clockedGame struct {
	ID     string
	Secret string
	Seat   int
	Legal  []string
	ToMove int
	Over   bool
	Clock  *struct {
		Remaining [2]int64
		Running   *int
	}
}

// send makes one request of TestSIGKILLClock, decoding the answer (or
// its "state", or its "game") into a clockedGame.
func send(t *testing.T, url, method, path, secret, body string, want int) clockedGame {
	t.Helper()
	req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		clockedGame
		State *clockedGame
		Game  *clockedGame
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != want {
		t.Fatalf("%s %s: %d, %v; want %d", method, path, resp.StatusCode, err, want)
	}
	g := out.clockedGame
	switch {
	case out.State != nil:
		g = *out.State
	case out.Game != nil:
		g, g.Secret, g.Seat = *out.Game, out.Secret, out.Seat
	}
	return g
}

// TestSIGKILLClock: a 1+0 game's clocks survive the program killed with
// SIGKILL and started again on its SQLite file. The side not to move has
// the time saved with its last move, to the millisecond; the side to
// move is charged nothing for the time the program was down (the outage
// rule: a server charges only from when it started), and the game goes
// on with its clocks.
func TestSIGKILLClock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "oanquan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--addr", port, "--db", filepath.Join(dir, "games.db"), "--new-games-per-minute", "0"}
	cmd, url := startBinary(t, bin, args...)
	c := send(t, url, "POST", "/api/games", "", `{"mode":"online","clock":{"initial":60,"increment":0}}`, 201)
	j := send(t, url, "POST", "/api/games/"+c.ID+"/join", "", "", 200)
	secrets := map[int]string{c.Seat: c.Secret, j.Seat: j.Secret}
	g := j
	for i := range 3 {
		if i == 2 {
			time.Sleep(700 * time.Millisecond) // the third move is charged about 0.5 s
		}
		g = send(t, url, "POST", "/api/games/"+c.ID+"/moves", secrets[g.ToMove], `{"move":"`+g.Legal[0]+`"}`, 200)
	}
	waiting := 1 - g.ToMove // moved last: its clock stopped
	saved := g.Clock.Remaining[waiting]
	if saved > 59800 || saved < 59000 || g.Clock.Running == nil || *g.Clock.Running != g.ToMove {
		t.Fatalf("clock after three moves: %+v, running %v", g.Clock.Remaining, g.Clock.Running)
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	time.Sleep(2 * time.Second) // nobody serves the game

	_, url = startBinary(t, bin, args...)
	g = send(t, url, "GET", "/api/games/"+c.ID, "", "", 200)
	if g.Over || g.Clock == nil || g.Clock.Running == nil || *g.Clock.Running != 1-waiting {
		t.Fatalf("after the restart: over %v, clock %+v", g.Over, g.Clock)
	}
	if got := g.Clock.Remaining[waiting]; got != saved {
		t.Errorf("the waiting side has %d ms after the restart, want %d as saved", got, saved)
	}
	if got := g.Clock.Remaining[1-waiting]; got < 59000 {
		t.Errorf("the side to move has %d ms after 3 s away, want at least 59000 (the outage not charged)", got)
	}
	g = send(t, url, "POST", "/api/games/"+c.ID+"/moves", secrets[g.ToMove], `{"move":"`+g.Legal[0]+`"}`, 200)
	if g.Over || g.Clock.Remaining[waiting] > saved || g.Clock.Remaining[1-waiting] < 59000 {
		t.Errorf("a move after the restart: over %v, clock %+v", g.Over, g.Clock.Remaining)
	}
}

package server

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportPolicy writes down which way imports go (docs/SERVER.md):
// match has no HTTP and no storage, store knows no game packages, the
// API's operations (api) have no transport and no storage: the engine in
// the browser runs them too, and net/http or net/url would make it
// larger. The server's domain packages (lobby, players, accounts, ops,
// limits, socket, ids) sit below it: it assembles them, they never import it.
func TestImportPolicy(t *testing.T) {
	for dir, banned := range map[string][]string{
		"../match": {"net", "net/http", "database/sql", "oanquan/internal/server", "oanquan/internal/store", "github.com/coder/websocket"},
		"../api":   {"net", "net/http", "net/url", "database/sql", "oanquan/internal/server", "oanquan/internal/store", "oanquan/internal/offline", "github.com/coder/websocket"},
		"../store": {"net/http", "oanquan/internal/match", "oanquan/internal/server", "oanquan/rules", "oanquan/ai"},
		// The domains below the server never import it, nor each other
		// upwards: limits (rate limits, socket caps) knows no games, no
		// lobby and no WebSocket; socket (the one WebSocket client) knows
		// no games, no store and no API.
		"../limits": {"oanquan/internal/server", "oanquan/internal/socket", "oanquan/internal/match", "oanquan/rules", "oanquan/ai", "github.com/coder/websocket"},
		// lobby (seeks, quick pairing, its socket, a pairing's game)
		// reaches games only through its Games, HTTP only through the
		// socket client, and the store through its narrow Store.
		"../lobby":   {"oanquan/internal/server", "net/http", "database/sql", "oanquan/internal/offline"},
		"../players": {"oanquan/internal/server", "oanquan/internal/lobby", "net/http", "database/sql", "github.com/coder/websocket"},
		// accounts (sign-up and sign-in, sessions and their cookies,
		// profiles, rated games' endings) knows no live games: what it
		// needs of them (resigning a deleted account's games, the results
		// of old ones) the server lends it in its Config; and no lobby.
		"../accounts": {"oanquan/internal/server", "oanquan/internal/lobby", "oanquan/internal/players", "oanquan/internal/match", "oanquan/rules", "oanquan/ai", "database/sql", "github.com/coder/websocket"},
		// ops (retention, the store's health probe, the metrics) knows no
		// games and no domain: the server tells it what is live.
		"../ops":    {"oanquan/internal/server", "oanquan/internal/lobby", "oanquan/internal/players", "oanquan/internal/accounts", "oanquan/internal/match", "oanquan/rules", "oanquan/ai", "database/sql", "github.com/coder/websocket"},
		"../ids":    {"oanquan/internal/server", "oanquan/internal/store", "oanquan/internal/match", "net/http", "database/sql"},
		"../socket": {"oanquan/internal/server", "oanquan/internal/limits", "oanquan/internal/store", "oanquan/internal/api", "oanquan/internal/match", "oanquan/rules", "oanquan/ai", "database/sql"},
	} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, b := range banned {
					if path == b {
						t.Errorf("%s imports %s", f, path)
					}
				}
			}
		}
	}
}

package stores

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/internal/store/postgres"
	"oanquan/internal/store/sqlite"
)

// Open opens the store that spec names, spec being the value of the
// server's --db flag:
//
//   - "memory": a memory.DB; nothing is kept after the process ends.
//   - "postgres://…" or "postgresql://…": a postgres.DB (several servers);
//     pgx's parameters apply, e.g. pool_max_conns=16 (the default is 4 or
//     the number of CPUs) or connect_timeout=5.
//   - "": the SQLite file DefaultPath() (its directory made, mode 0700).
//   - anything else: the path of a SQLite file, a sqlite.DB (its directory must exist).
//
// It returns the store and a description of where games are kept, for
// the server to print ("SQLite file /home/ana/.local/share/oanquan/oanquan.db").
// The description and the errors never show a password. log, which may
// be nil, is given to the store.
func Open(ctx context.Context, spec string, log *slog.Logger) (store.Full, string, error) {
	switch {
	case spec == "memory":
		return memory.New(), "memory (games are not kept after the server stops)", nil
	case strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://"):
		return openPostgresSpec(ctx, spec, log)
	case strings.Contains(spec, "://"):
		scheme, _, _ := strings.Cut(spec, "://")
		return nil, "", fmt.Errorf("--db: unknown kind of database %q: want a SQLite file path, \"memory\" or a postgres:// URL", scheme+"://")
	}
	path := spec
	if path == "" {
		p, err := DefaultPath()
		if err != nil {
			return nil, "", fmt.Errorf("--db not given, and no default place for the SQLite file: %w (give --db FILE)", err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return nil, "", fmt.Errorf("--db not given: making the directory of the default SQLite file: %w (give --db FILE)", err)
		}
		path = p
	} else if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, "", fmt.Errorf("--db %s: is a directory; want a SQLite file path, \"memory\" or a postgres:// URL", path)
	} else if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return nil, "", fmt.Errorf("--db %s: the directory of the SQLite file: %w", path, err)
	}
	s, err := sqlite.Open(ctx, path, log)
	if err != nil {
		return nil, "", fmt.Errorf("--db: %w (want a SQLite file, \"memory\" or a postgres:// URL)", err)
	}
	return s, "SQLite file " + s.Path(), nil
}

// openPostgresSpec opens the Postgres store at the URL spec.
func openPostgresSpec(ctx context.Context, spec string, log *slog.Logger) (store.Full, string, error) {
	shown := redact(spec)
	cfg, err := pgx.ParseConfig(spec)
	if err != nil {
		return nil, "", fmt.Errorf("--db %s: not a PostgreSQL URL pgx understands (want postgres://USER:PASSWORD@HOST:PORT/DATABASE)", shown)
	}
	s, err := postgres.Open(ctx, spec, log)
	if err != nil {
		return nil, "", fmt.Errorf("--db %s: %w", shown, err)
	}
	return s, "PostgreSQL " + postgres.Describe(cfg), nil
}

// redact returns the URL u with its password, if any, replaced by xxxxx.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return p.Redacted()
}

// DefaultPath returns where the SQLite file is kept when --db is not
// given: $XDG_DATA_HOME/oanquan/oanquan.db, else
// ~/.local/share/oanquan/oanquan.db (the XDG Base Directory rules: a
// relative XDG_DATA_HOME is ignored).
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "oanquan", "oanquan.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	if home == "" {
		return "", errors.New("no home directory")
	}
	return filepath.Join(home, ".local", "share", "oanquan", "oanquan.db"), nil
}

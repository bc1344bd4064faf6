package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
)

// listenerName is the application_name of the connections that LISTEN,
// so that an operator (or a test) can find them in pg_stat_activity.
const listenerName = "oanquan-listen"

// Backoff between the listener's attempts to connect again. The longest
// wait is short, so that after the database restarts the servers hear
// of each other's changes again within a second, however long it was
// down; an attempt costs the database a refused connection.
const (
	listenFirstRetry = 50 * time.Millisecond
	listenMaxRetry   = 500 * time.Millisecond
	// listenLogEvery is how many failed attempts in a row are logged
	// once (the first is always): one line every 30 s or so.
	listenLogEvery = 60
)

// Changes sends a notice of each change made through any other Postgres
// store on this database (its own changes, its server knows of) to a
// game, to the presence board or to the lobby's seeks, until ctx is done or p is closed; then
// it closes the channel. It listens on a connection of its own, outside
// the pool. The first connection is made before Changes returns, so
// every change committed after that is sent (unless the connection is
// lost: then it connects again, waiting 50 ms, then twice as long each
// time up to 500 ms, and sends the zero Notice once it listens again,
// for notices may have been missed). If that first connection fails, it
// keeps trying the same way and sends the zero Notice when it succeeds.
// A slow reader delays the notices, never drops them; PostgreSQL queues
// them meanwhile.
func (p *DB) Changes(ctx context.Context) <-chan store.Notice {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(p.done, cancel)
	ch := make(chan store.Notice, 64)
	conn, err := p.listen(ctx)
	if err != nil {
		p.log.Warn("store: listening for changes", "err", err)
	}
	go func() {
		defer close(ch)
		defer cancel()
		defer stop()
		p.relay(ctx, conn, ch)
	}()
	return ch
}

// listen opens a connection and has it LISTEN to the games' channel and
// the presence board's.
func (p *DB) listen(ctx context.Context) (*pgx.Conn, error) {
	cfg := p.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = listenerName
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	for _, channel := range []string{notifyChannel, presenceChannel, lobbyChannel, phraseChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
			conn.Close(context.Background())
			return nil, err
		}
	}
	return conn, nil
}

// relay sends the notices that conn receives to ch, connecting again
// when the connection is lost (or conn is nil), until ctx is done.
func (p *DB) relay(ctx context.Context, conn *pgx.Conn, ch chan<- store.Notice) {
	retry, failed := listenFirstRetry, 0
	for {
		if conn == nil {
			var err error
			if conn, err = p.listen(ctx); err != nil {
				if ctx.Err() != nil {
					return
				}
				if failed%listenLogEvery == 0 {
					p.log.Warn("store: listening for changes, will retry", "err", err, "in", retry, "failed", failed+1)
				}
				failed++
				select {
				case <-time.After(retry):
				case <-ctx.Done():
					return
				}
				retry = min(2*retry, listenMaxRetry)
				continue
			}
			retry, failed = listenFirstRetry, 0
			if !send(ctx, ch, store.Notice{}) {
				conn.Close(context.Background())
				return
			}
		}
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			conn.Close(context.Background())
			conn = nil
			if ctx.Err() != nil {
				return
			}
			p.log.Warn("store: lost the connection listening for changes", "err", err)
			continue
		}
		id, own := p.parseNotice(n.Payload)
		if own {
			continue // this store's own change: its server knows of it
		}
		notice := store.Notice{Game: id, Presence: n.Channel == presenceChannel}
		switch n.Channel {
		case lobbyChannel:
			notice = store.Notice{Lobby: true, Seek: id}
		case phraseChannel:
			var ok bool
			if notice, ok = parsePhrase(p.name, n.Payload); !ok {
				continue // another's own, or not a phrase
			}
		}
		if !send(ctx, ch, notice) {
			conn.Close(context.Background())
			return
		}
	}
}

// parseNotice returns the game id of a notice and whether this store made
// the change. A notice is "STORE-NAME ID" (the name has a space in it; an
// id has none).
func (p *DB) parseNotice(payload string) (id string, own bool) {
	i := strings.LastIndexByte(payload, ' ')
	if i < 0 {
		return payload, false
	}
	return payload[i+1:], payload[:i] == p.name
}

// send sends n on ch unless ctx is done first.
func send(ctx context.Context, ch chan<- store.Notice, n store.Notice) bool {
	select {
	case ch <- n:
		return true
	case <-ctx.Done():
		return false
	}
}

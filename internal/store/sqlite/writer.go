package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"oanquan/internal/store/internal/sqldb"
)

// The SQLite store's writes go through one goroutine (the writer) that
// owns the only connection allowed to write. It takes every change queued
// while it was committing the previous ones and commits them together in
// one transaction: group commit. A commit in WAL mode costs about the same
// for one change as for a hundred, so under load this turns one commit a
// change into one commit a batch, while a lone change still commits at
// once (nothing waits for a batch to fill).
//
// Every change is written so that it refuses (ErrNotFound, ErrConflict,
// ErrExists, a done context) before it writes anything: a refused change
// leaves the transaction as it was and the others in the batch commit.
// An unexpected error after a write (an I/O error, a full disk) rolls the
// whole batch back, and its changes are tried again one a transaction, so
// that each caller gets the error its own change met.

// sqliteOp is one change waiting for the writer.
type sqliteOp struct {
	ctx  context.Context
	do   func(w *sqliteWriter) error
	done chan error // buffered: the writer never waits for the caller
}

// sqliteWriter is the writer's connection and its prepared statements.
// Only the writer goroutine (and Open, before it starts) uses it.
type sqliteWriter struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
}

// exec runs the statement q, prepared once per connection.
func (w *sqliteWriter) exec(q string, args ...any) (sql.Result, error) {
	st, err := w.stmt(q)
	if err != nil {
		return nil, err
	}
	return st.Exec(args...)
}

// queryRow runs the query q, prepared once per connection.
func (w *sqliteWriter) queryRow(q string, args ...any) *sql.Row {
	st, err := w.stmt(q)
	if err != nil {
		// A *sql.Row cannot be made from an error outside database/sql:
		// run the query unprepared, which reports the same error.
		return w.conn.QueryRowContext(context.Background(), q, args...)
	}
	return st.QueryRow(args...)
}

func (w *sqliteWriter) stmt(q string) (*sql.Stmt, error) {
	if st, ok := w.stmts[q]; ok {
		return st, nil
	}
	st, err := w.conn.PrepareContext(context.Background(), q)
	if err != nil {
		return nil, err
	}
	w.stmts[q] = st
	return st, nil
}

// write queues do for the writer and waits for its result. It returns
// without queueing if ctx is done or the store closed; once queued, it
// waits for the writer, which checks ctx again before the change, so
// that an error always means nothing was changed.
func (s *DB) write(ctx context.Context, do func(w *sqliteWriter) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	op := &sqliteOp{ctx: ctx, do: do, done: make(chan error, 1)}
	select {
	case s.ops <- op:
	case <-s.closing:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-op.done
}

// ErrClosed is returned by the methods of a closed store.
var ErrClosed = errors.New("store: closed")

// run is the writer goroutine: it gathers the changes queued (at most
// maxBatch) and commits them, until the store closes. s.ops is
// unbuffered, so a change is either received here and answered, or never
// received.
func (s *DB) run() {
	defer close(s.stopped)
	batch := make([]*sqliteOp, 0, s.maxBatch)
	for {
		select {
		case op := <-s.ops:
			batch = append(batch[:0], op)
		case <-s.closing:
			return
		}
	gather:
		for len(batch) < s.maxBatch {
			select {
			case op := <-s.ops:
				batch = append(batch, op)
			default:
				break gather
			}
		}
		if !s.commit(batch) {
			for _, op := range batch {
				s.commit([]*sqliteOp{op})
			}
		}
		clear(batch) // let the finished ops' closures go
	}
}

// commit runs batch in one transaction and answers each op. If an op
// meets an unexpected error in a batch of several, it rolls back, answers
// nobody and returns false: the caller retries the ops one by one.
func (s *DB) commit(batch []*sqliteOp) bool {
	w := s.w
	errs := make([]error, len(batch))
	if _, err := w.exec("BEGIN IMMEDIATE"); err != nil {
		return s.fail(batch, fmt.Errorf("store: begin: %w", err))
	}
	for i, op := range batch {
		if err := op.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		errs[i] = op.do(w)
		if errs[i] != nil && !sqldb.Refusal(errs[i]) {
			w.exec("ROLLBACK")
			return s.fail(batch, errs[i])
		}
	}
	if _, err := w.exec("COMMIT"); err != nil {
		w.exec("ROLLBACK")
		return s.fail(batch, fmt.Errorf("store: commit: %w", err))
	}
	for i, op := range batch {
		op.done <- errs[i]
	}
	return true
}

// fail answers a lone op with err and returns true, or returns false for
// a batch of several, to be retried one by one.
func (s *DB) fail(batch []*sqliteOp, err error) bool {
	if len(batch) > 1 {
		return false
	}
	batch[0].done <- err
	return true
}

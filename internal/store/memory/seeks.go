package memory

import (
	"context"
	"fmt"
	"slices"
	"time"

	"oanquan/internal/store"
)

// seeksLocked returns m's seeks by id; m.mu is held.
func (m *DB) seeksLocked() map[string]store.Seek {
	if m.seeks == nil {
		m.seeks = map[string]store.Seek{}
	}
	return m.seeks
}

// CreateSeek saves k.
func (m *DB) CreateSeek(ctx context.Context, k store.Seek) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	ss := m.seeksLocked()
	if _, ok := ss[k.ID]; ok {
		return fmt.Errorf("seek %q: %w", k.ID, store.ErrExists)
	}
	k.Key, k.Poster = slices.Clone(k.Key), slices.Clone(k.Poster)
	ss[k.ID] = k
	return nil
}

// CreateSeekWithin counts and saves k under the lock.
func (m *DB) CreateSeekWithin(ctx context.Context, k store.Seek, b store.Bounds) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var c store.SeekCounts
	for _, o := range m.seeksLocked() {
		if o.Game == "" && o.Expires.After(k.Created) {
			c.All++
			if o.Address == k.Address {
				c.Address++
			}
			if k.Wide != "" && o.Wide == k.Wide {
				c.Wide++
			}
		}
	}
	if n, err := c.Check(k, b); err != nil {
		return n, err
	}
	n := c.Address
	ss := m.seeks
	if _, ok := ss[k.ID]; ok {
		return n, fmt.Errorf("seek %q: %w", k.ID, store.ErrExists)
	}
	k.Key, k.Poster = slices.Clone(k.Key), slices.Clone(k.Poster)
	ss[k.ID] = k
	return n, nil
}

// Seek returns seek id.
func (m *DB) Seek(ctx context.Context, id string) (store.Seek, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	k, ok := m.seeks[id]
	if !ok {
		return store.Seek{}, fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
	}
	return k, nil
}

// OpenSeeks returns the open seeks at now, oldest first.
func (m *DB) OpenSeeks(ctx context.Context, now time.Time) ([]store.Seek, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []store.Seek
	for _, k := range m.seeks {
		if k.Game == "" && k.Expires.After(now) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b store.Seek) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return compareStrings(a.ID, b.ID)
	})
	return out, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// AcceptSeek marks seek id accepted if it is open.
func (m *DB) AcceptSeek(ctx context.Context, id, game string, seat int, acceptor string, now, keep time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.seeks[id]
	if !ok {
		return fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
	}
	if k.Game != "" || !k.Expires.After(now) {
		return fmt.Errorf("seek %q: %w", id, store.ErrConflict)
	}
	k.Game, k.Seat, k.Acceptor, k.Expires = game, seat, acceptor, keep
	m.seeks[id] = k
	return nil
}

// DeleteSeek deletes seek id.
func (m *DB) DeleteSeek(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.seeks, id)
	return nil
}

// ExpireSeeks deletes the seeks expired before now.
func (m *DB) ExpireSeeks(ctx context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, k := range m.seeks {
		if k.Expires.Before(now) {
			delete(m.seeks, id)
			n++
		}
	}
	return n, nil
}

// CountSeeks counts the open seeks the address posted.
func (m *DB) CountSeeks(ctx context.Context, address string, now time.Time) (int, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	for _, k := range m.seeks {
		if k.Address == address && k.Game == "" && k.Expires.After(now) {
			n++
		}
	}
	return n, nil
}

// WithdrawSeek deletes seek id if it is open.
func (m *DB) WithdrawSeek(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.seeks[id]
	switch {
	case !ok:
		return fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
	case k.Game != "":
		return fmt.Errorf("seek %q: %w", id, store.ErrConflict)
	}
	delete(m.seeks, id)
	return nil
}

// PairSeeks pairs open seeks a and b, or neither.
func (m *DB) PairSeeks(ctx context.Context, a, b, game string, seatA int, now, keep time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	ka, oka := m.seeks[a]
	kb, okb := m.seeks[b]
	if !oka || !okb || a == b || ka.Game != "" || kb.Game != "" || !ka.Expires.After(now) || !kb.Expires.After(now) {
		return fmt.Errorf("seeks %q and %q: %w", a, b, store.ErrConflict)
	}
	ka.Game, ka.Seat, ka.Acceptor, ka.Expires = game, seatA, kb.Account, keep
	kb.Game, kb.Seat, kb.Acceptor, kb.Expires = game, 1-seatA, ka.Account, keep
	m.seeks[a], m.seeks[b] = ka, kb
	return nil
}

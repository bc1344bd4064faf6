// Package stores opens the store that the server's --db flag names
// (Open: memory, a SQLite file or a PostgreSQL URL), says where the
// SQLite file is kept by default (DefaultPath), and tells a store that
// cannot take changes from a fault (Unavailable). It is the one package
// that imports all three stores; the server and the commands go through
// it.
package stores

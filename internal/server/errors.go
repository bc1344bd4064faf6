package server

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/limits"
	"oanquan/internal/store"
	"oanquan/internal/store/stores"
)

// The refusals and their statuses are package api's (its one error
// table); what is the server's own here is how they are written, the
// Retry-After of a refusal that has one (a limit, the store unavailable),
// the log of its faults, and the body's limits.

// writeError answers with err's status and code (api.Describe). Only
// refusals show their message; anything else is logged and answered
// with a 500 that says nothing of it.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, store.ErrNotFound) {
		err = storeNotFound{err}
	}
	if reason, ok := stores.Unavailable(err); ok && !errors.Is(err, api.ErrUnavailable) {
		// Not a bug: the store cannot be reached or written now. The
		// client hears why in a few words and when to try again; the
		// log gets the error.
		s.log.Error("store unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
		s.probe.Forget() // the next health check probes again
		s.metrics.StoreUnavailable()
		err = unavailable(reason)
	}
	status, body := api.Describe(err)
	var re *limits.RetryError
	switch {
	case errors.As(err, &re):
		w.Header().Set("Retry-After", strconv.Itoa(limits.RetrySeconds(re.Retry)))
		if re.Limit != "" {
			s.metrics.Refused(re.Limit)
		}
	case status == http.StatusInternalServerError && r.Context().Err() != nil && errors.Is(err, r.Context().Err()):
		// The client left before the answer: not the server's fault,
		// and nobody reads this answer.
		s.log.Debug("client left", "method", r.Method, "path", r.URL.Path)
	case status == http.StatusInternalServerError:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if status >= 500 && status != http.StatusInternalServerError {
		s.log.Warn("request refused", "method", r.Method, "path", r.URL.Path, "status", status)
	}
	writeJSON(w, status, body)
}

// storeRetry is the Retry-After of a request refused because the store
// cannot be reached or written.
const storeRetry = 5 * time.Second

// unavailable refuses a request because the store cannot be reached or
// written, for the reason given (stores.Unavailable).
func unavailable(reason string) error {
	return &limits.RetryError{Retry: storeRetry, Err: api.Fail(api.ErrUnavailable, "the games cannot be saved or read just now: %s; try again in %d s", reason, limits.RetrySeconds(storeRetry))}
}

// storeNotFound is the store's not-found as the API's: a game the store
// does not have is one the API does not.
type storeNotFound struct{ error }

func (e storeNotFound) Unwrap() []error { return []error{e.error, api.ErrNotFound} }

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		// Only the server's own types are written here, and they all
		// marshal: a failure is a bug.
		panic(err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// maxBody bounds every request body.
const maxBody = 64 << 10

// body returns r's body for package api to decode: at most maxBody
// bytes, its failures to arrive turned into the API's refusals.
func body(w http.ResponseWriter, r *http.Request) io.Reader {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	return bodyReader{r.Body}
}

// bodyReader reads a request's body, refusing one too large or too slow.
type bodyReader struct{ io.Reader }

func (b bodyReader) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		// Say nothing of the socket: its addresses are in err's text.
		return n, api.Fail(api.ErrTimeout, "the request body did not arrive in time")
	case errors.As(err, &mbe):
		return n, api.Fail(api.ErrTooLarge, "the body is larger than %d bytes", maxBody)
	}
	return n, err
}

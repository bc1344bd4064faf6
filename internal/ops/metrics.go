package ops

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the server's Prometheus metrics (docs/OPERATING.md,
// "Metrics"), on a registry of the server's own: two servers in one
// process (tests) count apart. Make them with NewMetrics; they are safe
// for concurrent use.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec   // by route and status
	latency  *prometheus.HistogramVec // by route, but for the WebSocket's, which lasts
	commits  prometheus.Histogram     // the store's answer to each change
	refusals *prometheus.CounterVec   // by limit
	store    prometheus.Counter       // requests refused as the store could not serve them
}

// Gauges are how the metrics read what the server has now.
type Gauges struct {
	Live    func() int // games live in memory
	Sockets func() int // WebSockets open
	Queued  func() int // searches waiting for a worker
	Busy    func() int // search workers running a search
}

// latencyBuckets go from 0.5 ms to 10 s: a move answers in about a
// millisecond, a hint in half a second.
var latencyBuckets = prometheus.ExponentialBuckets(0.0005, 2.5, 12)

// NewMetrics returns the metrics, reading g for the gauges.
func NewMetrics(g Gauges) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "oanquan_requests_total", Help: "HTTP requests answered, by route (the API's names, static, unknown) and status.",
		}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "oanquan_request_duration_seconds", Help: "Time to answer a request, by route; route=\"move\" is a move's latency.", Buckets: latencyBuckets,
		}, []string{"route"}),
		commits: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "oanquan_store_commit_duration_seconds", Help: "Time the store took to save a change of a game (durable when it returns).", Buckets: latencyBuckets,
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "oanquan_refusals_total", Help: "Requests refused by a limit, by limit.",
		}, []string{"limit"}),
		store: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "oanquan_store_unavailable_total", Help: "Requests answered 503 because the store could not be reached or written.",
		}),
	}
	gauge := func(name, help string, f func() int) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return float64(f()) })
	}
	m.reg.MustRegister(m.requests, m.latency, m.commits, m.refusals, m.store,
		gauge("oanquan_live_games", "Games live in memory.", g.Live),
		gauge("oanquan_websockets", "WebSockets open.", g.Sockets),
		gauge("oanquan_search_queued", "Searches (the computer's moves, hints, reviews) waiting for a worker.", g.Queued),
		gauge("oanquan_search_busy_workers", "Search workers running a search.", g.Busy),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Committed times one change the store saved, which began at start.
func (m *Metrics) Committed(start time.Time) {
	m.commits.Observe(time.Since(start).Seconds())
}

// Refused counts a request refused by limit.
func (m *Metrics) Refused(limit string) {
	m.refusals.WithLabelValues(limit).Inc()
}

// StoreUnavailable counts a request answered 503 because the store
// could not be reached or written.
func (m *Metrics) StoreUnavailable() { m.store.Inc() }

// Instrument counts h's answers under route, and times them unless
// timed is false (a WebSocket's route: it lives on).
func (m *Metrics) Instrument(route string, timed bool, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		m.requests.WithLabelValues(route, strconv.Itoa(sw.status)).Inc()
		if timed {
			m.latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
		}
	})
}

// statusWriter remembers the status written. Unwrap lets the WebSocket
// (and http.ResponseController) reach the connection beneath.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

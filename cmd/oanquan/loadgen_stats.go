package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// The figures of oanquan loadgen: latency histograms, and the CPU time and
// memory of processes, read from Linux's /proc.

// latencies is a histogram of durations, safe for concurrent use. Its
// buckets are exact to the microsecond below 128 µs and 1/64 wide (1.6%)
// above: a run's memory does not grow with its length.
type latencies struct {
	buckets [histBuckets]atomic.Int64
	n       atomic.Int64
	maxNs   atomic.Int64
}

// histBuckets covers up to 2^40 µs (12 days): far beyond any timeout.
const histBuckets = 128 + 64*34

// bucketOf returns the bucket of us microseconds.
func bucketOf(us uint64) int {
	if us < 128 {
		return int(us)
	}
	shift := bits.Len64(us) - 7 // keep the top 7 bits: 64 to 127
	return min(128+(shift-1)*64+int(us>>shift)-64, histBuckets-1)
}

// bucketMid returns the middle of bucket i, in microseconds.
func bucketMid(i int) float64 {
	if i < 128 {
		return float64(i) + 0.5
	}
	shift := (i-128)/64 + 1
	low := uint64((i-128)%64+64) << shift
	return float64(low) + float64(uint64(1)<<shift)/2
}

// record adds d.
func (h *latencies) record(d time.Duration) {
	h.buckets[bucketOf(uint64(d.Microseconds()))].Add(1)
	h.n.Add(1)
	for m := h.maxNs.Load(); int64(d) > m && !h.maxNs.CompareAndSwap(m, int64(d)); m = h.maxNs.Load() {
	}
}

// count returns how many durations were recorded.
func (h *latencies) count() int64 { return h.n.Load() }

// quantile returns the q-quantile in milliseconds (the middle of its
// bucket, never above the largest value recorded), or 0 for no values.
func (h *latencies) quantile(q float64) float64 {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	rank := max(int64(math.Ceil(q*float64(n))), 1)
	maxMs := float64(h.maxNs.Load()) / 1e6
	var seen int64
	for i := range h.buckets {
		if seen += h.buckets[i].Load(); seen >= rank {
			return min(bucketMid(i)/1e3, maxMs)
		}
	}
	return maxMs
}

// quantiles returns the median, p90, p99 and the largest, in
// milliseconds.
func (h *latencies) quantiles() quantiles {
	return quantiles{P50: h.quantile(0.50), P90: h.quantile(0.90), P99: h.quantile(0.99),
		Max: float64(h.maxNs.Load()) / 1e6}
}

// clockTicks is Linux's USER_HZ, the unit of the times in /proc/PID/stat:
// 100 on every architecture Go runs on.
const clockTicks = 100

// procCPU returns process pid's CPU time so far, user and system, in
// seconds, from /proc/PID/stat; 0 for pid 0.
func procCPU(pid int) (float64, error) {
	if pid == 0 {
		return 0, nil
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces: count the
	// fields after its closing parenthesis (the third field on).
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, errors.New("/proc/PID/stat: unexpected format")
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("/proc/PID/stat: unexpected format")
	}
	utime, err1 := strconv.ParseFloat(f[11], 64) // field 14
	stime, err2 := strconv.ParseFloat(f[12], 64) // field 15
	if err1 != nil || err2 != nil {
		return 0, errors.New("/proc/PID/stat: unexpected format")
	}
	return (utime + stime) / clockTicks, nil
}

// procMemory returns the field (VmRSS, VmHWM) of /proc/PID/status in MiB.
func procMemory(pid int, field string) (float64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no %s", pid, field)
}

// loadAverage returns the first three fields of /proc/loadavg, or "".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	return strings.Join(f[:min(3, len(f))], " ")
}

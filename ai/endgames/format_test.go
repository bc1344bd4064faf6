package endgames

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fingerprints holds, for each format version since it was kept, a
// fingerprint of what a build writes (see fingerprint). A version's entry
// never changes: when the fingerprint changes, the format's version must
// change too, and the new version gets its own entry.
var fingerprints = map[int]string{
	2: "50e97e8c7111891241688ca7dd662af85314239472432afa2345f866d9754ed3",
	3: "e66e5485701ff75b183bea01710cb85c178cc429cc2c209bcd1f6d1d702e35f4",
}

// fingerprint returns the SHA-256 of what a build writes that a reader
// interprets: the entries of the table for 6 pebbles (the rules and what
// a value means, through every value the build computes) and the bytes
// of every bound the encoding can hold.
func fingerprint(t *testing.T) string {
	data := build(t, 6, BuildOptions{})
	h := sha256.New()
	h.Write(data[len(magic)+1 : sumAt])
	h.Write(data[headerSize:])
	for lo := -Limit - 1; lo <= Limit+1; lo++ {
		for _, b := range []Bounds{{lo, lo}, {NegInf, lo}, {lo, PosInf}, {NegInf, PosInf}} {
			l, u := encode(b.clamp())
			h.Write([]byte{l, u})
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestFormatVersion fails when the bytes a build writes change (the
// rules, the values' meaning, the encoding of the bounds, the order of
// the entries) while formatVersion does not: a table left by an older
// program would then be read as this program's and misread.
func TestFormatVersion(t *testing.T) {
	got := fingerprint(t)
	want, ok := fingerprints[formatVersion]
	switch {
	case !ok || want == "":
		t.Fatalf("no fingerprint recorded for format %d: record %q in fingerprints", formatVersion, got)
	case got != want:
		t.Fatalf("the tables' bytes have changed (fingerprint %s, format %d was %s): raise formatVersion and record the new fingerprint for it", got, formatVersion, want)
	}
}

// TestChecksum: a table whose entries or header have changed is refused
// by OpenFile, Open and Load, with an error naming the file and saying it
// is damaged; so is a checkpoint, by the build resuming from it.
func TestChecksum(t *testing.T) {
	good := build(t, 5, BuildOptions{})
	for _, at := range []int{headerSize, headerSize + len(good[headerSize:])/2, len(good) - 1, 24} {
		bad := append([]byte{}, good...)
		bad[at] ^= 0x10
		dir := t.TempDir()
		path := filepath.Join(dir, Name(5))
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir)
		if at == 24 {
			// The pass changed: unfinished, and refused as such.
			if err == nil || !strings.Contains(err.Error(), "unfinished") {
				t.Errorf("byte %d changed: Open = %v, want refused", at, err)
			}
			continue
		}
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("byte %d changed: Open = %v, want an error naming %s, damaged", at, err, path)
		}
		if _, err := Load("t.egtb", bad); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "t.egtb") {
			t.Errorf("byte %d changed: Load = %v, want an error naming t.egtb, damaged", at, err)
		}
		// As a checkpoint (the pass set to 2), the build refuses to resume.
		copy(bad[24:], []byte{2, 0, 0, 0})
		if err := os.WriteFile(path+".part", bad, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(path)
		if err := Build(context.Background(), 5, dir, BuildOptions{}); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "checkpoint") {
			t.Errorf("byte %d changed: Build resuming = %v, want the checkpoint refused, damaged", at, err)
		}
	}
	if _, err := Load("t.egtb", good); err != nil {
		t.Errorf("Load(the table unchanged) = %v", err)
	}
}

// TestHeaderPebbles: a header saying more pebbles than any table has,
// up to the largest 32-bit count (negative as an int on 32 bits: run
// with GOARCH=386 too), is refused with an error, never a panic.
func TestHeaderPebbles(t *testing.T) {
	good := build(t, 3, BuildOptions{})
	for _, n := range []uint32{maxLayer + 1, 1 << 31, 0xFFFFFFFE, 0xFFFFFFFF} {
		data := append([]byte{}, good...)
		binary.LittleEndian.PutUint32(data[8:], n)
		if _, err := Load("t.egtb", data); err == nil || !strings.Contains(err.Error(), "do not match") {
			t.Errorf("Load(header of %d pebbles) = %v, want an error: they do not match", n, err)
		}
	}
}

// TestOldFormat: a table of another format's version (1, before the
// checksum) is refused with an error saying to build it again; Build
// replaces it, and starts over from a checkpoint of another format.
func TestOldFormat(t *testing.T) {
	good := build(t, 4, BuildOptions{})
	old := append([]byte{}, good...)
	old[len(magic)] = '1'
	clear(old[sumAt : sumAt+4])
	dir := t.TempDir()
	path := filepath.Join(dir, Name(4))
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenFile(path)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "format 1") || !strings.Contains(err.Error(), "build it again") {
		t.Errorf("OpenFile(format 1) = %v, want an error naming the file, format 1, to build it again", err)
	}
	if _, err := Load("t.egtb", old); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "t.egtb") {
		t.Errorf("Load(format 1) = %v, want an error naming t.egtb, another format", err)
	}
	if err := Build(context.Background(), 4, dir, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, good) {
		t.Errorf("Build over a table of format 1: %v, not the table", err)
	}

	os.Remove(path)
	copy(old[24:], []byte{2, 0, 0, 0}) // a checkpoint of format 1
	for i := headerSize; i < len(old); i++ {
		old[i] = 0 // bounds no build reaches: resumed from, they would show
	}
	if err := os.WriteFile(path+".part", old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Build(context.Background(), 4, dir, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, good) {
		t.Errorf("Build beside a checkpoint of format 1: %v, not the table", err)
	}
}

// TestConcurrentBuilds runs three builds of one table in one directory at
// once, saving checkpoints all the time, while a reader opens whatever is
// there: the reader never finds a part of a file (the table, when there,
// opens; a checkpoint, when there, is whole), every build succeeds, the
// table is the one a lone build makes, and nothing is left beside it.
func TestConcurrentBuilds(t *testing.T) {
	const n = 6
	want := build(t, n, BuildOptions{Threads: 1})
	dir := t.TempDir()
	path := filepath.Join(dir, Name(n))
	var builders sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		builders.Add(1)
		go func() {
			defer builders.Done()
			errs[i] = Build(context.Background(), n, dir, BuildOptions{Threads: 1, Every: time.Nanosecond})
		}()
	}
	var stop atomic.Bool
	var reads, tables, checkpoints int
	var readErrs []error
	reader := make(chan struct{})
	go func() {
		defer close(reader)
		for !stop.Load() {
			reads++
			if tb, err := OpenFile(path); err == nil {
				tables++
				tb.Close()
			} else if !errors.Is(err, os.ErrNotExist) {
				readErrs = append(readErrs, err)
			}
			if data, err := os.ReadFile(path + ".part"); err == nil {
				checkpoints++
				h, err := parseHeader(data, path+".part")
				if err == nil {
					err = verify(data, h, path+".part")
				}
				if err != nil {
					readErrs = append(readErrs, err)
				}
			}
		}
	}()
	builders.Wait()
	stop.Store(true)
	<-reader
	for i, err := range errs {
		if err != nil {
			t.Errorf("builder %d: %v", i, err)
		}
	}
	for _, err := range readErrs[:min(len(readErrs), 5)] {
		t.Errorf("the reader found a part of a file: %v", err)
	}
	t.Logf("%d reads: the table %d times, a checkpoint %d times", reads, tables, checkpoints)
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the table built by three: %v, not the lone build's", err)
	}
	// The reader may have left a record of the table checked (if it
	// opened it more than racyAge after it was written).
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if left = slices.DeleteFunc(left, func(n string) bool { return n == path+checkedSuffix }); len(left) != 1 {
		t.Errorf("files left: %q, want the table alone", left)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() != 0o644 {
		t.Errorf("the table's mode is %v, want readable by all (0644)", fi.Mode().Perm())
	}
}

// niceOfThread returns the nice value of the calling thread.
func niceOfThread() (int, error) { return niceOf("/proc/thread-self/stat") }

// niceOfMain returns the nice value of the process's first thread, the
// one ps shows.
func niceOfMain() (int, error) {
	return niceOf("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/stat")
}

// niceOf returns the nice value in a thread's stat file.
func niceOf(stat string) (int, error) {
	data, err := os.ReadFile(stat)
	if err != nil {
		return 0, err
	}
	// The fields after the command's closing parenthesis: state is field
	// 3, nice field 19.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return strconv.Atoi(f[19-3])
}

// TestBuildNice: with Nice set, every worker of a build runs on a thread
// of that nice value; without, on the caller's.
func TestBuildNice(t *testing.T) {
	if _, err := niceOfThread(); err != nil {
		t.Skip("no /proc/thread-self:", err)
	}
	base, _ := niceOfThread()
	for _, nice := range []int{0, 15} {
		var mu sync.Mutex
		var seen []int
		onWorker = func() {
			v, err := niceOfThread()
			if err != nil {
				v = -100
			}
			mu.Lock()
			seen = append(seen, v)
			mu.Unlock()
		}
		build(t, 3, BuildOptions{Threads: 2, Nice: nice})
		onWorker = nil
		want := base
		if nice > 0 {
			want = nice
		}
		if len(seen) == 0 {
			t.Fatal("no worker seen")
		}
		for _, v := range seen {
			if v != want {
				t.Errorf("Nice %d: a worker's thread has nice %d, want %d (all: %v)", nice, v, want, seen)
				break
			}
		}
	}
	if v, _ := niceOfThread(); v != base {
		t.Errorf("the test's thread has nice %d after the builds, was %d", v, base)
	}
}

// TestBuildNiceSparesMain: the process's first thread, which Go parks for
// good rather than end when a goroutine locked to it ends, never takes a
// build's nice value (it did when a worker happened to start there: about
// one server test in three).
func TestBuildNiceSparesMain(t *testing.T) {
	base, err := niceOfMain()
	if err != nil {
		t.Skip("no /proc/self/task:", err)
	}
	for range 40 {
		build(t, 2, BuildOptions{Threads: 2, Nice: 15})
		if v, _ := niceOfMain(); v != base {
			t.Fatalf("the main thread has nice %d after a build at nice 15, was %d", v, base)
		}
	}
}

var tableDir = flag.String("egtb-dir", "", "a directory of tables for BenchmarkOpen")

// BenchmarkOpen opens each table in -egtb-dir (memory-mapped, the
// checksum verified) and, as checksum, verifies the checksum alone of
// the bytes in memory: the cost of the check at load.
func BenchmarkOpen(b *testing.B) {
	if *tableDir == "" {
		b.Skip("no -egtb-dir")
	}
	names, _ := filepath.Glob(filepath.Join(*tableDir, "pebbles-*.egtb"))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(name)+"/OpenFile", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				tb, err := OpenFile(name)
				if err != nil {
					b.Fatal(err)
				}
				tb.Close()
			}
		})
		b.Run(filepath.Base(name)+"/Load", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Load(name, data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(filepath.Base(name)+"/checksum", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				checksum(data)
			}
		})
	}
}

package endgames

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
)

// The file: a header of headerSize bytes, then two bytes per entry (the
// lower and upper bound as signed bytes), entries in index order. The
// header: magic and the format's version as one ASCII digit (bytes 0–7),
// the pebbles (uint32 at 8), the entries (uint64 at 16), the passes made
// (int32 at 24, -1 when the table is complete), and the CRC-32C
// (Castagnoli) of bytes 0–27 and of every entry (uint32 at 28); the rest
// is zero. Little-endian throughout.
const (
	magic      = "OAQEGTB"
	headerSize = 64
	sumAt      = 28
)

// formatVersion is the file format's version, written after the magic.
// Change it whenever the bytes a build writes mean something else: the
// encoding of the bounds, the order of the entries, the header, or the
// values themselves (the rules, or what a value measures). A table of
// another version is refused, not misread. TestFormatVersion holds a
// fingerprint of a small table's bytes for this version and fails when
// they change while the version does not.
//
// 1: no checksum. 2: the CRC-32C at byte 28. 3: the bottom row to move
// only (four entries a board, not eight: see variants).
const formatVersion = 3

// ErrFormat is wrapped by the error for a table of another format's
// version (one left by an older program): it must be built again.
var ErrFormat = errors.New("another format")

// ErrDamaged is wrapped by the error for a table whose entries do not
// match the checksum in its header.
var ErrDamaged = errors.New("damaged")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Name returns the file name of the table for n pebbles.
func Name(n int) string { return fmt.Sprintf("pebbles-%02d.egtb", n) }

// header returns a file's header, its checksum not yet set.
func header(n int, entries uint64, pass int) []byte {
	h := make([]byte, headerSize)
	copy(h, magic)
	h[len(magic)] = '0' + formatVersion
	binary.LittleEndian.PutUint32(h[8:], uint32(n))
	binary.LittleEndian.PutUint64(h[16:], entries)
	binary.LittleEndian.PutUint32(h[24:], uint32(int32(pass)))
	return h
}

type fileHeader struct {
	n       int
	entries uint64
	pass    int
	sum     uint32
}

// parseHeader checks a table file's header, its version and size (not its
// checksum: see verify).
func parseHeader(data []byte, path string) (fileHeader, error) {
	if len(data) < len(magic)+1 || string(data[:len(magic)]) != magic {
		return fileHeader{}, fmt.Errorf("%s: not an endgame table (no %q header)", path, magic)
	}
	if v := data[len(magic)]; v != '0'+formatVersion {
		old := fmt.Sprintf("%q", v)
		if v >= '0' && v <= '9' {
			old = string(v)
		}
		return fileHeader{}, fmt.Errorf("%s: an endgame table of format %s, where this program reads format %d: build it again with this program (oanquan endgames build): %w",
			path, old, formatVersion, ErrFormat)
	}
	if len(data) < headerSize {
		return fileHeader{}, fmt.Errorf("%s: %d bytes, shorter than the %d-byte header (a truncated file?)", path, len(data), headerSize)
	}
	n := binary.LittleEndian.Uint32(data[8:])
	h := fileHeader{
		entries: binary.LittleEndian.Uint64(data[16:]),
		pass:    int(int32(binary.LittleEndian.Uint32(data[24:]))),
		sum:     binary.LittleEndian.Uint32(data[sumAt:]),
	}
	// Compared before it is an int: on 32 bits, int(n) may be negative.
	if n > maxLayer || h.entries != layerStart(int(n)+1)*variants {
		return fileHeader{}, fmt.Errorf("%s: header says %d pebbles and %d entries, which do not match", path, n, h.entries)
	}
	h.n = int(n)
	if uint64(len(data)-headerSize) != 2*h.entries {
		return fileHeader{}, fmt.Errorf("%s: %d bytes of entries, want %d (a truncated file?)", path, len(data)-headerSize, 2*h.entries)
	}
	return h, nil
}

// checksum returns the CRC-32C of a file's header before the checksum
// and of its entries.
func checksum(data []byte) uint32 {
	return crc32.Update(crc32.Checksum(data[:sumAt], castagnoli), castagnoli, data[headerSize:])
}

// verify checks the checksum of data, whose header parseHeader read as h.
func verify(data []byte, h fileHeader, path string) error {
	if got := checksum(data); got != h.sum {
		return fmt.Errorf("%s: the entries' checksum is %08x where the header says %08x: the file is %w; build it again (oanquan endgames build)",
			path, got, h.sum, ErrDamaged)
	}
	return nil
}

// parseFinished checks that data is a finished table, checksum included.
func parseFinished(data []byte, path string) (fileHeader, error) {
	h, err := parseUnchecked(data, path)
	if err != nil {
		return h, err
	}
	return h, verify(data, h, path)
}

// parseUnchecked checks that data is a finished table, all but its
// checksum.
func parseUnchecked(data []byte, path string) (fileHeader, error) {
	h, err := parseHeader(data, path)
	if err != nil {
		return h, err
	}
	if h.pass != -1 {
		return h, fmt.Errorf("%s: an unfinished build (pass %d): run the build again to finish it", path, h.pass)
	}
	return h, nil
}

// writeFile writes a file at path that is either whole or absent: fill
// writes it into a temporary file of its own in the same directory
// (several builders may write at once), check checks it once written and
// synced to the disk, and only then is it renamed to path, replacing what
// was there. A reader never sees a part of a file.
func writeFile(path string, fill func(f *os.File) error, check func(tmp string) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// Readable by all, as os.Create makes it under the usual umask
	// (CreateTemp's is the owner's alone): the server may run as another
	// user than the build.
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if check != nil {
		if err = check(tmp); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	// The rename made durable, where the system allows (not an error
	// where it does not: the file itself is).
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

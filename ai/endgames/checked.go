package endgames

import (
	"fmt"
	"os"
	"time"
)

// Checking a table's checksum reads the whole file: seconds for the
// 1.8 GB of 20 pebbles, and from the disk after a restart, where a command
// that probes a position needs a few pages of it. So a table whose
// checksum has matched is remembered in a small file beside it (its name
// and checkedSuffix): the table's size, modification time and checksum.
// While the table's size and modification time are those, OpenFile checks
// its header and not its entries again.
//
// The record guards against a file damaged or replaced since it was
// checked, not against one changed and then given its old time back on
// purpose. A modification time is only as fine as the system's clock tick,
// so a file written in the same tick as it was checked could be changed
// again within that tick and keep its time (git's "racy" index entries):
// a table modified less than racyAge before it is checked is not
// remembered, and is checked whole at its next opening too.
const (
	checkedSuffix = ".checked"
	racyAge       = 2 * time.Second
)

// checkedRecord is what the record holds for a table file: one line.
func checkedRecord(fi os.FileInfo, sum uint32) string {
	return fmt.Sprintf("size %d modified %d crc32c %08x\n", fi.Size(), fi.ModTime().UnixNano(), sum)
}

// wasChecked reports whether the table at path, as fi describes it, with
// checksum sum in its header, is the one its record says was checked.
func wasChecked(path string, fi os.FileInfo, sum uint32) bool {
	rec, err := os.ReadFile(path + checkedSuffix)
	return err == nil && string(rec) == checkedRecord(fi, sum)
}

// rememberChecked records that the table at path, as fi describes it, has
// checksum sum and matched it (OpenFile calls it when wasChecked said no).
// It is a cache: where it cannot be written (a read-only directory), the
// table is checked again next time.
func rememberChecked(path string, fi os.FileInfo, sum uint32) {
	if time.Since(fi.ModTime()) < racyAge {
		return
	}
	writeFile(path+checkedSuffix, func(f *os.File) error {
		_, err := f.WriteString(checkedRecord(fi, sum))
		return err
	}, nil)
}

//go:build linux || darwin || freebsd

package endgames

import (
	"os"
	"syscall"
)

// mapFile maps path into memory read-only.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() == 0 {
		return nil, func() error { return nil }, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readFile(path)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}

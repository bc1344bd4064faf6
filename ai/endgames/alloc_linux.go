package endgames

import (
	"syscall"
	"unsafe"
)

// allocWords returns n zeroed words for a table being built, and a
// function that gives them back. On Linux they are mapped apart from Go's
// heap and the kernel is asked to back them with huge pages: a build reads
// entries all over a table of up to gigabytes, and with small pages
// nearly every read would also miss the processor's page cache (its TLB).
func allocWords(n uint64) ([]uint32, func()) {
	if n < 1<<20 {
		return make([]uint32, n), func() {}
	}
	data, err := syscall.Mmap(-1, 0, int(4*n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint32, n), func() {}
	}
	syscall.Madvise(data, syscall.MADV_HUGEPAGE) // a hint: without it, small pages
	words := unsafe.Slice((*uint32)(unsafe.Pointer(&data[0])), n)
	return words, func() { syscall.Munmap(data) }
}

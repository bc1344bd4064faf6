//go:build !(linux || darwin || freebsd)

package endgames

// mapFile reads path whole where memory maps are not used.
func mapFile(path string) ([]byte, func() error, error) { return readFile(path) }

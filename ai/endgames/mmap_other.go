package endgames

import "os"

// readFile reads path whole: the fallback where it cannot be mapped.
func readFile(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}

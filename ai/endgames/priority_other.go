//go:build !linux

package endgames

// lowerPriority does nothing here: only Linux sets a nice value per
// thread.
func lowerPriority(int) {}

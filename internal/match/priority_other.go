//go:build !linux

package match

// lowerPriority does nothing here: only Linux sets a nice value per
// thread.
func lowerPriority() {}

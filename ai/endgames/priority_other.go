//go:build !linux

package endgames

// onNiceThread runs work: only Linux sets a nice value per thread.
func onNiceThread(nice int, work func()) { work() }

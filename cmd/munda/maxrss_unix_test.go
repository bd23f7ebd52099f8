//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakKB is the peak resident memory of a finished process, in kilobytes
// (Linux counts in kilobytes, macOS in bytes).
func peakKB(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	if isDarwin {
		return int64(ru.Maxrss) / 1024, true
	}
	return int64(ru.Maxrss), true
}

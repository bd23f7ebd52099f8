//go:build unix

package main

import "syscall"

// makeFifo makes a named pipe, for the tests of inputs that are not files.
func makeFifo(path string) error { return syscall.Mkfifo(path, 0o644) }

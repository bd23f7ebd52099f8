//go:build !unix

package main

import "errors"

// makeFifo: no named pipes here; the tests that need one skip.
func makeFifo(string) error { return errors.ErrUnsupported }

package dsl

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// Bounds on what a pack may hold, so an untrusted pack cannot make munda
// read without end: syntax.MaxFileSize bounds each file.
const (
	MaxPackBytes = 16 << 20 // all the files of one pack together
	MaxPackFiles = 1000     // files of one pack
)

// ErrNotRegular is the error for an input that is not a regular file: a
// device such as /dev/zero, a pipe, a socket or a directory.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is the error for an input over its limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the file is larger than the limit of %d bytes", e.Limit)
}

// ReadLimited reads a regular file of fsys, and no more than limit bytes
// of it: every input munda reads (rule files, state files, test states)
// goes through it. It refuses anything but a regular file before reading
// a byte, and stops reading one byte past the limit.
func ReadLimited(fsys fs.FS, name string, limit int64) ([]byte, error) {
	// Opening a named pipe blocks until something writes to it: look at
	// what the name is before opening it (and again after, through the
	// open file, in case it was replaced in between).
	// (A name that cannot be looked at is left to Open to say why.)
	if info, err := fs.Stat(fsys, name); err == nil && !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	if info.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		// It grew while we read it.
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	return data, nil
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
)

var isDarwin = runtime.GOOS == "darwin"

// maxrssMain is the script command `memlimit MB PROGRAM ARGS...`: it runs
// the program with the same input and output, exits as it does, and
// reports on stderr `memlimit: PROGRAM used N MB, more than MB` (exit
// 98) when the program's peak resident memory passed MB megabytes.
// Hostile inputs that once ran munda to gigabytes (/dev/zero, strings
// that double) are held to it.
//
// It is a process of its own, started afresh, because a process's peak
// memory counts the memory of whatever forked it, until it execs: the test
// process, which holds every script's output, would be measured too.
// Measuring beats a limit on virtual memory, which Go's runtime reserves
// freely.
func maxrssMain() int {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: memlimit MB program [args...]")
		return 2
	}
	mb, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "memlimit:", err)
		return 2
	}
	ps := runChild("memlimit", os.Args[2:])
	if ps == nil {
		return 2
	}
	if kb, ok := peakKB(ps); ok && kb > int64(mb)*1024 {
		fmt.Fprintf(os.Stderr, "memlimit: %s used %d MB, more than %d MB\n", os.Args[2], kb/1024, mb)
		return 98
	}
	return ps.ExitCode()
}

// runChild runs a program with this process's input and output, and
// returns how it ended (nil, said on stderr, if it could not start).
func runChild(name string, args []string) *os.ProcessState {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, name+":", err)
	}
	return cmd.ProcessState
}

// exitcodeMain is the script command `exitcode N PROGRAM ARGS...`: it runs
// the program with the same input and output and succeeds only if it
// exits with N (testscript's `! exec` tells failure from success, not 1
// from 2: the exit codes are part of munda's interface).
func exitcodeMain() int {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: exitcode N program [args...]")
		return 2
	}
	want, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "exitcode:", err)
		return 2
	}
	ps := runChild("exitcode", os.Args[2:])
	if ps == nil {
		return 2
	}
	if got := ps.ExitCode(); got != want {
		fmt.Fprintf(os.Stderr, "exitcode: %s exited %d, want %d\n", os.Args[2], got, want)
		return 97
	}
	return 0
}

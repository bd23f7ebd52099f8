// Command munda checks, formats, runs and tests Necromunda rules kept as
// data. See the README for the verbs.
package main

import "os"

func main() { os.Exit(Main()) }

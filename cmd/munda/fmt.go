package main

import "github.com/spf13/cobra"

func newFmtCmd() *cobra.Command {
	return &cobra.Command{Use: "fmt", Short: "Format rule files"}
}

// Command deltaview runs SQL scripts against an in-memory deltaview
// database whose materialized views are maintained incrementally, or
// serves one to PostgreSQL clients.
//
//	deltaview run [--format table|csv|json] [--null STR] [FILE…]
//	deltaview serve [--listen 127.0.0.1:5433]
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	root := &cobra.Command{
		Use:           "deltaview",
		Short:         "Incremental view maintenance: SQL views kept up to date by their deltas",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(runCmd())
	root.AddCommand(serveCmd())
	root.AddCommand(benchCmd())
	if err := root.Execute(); err != nil {
		if _, ok := err.(exitError); !ok {
			fmt.Fprintln(os.Stderr, "deltaview:", err)
		}
		os.Exit(1)
	}
}

// exitError is an error already reported to the user.
type exitError struct{}

func (exitError) Error() string { return "failed" }

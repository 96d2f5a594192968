package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
)

func runCmd() *cobra.Command {
	var opts resultfmt.Options
	cmd := &cobra.Command{
		Use:   "run [FILE…]",
		Short: "Run SQL scripts (standard input when no file is given), printing result sets and view deltas",
		Long: `Run executes SQL statements one at a time, as psql does with ON_ERROR_STOP:
it prints every result set, and after each commit that changes a view
someone SUBSCRIBEd to, that view's delta (columns ts, diff, then the view's).
It stops at the first error, printed on standard error, with exit status 1.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Format == "" {
				opts.Format = resultfmt.FormatCSV
				if term.IsTerminal(int(os.Stdout.Fd())) {
					opts.Format = resultfmt.FormatTable
				}
			}
			out := bufio.NewWriter(cmd.OutOrStdout())
			defer out.Flush()
			e := engine.New()
			e.SetProgress(newProgress(os.Stderr))
			e.SetFileOpener(openFile)
			return run(e, args, out, cmd.ErrOrStderr(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "", "output format: table, csv or json (default: table on a terminal, csv otherwise)")
	cmd.Flags().StringVar(&opts.Null, "null", "", "string printed for NULL")
	return cmd
}

// run executes each file (or standard input) in order on e.
func run(e *engine.Engine, files []string, out *bufio.Writer, errw io.Writer, opts resultfmt.Options) error {
	switch opts.Format {
	case resultfmt.FormatTable, resultfmt.FormatCSV, resultfmt.FormatJSON:
	default:
		return fmt.Errorf("unknown format %q: use table, csv or json", opts.Format)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, f := range files {
		var text []byte
		var err error
		if f == "-" {
			text, err = io.ReadAll(os.Stdin)
		} else {
			text, err = os.ReadFile(f)
		}
		if err != nil {
			return err
		}
		err = e.ExecScript(string(text), func(r engine.Result) error {
			for _, n := range r.Notices {
				out.Flush()
				fmt.Fprintf(errw, "NOTICE:  %s\n", n)
			}
			if !r.HasRows {
				return nil
			}
			set := &resultfmt.Set{Rows: r.Rows}
			for _, c := range r.Columns {
				set.Columns = append(set.Columns, resultfmt.Column{Name: c.Name, Type: c.Type})
			}
			return resultfmt.Write(out, set, opts)
		})
		if err != nil {
			out.Flush()
			var se *engine.ScriptError
			if errors.As(err, &se) {
				fmt.Fprint(errw, pgerr.Format(se.Err, se.SQL))
				return exitError{}
			}
			return err
		}
	}
	return nil
}

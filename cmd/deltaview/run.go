package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/deltaview/deltaview"
	_ "github.com/deltaview/deltaview/sink/postgres"   // CREATE SERVER … FOREIGN DATA WRAPPER postgres
	_ "github.com/deltaview/deltaview/sink/sqlite"     // … FOREIGN DATA WRAPPER sqlite
	_ "github.com/deltaview/deltaview/source/postgres" // CREATE SUBSCRIPTION
)

func runCmd() *cobra.Command {
	var opts deltaview.PrintOptions
	var dbFile string
	cmd := &cobra.Command{
		Use:   "run [FILE…]",
		Short: "Run SQL scripts (standard input when no file is given), printing result sets and view deltas",
		Long: `Run executes SQL statements one at a time, as psql does with ON_ERROR_STOP:
it prints every result set, and after each commit that changes a view
someone SUBSCRIBEd to, that view's delta (columns ts, diff, then the view's).
It stops at the first error, printed on standard error, with exit status 1.
All files run in one session: a transaction may span files.
With --db FILE the database is kept in that SQLite file: created when
missing, loaded (views rebuilt) when it exists, every commit written to it
before the next statement runs.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Format == "" {
				opts.Format = "csv"
				if term.IsTerminal(int(os.Stdout.Fd())) {
					opts.Format = "table"
				}
			}
			out := bufio.NewWriter(cmd.OutOrStdout())
			defer out.Flush()
			o := deltaview.Options{Progress: newProgress(os.Stderr), OpenFile: openFile, CreateFile: createFile}
			db := deltaview.OpenWith(o)
			if dbFile != "" {
				var err error
				if db, err = deltaview.OpenFileWith(dbFile, o); err != nil {
					fmt.Fprint(cmd.ErrOrStderr(), deltaview.FormatError(err))
					return exitError{}
				}
			}
			defer db.Close()
			return run(db, args, out, cmd.ErrOrStderr(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "", "output format: table, csv or json (default: table on a terminal, csv otherwise)")
	cmd.Flags().StringVar(&opts.Null, "null", "", "string printed for NULL")
	cmd.Flags().StringVar(&dbFile, "db", "", "keep the database in this SQLite file (in memory when empty)")
	return cmd
}

// run executes each file (or standard input) in order, in one session of
// db: a transaction may span files.
func run(db *deltaview.DB, files []string, out *bufio.Writer, errw io.Writer, opts deltaview.PrintOptions) error {
	switch opts.Format {
	case "table", "csv", "json":
	default:
		return fmt.Errorf("unknown format %q: use table, csv or json", opts.Format)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	sess := db.Session()
	defer sess.Close()
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
		err = sess.Run(string(text), func(r *deltaview.Result) error {
			for i, n := range r.Notices {
				out.Flush()
				fmt.Fprintf(errw, "%s:  %s\n", r.NoticeSeverity(i), n)
			}
			return r.Print(out, opts)
		})
		if err != nil {
			out.Flush()
			var se *deltaview.ScriptError
			if errors.As(err, &se) {
				fmt.Fprint(errw, deltaview.FormatError(err))
				return exitError{}
			}
			return err
		}
	}
	return nil
}

package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// StatsExprAfterAlter is the text of a statistics object's expression
// (as CreateStatistics.Exprs keeps it) after an ALTER TABLE of its table
// renamed the columns in renamed (old name → new); reads reports whether
// it reads a column in gone, with which PostgreSQL drops the object.
func StatsExprAfterAlter(text string, renamed map[string]string, gone map[string]bool) (out string, reads bool, err error) {
	n, err := parseExprText(text)
	if err != nil {
		return "", false, pgerr.New(pgerr.Internal, "cannot read a statistics expression: %q", text)
	}
	walkNodes(n.ProtoReflect(), func(x *pg_query.Node) {
		cr := x.GetColumnRef()
		if cr == nil || len(cr.Fields) == 0 {
			return
		}
		last := cr.Fields[len(cr.Fields)-1].GetString_()
		if last == nil {
			return
		}
		if gone[last.Sval] {
			reads = true
		}
		if to, ok := renamed[last.Sval]; ok {
			last.Sval = to
		}
	})
	if reads {
		return "", true, nil
	}
	if out, err = deparseExpr(n); err != nil {
		return "", false, pgerr.New(pgerr.Internal, "cannot write a statistics expression: %v", err)
	}
	return out, false, nil
}

// StatsExprColumns are the names of the columns a statistics object's
// expression reads.
func StatsExprColumns(text string) []string {
	n, err := parseExprText(text)
	if err != nil {
		return nil
	}
	var out []string
	walkNodes(n.ProtoReflect(), func(x *pg_query.Node) {
		if cr := x.GetColumnRef(); cr != nil && len(cr.Fields) > 0 {
			if last := cr.Fields[len(cr.Fields)-1].GetString_(); last != nil {
				out = append(out, last.Sval)
			}
		}
	})
	return out
}

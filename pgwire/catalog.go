package pgwire

import (
	"regexp"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// There is no pg_catalog yet. psql's lists of relations (\d, \dt, \dv,
// \dm, with or without a pattern) are one query whose shape has been
// stable for many releases: it is recognised and answered from the
// engine's catalog. Any other catalog query fails as before.
var (
	psqlRelList = regexp.MustCompile(`(?s)^SELECT n\.nspname as "Schema",\s+c\.relname as "Name",\s+CASE c\.relkind .*? END as "Type",\s+pg_catalog\.pg_get_userbyid\(c\.relowner\) as "Owner"\s+FROM pg_catalog\.pg_class c\s.*\bWHERE c\.relkind IN \(([^)]*)\)(.*)ORDER BY 1,2;?\s*$`)
	psqlRelName = regexp.MustCompile(`c\.relname OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)'`)
	psqlNspName = regexp.MustCompile(`n\.nspname OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)'`)
)

var relKindNames = map[byte]string{engine.RelTable: "table", engine.RelView: "view", engine.RelMatView: "materialized view"}

// psqlRelations answers psql's list of relations q, if q is one.
func (c *conn) psqlRelations(q string) (engine.Result, bool, error) {
	m := psqlRelList.FindStringSubmatch(q)
	if m == nil {
		return engine.Result{}, false, nil
	}
	kinds := map[byte]bool{}
	for _, k := range strings.Split(m[1], ",") {
		if k = strings.Trim(strings.TrimSpace(k), "'"); len(k) == 1 {
			kinds[k[0]] = true
		}
	}
	var name *regexp.Regexp
	if nm := psqlRelName.FindStringSubmatch(m[2]); nm != nil {
		re, err := regexp.Compile(strings.ReplaceAll(nm[1], "''", "'"))
		if err != nil {
			return engine.Result{}, true, pgerr.New(pgerr.InvalidParameter, "invalid regular expression: %v", err)
		}
		name = re
	}
	if nm := psqlNspName.FindStringSubmatch(m[2]); nm != nil {
		if re, err := regexp.Compile(strings.ReplaceAll(nm[1], "''", "'")); err != nil || !re.MatchString("public") {
			kinds = nil // a schema other than public: nothing
		}
	}
	text := value.TextType
	res := engine.Result{Columns: []plan.Column{{Name: "Schema", Type: text}, {Name: "Name", Type: text},
		{Name: "Type", Type: text}, {Name: "Owner", Type: text}}, HasRows: true}
	for _, r := range c.sess.Relations() {
		if !kinds[r.Kind] || (name != nil && !name.MatchString(r.Name)) {
			continue
		}
		res.Rows = append(res.Rows, value.Row{value.NewText(value.Text, "public"), value.NewText(value.Text, r.Name),
			value.NewText(value.Text, relKindNames[r.Kind]), value.NewText(value.Text, User)})
	}
	return res, true, nil
}

package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindVariableSet binds SET [SESSION | LOCAL] name = value, SET name TO
// DEFAULT, RESET name, RESET ALL, SET TRANSACTION … and SET SESSION
// CHARACTERISTICS AS TRANSACTION …. The engine knows which names it
// accepts. Several values make a list, each quoted as an identifier
// where it needs it, as PostgreSQL writes search_path.
func (b *binder) bindVariableSet(vs *pg_query.VariableSetStmt) (Bound, error) {
	s := &Set{Name: strings.ToLower(vs.Name), Local: vs.IsLocal}
	switch vs.Kind {
	case pg_query.VariableSetKind_VAR_SET_VALUE:
		var vals []string
		for _, a := range vs.Args {
			v, err := b.setValue(vs.Name, a)
			if err != nil {
				return nil, err
			}
			if s.Name == "search_path" && a.GetAConst().GetSval() != nil {
				v = expr.QuoteIdent(v)
			}
			vals = append(vals, v)
		}
		if len(vals) == 1 {
			s.Value = vals[0]
		} else {
			if s.Name != "search_path" {
				return nil, pgerr.New(pgerr.InvalidParameter, "SET %s takes only one argument", vs.Name)
			}
			s.Value = strings.Join(vals, ", ")
		}
	case pg_query.VariableSetKind_VAR_SET_DEFAULT:
		s.Default = true
	case pg_query.VariableSetKind_VAR_RESET:
		s.Default, s.Reset = true, true
	case pg_query.VariableSetKind_VAR_RESET_ALL:
		s.Default, s.Reset, s.All = true, true, true
	case pg_query.VariableSetKind_VAR_SET_MULTI:
		s.Local = vs.Name == "TRANSACTION"
		for _, a := range vs.Args {
			d := a.GetDefElem()
			if d == nil {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "this form of SET is not supported")
			}
			v, err := b.setValue(d.Defname, d.Arg)
			if err != nil {
				return nil, err
			}
			name := d.Defname
			if !s.Local {
				name = "default_" + name
			}
			s.Multi = append(s.Multi, Set{Name: name, Value: v})
		}
		s.Name = strings.ToLower(vs.Name)
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "this form of SET is not supported")
	}
	return s, nil
}

// setValue is one value of SET: a constant, or, for SET TIME ZONE, an
// interval.
func (b *binder) setValue(name string, a *pg_query.Node) (string, error) {
	if tc := a.GetTypeCast(); tc != nil && strings.EqualFold(name, "timezone") && tc.Arg.GetAConst().GetSval() != nil {
		names := tc.TypeName.GetNames()
		if len(names) > 0 && names[len(names)-1].GetString_().GetSval() == "interval" {
			iv, err := value.Parse(tc.Arg.GetAConst().GetSval().Sval, value.IntervalType)
			if err != nil {
				return "", err
			}
			s := iv.Span()
			if s.Months != 0 || s.Days != 0 {
				return "", pgerr.New(pgerr.InvalidParameter, "invalid interval value for time zone: day not allowed")
			}
			return strconv.FormatFloat(float64(s.Micros)/3.6e9, 'g', -1, 64), nil
		}
	}
	ac := a.GetAConst()
	switch {
	case ac == nil:
		return "", pgerr.New(pgerr.InvalidParameter, "SET %s: the value must be a constant", name)
	case ac.GetSval() != nil:
		return ac.GetSval().Sval, nil
	case ac.GetIval() != nil:
		return strconv.FormatInt(int64(ac.GetIval().Ival), 10), nil
	case ac.GetFval() != nil:
		return ac.GetFval().Fval, nil
	case ac.GetBoolval() != nil:
		return strconv.FormatBool(ac.GetBoolval().Boolval), nil
	}
	return "", pgerr.New(pgerr.InvalidParameter, "SET %s: the value must be a constant", name)
}

package sql

// cstring in a routine's signature, which PostgreSQL's SQL and PL/pgSQL
// validators refuse: only the types' input and output functions, written
// in C, take or return it.

import (
	"github.com/deltaview/deltaview/internal/pgerr"
)

// cstringResult refuses RETURNS cstring: 42P13 for a SQL function, 0A000
// for a PL/pgSQL one, as PostgreSQL's validators do.
func cstringResult(f *Function) error {
	if f.Language == LangPLpgSQL {
		return pgerr.New(pgerr.FeatureNotSupported, "PL/pgSQL functions cannot return type cstring")
	}
	return pgerr.New(CodeInvalidFunctionDef, "SQL functions cannot return type cstring")
}

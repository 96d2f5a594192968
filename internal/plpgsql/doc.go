// Package plpgsql runs PL/pgSQL: DO blocks and the bodies of functions
// declared LANGUAGE plpgsql, statement by statement, as PostgreSQL's
// interpreter does.
//
// PostgreSQL's own grammar (pg_query's PL/pgSQL parser) reads a body into
// a tree (Compile); the interpreter (Func.Call) walks it. Every
// expression and SQL statement of the body is SQL that the engine runs
// through a Runtime, with the variables it names replaced by parameters
// $1…$n of their types: the engine binds each once per text and types, as
// PostgreSQL plans each once, and runs it with the variables' values.
//
//	body := `DECLARE n int := 0; BEGIN
//	  FOR i IN 1..3 LOOP n := n + i; END LOOP;
//	  RAISE NOTICE 'sum %', n; END`
//	f, _ := plpgsql.Compile("DO $$"+body+"$$", body, plpgsql.Signature{})
//	_, _, err := f.Call(rt, nil) // rt is told the notice "sum 6"
package plpgsql

# psycopg 3's type introspection against deltaview serve: TypeInfo,
# EnumInfo and CompositeInfo fetch a type by name ($1::regtype), and the
# enum and composite registered read values of their types. Prints what it
# read; the Go test compares it with what PostgreSQL's server makes it print.
import sys

import psycopg
from psycopg.types import TypeInfo
from psycopg.types.composite import CompositeInfo, register_composite
from psycopg.types.enum import EnumInfo, register_enum

conn = psycopg.connect(sys.argv[1], autocommit=True)
conn.execute("CREATE TYPE ti_e AS ENUM ('a', 'b')")
conn.execute("CREATE TYPE ti_c AS (x int, y text)")
for name in ["int4", "ti_c[]", "nosuch"]:
    info = TypeInfo.fetch(conn, name)
    print("type", name, info and (info.name, info.array_oid != 0))
enum = EnumInfo.fetch(conn, "ti_e")
print("enum", enum.name, enum.labels)
comp = CompositeInfo.fetch(conn, "ti_c")
print("composite", comp.name, comp.field_names, len(comp.field_types))
register_enum(enum, conn)
register_composite(comp, conn)
print(conn.execute("SELECT 'b'::ti_e, ARRAY['a', 'b']::ti_e[], ROW(1, 'a')::ti_c").fetchone())

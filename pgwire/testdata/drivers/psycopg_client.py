# A psycopg client of deltaview serve: connects (psycopg introspects
# nothing it is not asked to), writes with parameters, reads through both
# protocols and a server-side cursor, and follows a view through
# DECLARE … CURSOR FOR SUBSCRIBE. Prints what it read; the Go test
# compares it.
import sys
import datetime
import decimal

import psycopg

conninfo = sys.argv[1]
with psycopg.connect(conninfo, autocommit=True) as conn:
    print("server", conn.info.server_version // 10000, conn.info.parameter_status("server_version"))
    conn.execute("CREATE TABLE t (id int PRIMARY KEY, s text, n numeric(10,2), d date, b bool)")
    conn.execute("CREATE MATERIALIZED VIEW v AS SELECT id, s FROM t WHERE b")
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO t VALUES (%s, %s, %s, %s, %s)", [
            (1, "ann", decimal.Decimal("1.50"), datetime.date(2024, 2, 29), True),
            (2, None, None, None, False),
        ])
        for prepare in (False, True):
            cur.execute("SELECT id, s, n, d, b FROM t WHERE id >= %s ORDER BY id", (1,), prepare=prepare)
            print("rows", cur.fetchall())
        cur.execute("SELECT count(*) FROM v")
        print("count", cur.fetchone())
    try:
        conn.execute("SELECT * FROM nosuch")
    except psycopg.errors.UndefinedTable as e:
        print("error", e.sqlstate)

# A transaction (psycopg opens one at the first statement), a server-side
# cursor over a query, and one over a view's changes.
with psycopg.connect(conninfo) as conn:
    with conn.cursor(name="q") as cur:
        cur.execute("SELECT id FROM t ORDER BY id")
        print("named", cur.fetchall())
    conn.execute("DECLARE c CURSOR FOR SUBSCRIBE v WITH (snapshot = true)")
    rows = conn.execute("FETCH ALL c").fetchall()
    print("snapshot", [r[1:] for r in rows])
    with psycopg.connect(conninfo, autocommit=True) as w:
        w.execute("UPDATE t SET b = true WHERE id = 2")
    rows = conn.execute("FETCH ALL c WITH (timeout = '5s')").fetchall()
    print("change", [r[1:] for r in rows], rows[0][0] > 0)
    conn.execute("CLOSE c")
    conn.rollback()
print("ok")

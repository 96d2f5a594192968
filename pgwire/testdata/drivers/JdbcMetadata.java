// A JDBC client of deltaview serve that reads what the driver learns from
// the server beyond the rows: ResultSetMetaData, which reads the table and
// column each field is taken from (RowDescription's table oid and column
// number), CallableStatement's {? = call f(?)} and CALL with an INOUT
// parameter, DatabaseMetaData's routine listings and getIndexInfo.
// Prints what it read; the Go test compares it with what PostgreSQL's
// server makes it print.
import java.sql.*;

public class JdbcMetadata {
    interface Step { void run() throws Exception; }

    static void step(String label, Step s) {
        try {
            s.run();
        } catch (SQLException e) {
            System.out.println(label + " error " + e.getSQLState());
        } catch (Exception e) {
            System.out.println(label + " error " + e);
        }
    }

    // rows prints the named columns of each row of r.
    static void rows(String label, ResultSet r, String... cols) throws SQLException {
        while (r.next()) {
            StringBuilder b = new StringBuilder(label);
            for (String c : cols) b.append(' ').append(r.getString(c));
            System.out.println(b);
        }
        r.close();
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "deltaview", "")) {
            Statement s = c.createStatement();
            s.execute("CREATE TABLE jm (a serial PRIMARY KEY, b text NOT NULL, c numeric)");
            s.execute("CREATE VIEW jmv AS SELECT a, b FROM jm");
            s.execute("CREATE FUNCTION jmf(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1'");
            s.execute("CREATE PROCEDURE jmp(x int, INOUT y int) LANGUAGE plpgsql AS 'BEGIN y := x * 2; END'");
            s.execute("INSERT INTO jm (b, c) VALUES ('x', 1)");
            for (String q : new String[] {"SELECT a, b AS bee, c, a + 1 AS e FROM jm", "SELECT * FROM jmv",
                    "SELECT s.b FROM (SELECT b FROM jm) s"}) {
                step("meta", () -> {
                    try (PreparedStatement p = c.prepareStatement(q); ResultSet r = p.executeQuery()) {
                        ResultSetMetaData m = r.getMetaData();
                        for (int i = 1; i <= m.getColumnCount(); i++)
                            System.out.println("meta " + m.getColumnLabel(i) + " name=" + m.getColumnName(i)
                                + " table=" + m.getTableName(i) + " auto=" + m.isAutoIncrement(i)
                                + " nullable=" + m.isNullable(i));
                    }
                });
            }
            step("call", () -> {
                CallableStatement cs = c.prepareCall("{? = call jmf(?)}");
                cs.registerOutParameter(1, Types.INTEGER);
                cs.setInt(2, 41);
                cs.execute();
                System.out.println("call jmf " + cs.getInt(1));
            });
            step("call", () -> {
                CallableStatement cs = c.prepareCall("{? = call upper(?)}");
                cs.registerOutParameter(1, Types.VARCHAR);
                cs.setString(2, "abc");
                cs.execute();
                System.out.println("call upper " + cs.getString(1));
            });
            step("call", () -> {
                CallableStatement cs = c.prepareCall("CALL jmp(?, ?)");
                cs.setInt(1, 6);
                cs.setNull(2, Types.INTEGER);
                cs.registerOutParameter(2, Types.INTEGER);
                cs.execute();
                System.out.println("call jmp " + cs.getInt(2));
            });
            DatabaseMetaData md = c.getMetaData();
            step("procedures", () -> rows("procedures", md.getProcedures(null, "public", "jm%"), "PROCEDURE_NAME", "PROCEDURE_TYPE"));
            step("functions", () -> rows("functions", md.getFunctions(null, "public", "jm%"), "FUNCTION_NAME", "FUNCTION_TYPE"));
            step("columns", () -> rows("columns", md.getFunctionColumns(null, "public", "jm%", "%"), "FUNCTION_NAME", "COLUMN_NAME", "COLUMN_TYPE", "TYPE_NAME", "ORDINAL_POSITION"));
            step("privileges", () -> rows("privileges", md.getTablePrivileges(null, "public", "jm"), "TABLE_NAME", "GRANTEE", "PRIVILEGE", "IS_GRANTABLE"));
            step("schemas", () -> rows("schemas", md.getSchemas(null, "p%"), "TABLE_SCHEM"));
            step("remarks", () -> rows("remarks", md.getFunctions(null, "pg_catalog", "upper"), "SPECIFIC_NAME", "REMARKS"));
            // An index's CARDINALITY once ANALYZE has counted the rows
            // (PAGES, the pages PostgreSQL's storage takes, is left out).
            s.execute("ANALYZE jm");
            step("index", () -> rows("index", md.getIndexInfo(null, "public", "jm", false, false), "INDEX_NAME", "NON_UNIQUE", "COLUMN_NAME", "CARDINALITY"));
        }
    }
}

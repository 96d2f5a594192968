// A JDBC client of deltaview serve: connects with the PostgreSQL JDBC
// driver, writes with a prepared statement, reads back through its
// metadata and result sets, and follows a view through DECLARE … CURSOR
// FOR SUBSCRIBE. Prints what it read; the Go test compares it.
import java.sql.*;

public class JdbcClient {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "deltaview", "")) {
            DatabaseMetaData md = c.getMetaData();
            System.out.println("server " + md.getDatabaseProductName() + " " + md.getDatabaseMajorVersion());
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id int PRIMARY KEY, s text, n numeric(10,2))");
                s.execute("CREATE MATERIALIZED VIEW v AS SELECT id, s FROM t");
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                for (int i = 1; i <= 6; i++) { // the sixth run is server-prepared
                    p.setInt(1, i);
                    p.setString(2, i % 2 == 0 ? null : "r" + i);
                    p.setBigDecimal(3, new java.math.BigDecimal(i + ".25"));
                    p.executeUpdate();
                }
            }
            try (PreparedStatement p = c.prepareStatement("SELECT id, s, n FROM t WHERE id <= ? ORDER BY id")) {
                p.setInt(1, 2);
                try (ResultSet rs = p.executeQuery()) {
                    ResultSetMetaData rm = rs.getMetaData();
                    System.out.println("columns " + rm.getColumnName(1) + ":" + rm.getColumnTypeName(1) + " "
                        + rm.getColumnName(2) + ":" + rm.getColumnTypeName(2) + " " + rm.getColumnName(3) + ":" + rm.getColumnTypeName(3));
                    while (rs.next()) {
                        System.out.println("row " + rs.getInt(1) + " " + rs.getString(2) + " " + rs.getBigDecimal(3));
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT * FROM nosuch");
            } catch (SQLException e) {
                System.out.println("error " + e.getSQLState());
            }
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("DECLARE c CURSOR FOR SUBSCRIBE v WITH (snapshot = true)");
                int n = 0;
                try (ResultSet rs = s.executeQuery("FETCH ALL c")) {
                    while (rs.next()) n++;
                }
                System.out.println("snapshot " + n);
                try (Connection w = DriverManager.getConnection(args[0], "deltaview", "");
                     Statement ws = w.createStatement()) {
                    ws.execute("DELETE FROM t WHERE id = 1");
                }
                try (ResultSet rs = s.executeQuery("FETCH ALL c WITH (timeout = '5s')")) {
                    while (rs.next()) {
                        System.out.println("change " + rs.getLong("diff") + " " + rs.getInt("id") + " " + rs.getString("s"));
                    }
                }
            }
            c.rollback();
        }
        System.out.println("ok");
    }
}

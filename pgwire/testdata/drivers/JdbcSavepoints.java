// A JDBC client of deltaview serve that uses savepoints: the Savepoint
// API (setSavepoint, rollback to it, releaseSavepoint), and the driver's
// autosave=always, which sets a savepoint before each statement of a
// transaction and rolls back to it when the statement fails, so that the
// transaction goes on. Prints what it read; the Go test compares it.
import java.sql.*;

public class JdbcSavepoints {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "deltaview", "")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id int PRIMARY KEY, v int)");
                s.execute("CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n, sum(v) AS s FROM t");
            }
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                p.setInt(1, 1); p.setInt(2, 10); p.executeUpdate();
                Savepoint sp = c.setSavepoint("a");
                p.setInt(1, 2); p.setInt(2, 20); p.executeUpdate();
                try {
                    p.setInt(1, 1); p.setInt(2, 11); p.executeUpdate();
                } catch (SQLException e) {
                    System.out.println("error " + e.getSQLState());
                }
                c.rollback(sp);
                p.setInt(1, 3); p.setInt(2, 30); p.executeUpdate();
                Savepoint anon = c.setSavepoint();
                p.setInt(1, 4); p.setInt(2, 40); p.executeUpdate();
                c.releaseSavepoint(anon);
            }
            c.commit();
            print(c, "api");
        }
        try (Connection c = DriverManager.getConnection(args[0] + "&autosave=always", "deltaview", "")) {
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (int id : new int[] {5, 1, 6, 3, 7}) {
                    p.setInt(1, id); p.setInt(2, id * 10);
                    try {
                        p.executeUpdate();
                    } catch (SQLException e) {
                        System.out.println("error " + e.getSQLState() + " on " + id);
                    }
                }
            }
            c.commit();
            print(c, "autosave");
        }
        System.out.println("ok");
    }

    static void print(Connection c, String what) throws SQLException {
        StringBuilder ids = new StringBuilder();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
            while (rs.next()) ids.append(" ").append(rs.getInt(1));
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT n, s FROM total")) {
            rs.next();
            System.out.println(what + " rows" + ids + " view " + rs.getLong(1) + " " + rs.getLong(2));
        }
        c.commit();
    }
}

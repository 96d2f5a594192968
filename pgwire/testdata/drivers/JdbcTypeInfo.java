// A JDBC client of deltaview serve that prints the rows of
// DatabaseMetaData.getTypeInfo() for the built-in types of each kind and
// for a user's enum, composite type and domain, in the driver's order (by
// DATA_TYPE); the Go test compares them with what PostgreSQL's server
// makes it print.
import java.sql.*;
import java.util.*;

public class JdbcTypeInfo {
    public static void main(String[] args) throws Exception {
        Set<String> names = new HashSet<>(Arrays.asList("bool", "int2", "int4", "int8", "numeric", "float8", "text",
            "varchar", "bpchar", "name", "bytea", "date", "timestamptz", "interval", "uuid", "json", "jsonb", "_int4",
            "_text", "oid", "inet", "tsvector", "int4range", "jti_mood", "jti_pair", "jti_pos", "_jti_mood", "_jti_pair"));
        try (Connection c = DriverManager.getConnection(args[0], "deltaview", "")) {
            Statement s = c.createStatement();
            s.execute("CREATE TYPE jti_mood AS ENUM ('sad', 'ok')");
            s.execute("CREATE TYPE jti_pair AS (a int, b text)");
            s.execute("CREATE DOMAIN jti_pos AS int CHECK (VALUE > 0)");
            ResultSet r = c.getMetaData().getTypeInfo();
            ResultSetMetaData m = r.getMetaData();
            while (r.next()) {
                if (!names.contains(r.getString("TYPE_NAME"))) continue;
                StringBuilder b = new StringBuilder("type");
                for (int i = 1; i <= m.getColumnCount(); i++) b.append(' ').append(r.getString(i));
                System.out.println(b);
            }
        }
    }
}

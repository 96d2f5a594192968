package deltaview_test

import (
	"context"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// TestRuleNotify checks that a rule's NOTIFY action reaches a listener:
// once per statement on the table, with its payload, at commit.
func TestRuleNotify(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	lis, snd := db.Session(), db.Session()
	defer lis.Close()
	defer snd.Close()
	if err := snd.Exec(`CREATE TABLE nt (id int);
CREATE RULE nt_ins AS ON INSERT TO nt DO ALSO NOTIFY nt_changed, 'ins';
CREATE RULE nt_del AS ON DELETE TO nt DO INSTEAD NOTIFY nt_changed, 'del'`); err != nil {
		t.Fatal(err)
	}
	if err := lis.Exec(`LISTEN nt_changed`); err != nil {
		t.Fatal(err)
	}
	if err := snd.Exec(`INSERT INTO nt VALUES (1), (2); DELETE FROM nt`); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ins", "del"} {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		n, err := lis.WaitForNotification(c)
		cancel()
		if err != nil || n.Channel != "nt_changed" || n.Payload != want {
			t.Fatalf("got %+v, %v, want payload %q", n, err, want)
		}
	}
	rows, err := snd.Query(`SELECT count(*) FROM nt`)
	if err != nil || rows.Rows[0][0].Int() != 2 {
		t.Fatalf("rows left by DO INSTEAD NOTIFY: %v %v", rows, err)
	}
}

// TestRuleNotifyReopen checks that a rule with NOTIFY actions comes back
// from the file as it was made.
func TestRuleNotifyReopen(t *testing.T) {
	db := reopenedFileDB(t, "rulenotify11.db", `CREATE TABLE nt (id int);
CREATE RULE nt_x AS ON DELETE TO nt DO INSTEAD (NOTIFY "A b", 'it''s'; NOTIFY c)`)
	defer db.Close()
	rows, err := db.Query(`SELECT definition FROM pg_rules WHERE rulename = 'nt_x'`)
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE RULE nt_x AS\n    ON DELETE TO public.nt DO INSTEAD (\n NOTIFY \"A b\", 'it''s';\n\n NOTIFY c;\n);"
	if len(rows.Rows) != 1 || rows.Rows[0][0].String() != want {
		t.Fatalf("after reopening: got %v, want %q", rows.Rows, want)
	}
}

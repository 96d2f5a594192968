package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
)

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return resp.StatusCode
}

// TestCatalogAndExplain reads the endpoints the console lists the tables
// and views from, and draws a view's plan from.
func TestCatalogAndExplain(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE orders (id int PRIMARY KEY, cust text, amount int);
		INSERT INTO orders VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'ann', 5);
		CREATE MATERIALIZED VIEW totals AS SELECT cust, sum(amount) AS total FROM orders GROUP BY cust;
		CREATE VIEW big AS SELECT id FROM orders WHERE amount > 10;
		UPDATE orders SET amount = 6 WHERE id = 3`); err != nil {
		t.Fatal(err)
	}
	base := start(t, db, httpapi.Options{})
	var cat struct {
		Tables []map[string]any `json:"tables"`
		Views  []map[string]any `json:"views"`
	}
	if st := getJSON(t, base+"/v1/catalog", &cat); st != 200 {
		t.Fatalf("catalog: %d", st)
	}
	if len(cat.Tables) != 1 || cat.Tables[0]["name"] != "orders" || cat.Tables[0]["rows"] != 3.0 {
		t.Errorf("tables: %v", cat.Tables)
	}
	if len(cat.Views) != 2 || cat.Views[0]["name"] != "big" || cat.Views[0]["kind"] != "view" || cat.Views[0]["rows"] != nil {
		t.Fatalf("views: %v", cat.Views)
	}
	v := cat.Views[1]
	if v["name"] != "totals" || v["kind"] != "materialized view" || v["rows"] != 2.0 || v["steps"] != 1.0 ||
		v["refills"] != 0.0 || v["bytes"].(float64) <= 0 || v["cold_start_ms"] == nil ||
		v["definition"] != "SELECT cust, sum(amount) AS total FROM orders GROUP BY cust" {
		t.Errorf("totals: %v", v)
	}
	if cols := fmt.Sprint(v["columns"]); cols != "[map[name:cust type:text] map[name:total type:bigint]]" {
		t.Errorf("totals' columns: %s", cols)
	}

	var plan struct {
		Operators []struct {
			ID    int    `json:"id"`
			Kind  string `json:"kind"`
			State string `json:"state"`
			Bytes int64  `json:"bytes"`
		} `json:"operators"`
	}
	if st := getJSON(t, base+"/v1/views/totals/explain", &plan); st != 200 {
		t.Fatalf("explain: %d", st)
	}
	var kinds []string
	for _, op := range plan.Operators {
		kinds = append(kinds, op.Kind)
	}
	if !slices.Equal(kinds, []string{"Input", "GroupBy", "Integrate"}) || plan.Operators[1].State == "" || plan.Operators[1].Bytes <= 0 {
		t.Errorf("plan: %+v", plan)
	}
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	for _, name := range []string{"big", "nosuch"} {
		if st := getJSON(t, base+"/v1/views/"+name+"/explain", &e); st != 404 || e.Error.Code == "" {
			t.Errorf("explain %s: %d %+v", name, st, e)
		}
	}
}

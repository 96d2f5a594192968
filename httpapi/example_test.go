package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
)

// Example serves a database from an http.Server of the program's own,
// runs a script through /v1/sql and reads a view as CSV.
func Example() {
	db := deltaview.Open()
	api := httpapi.New(db, httpapi.Options{})
	defer api.Close()
	srv := httptest.NewServer(api)
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/v1/sql", "text/plain", strings.NewReader(`
		CREATE TABLE orders (id int PRIMARY KEY, cust text, amt int);
		INSERT INTO orders VALUES (1, 'ann', 10), (2, 'bob', 5), (3, 'ann', 7);
		CREATE MATERIALIZED VIEW totals AS SELECT cust, sum(amt) AS total FROM orders GROUP BY cust;
		SELECT * FROM totals ORDER BY cust`))
	if err != nil {
		panic(err)
	}
	io.Copy(os.Stdout, resp.Body)
	resp.Body.Close()

	resp, err = http.Get(srv.URL + "/v1/views/totals?format=csv")
	if err != nil {
		panic(err)
	}
	io.Copy(os.Stdout, resp.Body)
	resp.Body.Close()
	// Output:
	// {"results":[{"tag":"CREATE TABLE"},{"tag":"INSERT 0 3"},{"tag":"SELECT 2"},{"columns":[{"name":"cust","type":"text"},{"name":"total","type":"bigint"}],"rows":[["ann",17],["bob",5]],"tag":"SELECT 2"}]}
	// cust,total
	// ann,17
	// bob,5
}

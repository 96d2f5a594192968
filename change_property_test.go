package deltaview_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview"
)

// TestApplyRandomHistories is the typed API's end-to-end property: random
// transactions of customers → addresses changes, each change stated as
// one of the seven kinds with random truthful forgetting (an insertion as
// an upsert; an update as a partial update with unchanged columns unknown,
// or as an upsert; a deletion by key, true or safe; safe deletions of
// absent keys), several changes of one key in a transaction included, go
// through Tx.Apply into partially maintained views, normalised views and
// views over ordinary tables. After every transaction each view equals its
// query evaluated from scratch over the ordinary tables.
func TestApplyRandomHistories(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dbs := []*deltaview.DB{
			openChangeDB(rt, " WITH (change_stream = true)", ""),
			openChangeDB(rt, " WITH (change_stream = true)", " WITH (propagation = normalise)"),
			openChangeDB(rt, "", ""),
		}
		ordinary := dbs[2]
		cities := []string{"Essen", "Bonn", "Paris", "Lyon"}
		countries := []string{"DE", "FR"}
		names := []string{"Adam", "Bob", "Carl", "Dora"}
		type addr struct{ city, country string }
		type cust struct {
			name      string
			disc, aid int
		}
		addrs := map[int]addr{}
		custs := map[int]cust{}
		var first changeStep
		for aid := 1; aid <= 3; aid++ {
			a := addr{rapid.SampledFrom(cities).Draw(rt, "city"), rapid.SampledFrom(countries).Draw(rt, "country")}
			addrs[aid] = a
			first = append(first, struct {
				table string
				ev    deltaview.ChangeEvent
			}{"addresses", deltaview.Insert{Row: vals(aid, a.city, a.country)}})
		}
		apply := func(step changeStep) {
			for _, db := range dbs {
				applyStep(rt, db, step)
			}
		}
		apply(first)
		ntx := rapid.IntRange(1, 12).Draw(rt, "transactions")
		for tx := 0; tx < ntx; tx++ {
			var step changeStep
			add := func(table string, ev deltaview.ChangeEvent) {
				step = append(step, struct {
					table string
					ev    deltaview.ChangeEvent
				}{table, ev})
			}
			for range rapid.IntRange(1, 5).Draw(rt, "changes") {
				if rapid.IntRange(0, 3).Draw(rt, "dimension") == 0 {
					aid := rapid.IntRange(1, 3).Draw(rt, "aid")
					old := addrs[aid]
					n := addr{rapid.SampledFrom(cities).Draw(rt, "city"), old.country}
					if rapid.Bool().Draw(rt, "moves country") {
						n.country = rapid.SampledFrom(countries).Draw(rt, "country")
					}
					addrs[aid] = n
					switch rapid.IntRange(0, 2).Draw(rt, "form") {
					case 0:
						add("addresses", deltaview.Update{Old: vals(aid, old.city, old.country), New: vals(aid, n.city, n.country)})
					case 1:
						pu := deltaview.PartialUpdate{Row: vals(aid, n.city, n.country)}
						if n.country == old.country && rapid.Bool().Draw(rt, "forget country") {
							pu.Row[2], pu.Unknown = deltaview.Null, []string{"country"}
						}
						add("addresses", pu)
					default:
						add("addresses", deltaview.Upsert{Row: vals(aid, n.city, n.country)})
					}
					continue
				}
				cid := rapid.IntRange(1, 6).Draw(rt, "cid")
				old, exists := custs[cid]
				if !exists {
					if rapid.IntRange(0, 3).Draw(rt, "absent deletion") == 0 {
						add("customers", deltaview.SafePartialDelete{Key: vals(cid)})
						continue
					}
					n := cust{rapid.SampledFrom(names).Draw(rt, "name"), rapid.IntRange(0, 3).Draw(rt, "disc"), rapid.IntRange(1, 3).Draw(rt, "aid")}
					custs[cid] = n
					row := vals(cid, n.name, n.disc, n.aid)
					if rapid.Bool().Draw(rt, "as upsert") {
						add("customers", deltaview.Upsert{Row: row})
					} else {
						add("customers", deltaview.Insert{Row: row})
					}
					continue
				}
				oldRow := vals(cid, old.name, old.disc, old.aid)
				if rapid.IntRange(0, 2).Draw(rt, "delete") == 0 {
					delete(custs, cid)
					switch rapid.IntRange(0, 2).Draw(rt, "form") {
					case 0:
						add("customers", deltaview.Delete{Row: oldRow})
					case 1:
						add("customers", deltaview.TruePartialDelete{Key: vals(cid)})
					default:
						add("customers", deltaview.SafePartialDelete{Key: vals(cid)})
					}
					continue
				}
				n := old
				if rapid.Bool().Draw(rt, "renames") {
					n.name = rapid.SampledFrom(names).Draw(rt, "name")
				}
				if rapid.Bool().Draw(rt, "changes disc") {
					n.disc = rapid.IntRange(0, 3).Draw(rt, "disc")
				}
				if rapid.Bool().Draw(rt, "moves") {
					n.aid = rapid.IntRange(1, 3).Draw(rt, "aid")
				}
				custs[cid] = n
				row := vals(cid, n.name, n.disc, n.aid)
				switch rapid.IntRange(0, 2).Draw(rt, "form") {
				case 0:
					add("customers", deltaview.Update{Old: oldRow, New: row})
				case 1:
					pu := deltaview.PartialUpdate{Row: row}
					cols := []string{"", "name", "disc", "aid"}
					for i := 1; i < len(row); i++ {
						if row[i].String() == oldRow[i].String() && rapid.Bool().Draw(rt, "forget "+cols[i]) {
							pu.Row[i] = deltaview.Null
							pu.Unknown = append(pu.Unknown, cols[i])
						}
					}
					add("customers", pu)
				default:
					add("customers", deltaview.Upsert{Row: row})
				}
			}
			apply(step)
			for _, v := range changeViews {
				want := queryText(rt, ordinary, v.query)
				for i, db := range dbs {
					if got := viewRowsText(rt, db, v.name); got != want {
						rt.Fatalf("transaction %d, database %d, view %s:\n%s\nwant (from scratch)\n%s", tx+1, i, v.name, got, want)
					}
				}
			}
		}
		// The model agrees with the ordinary tables.
		want := make([]string, 0, len(custs))
		for _, cid := range slices.Sorted(maps.Keys(custs)) {
			c := custs[cid]
			want = append(want, fmt.Sprint(vals(cid, c.name, c.disc, c.aid)))
		}
		if got := queryText(rt, ordinary, "SELECT * FROM customers"); got != joinLines(want) {
			rt.Fatalf("customers:\n%s\nwant\n%s", got, joinLines(want))
		}
	})
}

func joinLines(lines []string) string {
	slices.Sort(lines)
	out := ""
	for i, l := range lines {
		if i > 0 {
			out += "\n"
		}
		out += l
	}
	return out
}

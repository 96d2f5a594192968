// Package tpch generates TPC-H data and holds the benchmark's 22 queries and
// refresh functions, for tests that maintain the queries as views and
// compare them with PostgreSQL.
//
// The generator follows the specification's tables, keys and value
// distributions (clause 4.2): fixed nations and regions, sparse order keys,
// customers whose key is a multiple of 3 without orders, four suppliers per
// part by the specification's formula, retail prices by formula, line
// dates, flags and statuses derived from the order date as specified. The
// text grammar is simplified to random words of the specification's
// vocabulary, with the phrases the queries look for ("special … requests",
// "Customer … Complaints") planted at the specified rates. Everything is a
// function of the scale factor and the seed.
package tpch

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Gen generates the tables and refresh functions of one database.
type Gen struct {
	SF   float64
	Seed uint64

	suppliers, parts, customers, orders int
}

// New returns a generator for scale factor sf (0.001 and up) and seed.
func New(sf float64, seed uint64) *Gen {
	scale := func(n float64) int { return max(1, int(math.Round(n*sf))) }
	return &Gen{
		SF: sf, Seed: seed,
		// At least 50 suppliers, two or so a nation, so that the queries
		// naming one nation have rows at the smallest scales.
		suppliers: max(scale(10000), 50),
		parts:     scale(200000),
		customers: scale(150000),
		orders:    scale(1500000),
	}
}

// Tables lists the tables in load order.
var Tables = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

// Schema creates the eight tables with their primary keys; the same text
// runs on PostgreSQL and deltaview.
const Schema = `CREATE TABLE region (r_regionkey int PRIMARY KEY, r_name char(25) NOT NULL, r_comment varchar(152));
CREATE TABLE nation (n_nationkey int PRIMARY KEY, n_name char(25) NOT NULL, n_regionkey int NOT NULL, n_comment varchar(152));
CREATE TABLE supplier (s_suppkey int PRIMARY KEY, s_name char(25) NOT NULL, s_address varchar(40) NOT NULL,
  s_nationkey int NOT NULL, s_phone char(15) NOT NULL, s_acctbal decimal(15,2) NOT NULL, s_comment varchar(101) NOT NULL);
CREATE TABLE customer (c_custkey int PRIMARY KEY, c_name varchar(25) NOT NULL, c_address varchar(40) NOT NULL,
  c_nationkey int NOT NULL, c_phone char(15) NOT NULL, c_acctbal decimal(15,2) NOT NULL, c_mktsegment char(10) NOT NULL,
  c_comment varchar(117) NOT NULL);
CREATE TABLE part (p_partkey int PRIMARY KEY, p_name varchar(55) NOT NULL, p_mfgr char(25) NOT NULL, p_brand char(10) NOT NULL,
  p_type varchar(25) NOT NULL, p_size int NOT NULL, p_container char(10) NOT NULL, p_retailprice decimal(15,2) NOT NULL,
  p_comment varchar(23) NOT NULL);
CREATE TABLE partsupp (ps_partkey int NOT NULL, ps_suppkey int NOT NULL, ps_availqty int NOT NULL,
  ps_supplycost decimal(15,2) NOT NULL, ps_comment varchar(199) NOT NULL, PRIMARY KEY (ps_partkey, ps_suppkey));
CREATE TABLE orders (o_orderkey int PRIMARY KEY, o_custkey int NOT NULL, o_orderstatus char(1) NOT NULL,
  o_totalprice decimal(15,2) NOT NULL, o_orderdate date NOT NULL, o_orderpriority char(15) NOT NULL, o_clerk char(15) NOT NULL,
  o_shippriority int NOT NULL, o_comment varchar(79) NOT NULL);
CREATE TABLE lineitem (l_orderkey int NOT NULL, l_partkey int NOT NULL, l_suppkey int NOT NULL, l_linenumber int NOT NULL,
  l_quantity decimal(15,2) NOT NULL, l_extendedprice decimal(15,2) NOT NULL, l_discount decimal(15,2) NOT NULL,
  l_tax decimal(15,2) NOT NULL, l_returnflag char(1) NOT NULL, l_linestatus char(1) NOT NULL, l_shipdate date NOT NULL,
  l_commitdate date NOT NULL, l_receiptdate date NOT NULL, l_shipinstruct char(25) NOT NULL, l_shipmode char(10) NOT NULL,
  l_comment varchar(44) NOT NULL, PRIMARY KEY (l_orderkey, l_linenumber));
`

// textCols marks, per table, the columns written as quoted literals in SQL.
var textCols = map[string]string{
	"orders":   "001011101",
	"lineitem": "0000000011111111",
}

var (
	regions = []string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}
	nations = []struct {
		name   string
		region int
	}{
		{"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1}, {"EGYPT", 4}, {"ETHIOPIA", 0},
		{"FRANCE", 3}, {"GERMANY", 3}, {"INDIA", 2}, {"INDONESIA", 2}, {"IRAN", 4}, {"IRAQ", 4},
		{"JAPAN", 2}, {"JORDAN", 4}, {"KENYA", 0}, {"MOROCCO", 0}, {"MOZAMBIQUE", 0}, {"PERU", 1},
		{"CHINA", 2}, {"ROMANIA", 3}, {"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3},
		{"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
	}
	colors = strings.Fields(`almond antique aquamarine azure beige bisque black blanched blue blush brown
		burlywood burnished chartreuse chiffon chocolate coral cornflower cornsilk cream cyan dark deep dim
		dodger drab firebrick floral forest frosted gainsboro ghost goldenrod green grey honeydew hot indian
		ivory khaki lace lavender lawn lemon light lime linen magenta maroon medium metallic midnight mint
		misty moccasin navajo navy olive orange orchid pale papaya peach peru pink plum powder puff purple
		red rose rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring steel tan
		thistle tomato turquoise violet wheat white yellow`)
	typeS1     = []string{"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"}
	typeS2     = []string{"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"}
	typeS3     = []string{"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"}
	contS1     = []string{"SM", "LG", "MED", "JUMBO", "WRAP"}
	contS2     = []string{"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"}
	segments   = []string{"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"}
	priorities = []string{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"}
	instructs  = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	modes      = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	// words is the text grammar's vocabulary: nouns, verbs, adjectives,
	// adverbs and prepositions of the specification (clause 4.2.2.10).
	words = strings.Fields(`foxes ideas theodolites pinto beans instructions dependencies excuses platelets
		asymptotes courts dolphins multipliers sauternes warthogs frets dinos attainments somas Tiresias
		patterns forges braids hockey players frays warhorses dugouts notornis epitaphs pearls tithes waters
		orbits gifts sheaves depths sentiments decoys realms pains grouches escapades accounts packages
		deposits requests sleep wake are cajole haggle nag use boost affix detect integrate maintain nod was
		lose sublate solve thrash promise engage hinder print x-ray breach eat grow impress mold poach serve
		run dazzle snooze doze unwind kindle play hang believe doubt furious sly careful blithe quick fluffy
		slow quiet ruthless thin close dogged daring brave stealthy permanent enticing idle busy regular
		final ironic even bold silent special pending unusual express sometimes always never furiously
		slyly carefully blithely quickly fluffily slowly quietly ruthlessly thinly closely doggedly daringly
		bravely stealthily permanently enticingly idly busily regularly finally ironically evenly boldly
		silently about above across after against along among around at atop before behind beneath beside
		between beyond by during except for from inside into near of on outside over past since through to
		toward under until upon without with within`)
)

var (
	startDate   = time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC)
	currentDate = time.Date(1995, 6, 17, 0, 0, 0, 0, time.UTC)
	// orderDays: order dates are uniform in [STARTDATE, ENDDATE - 151 days].
	orderDays = int(time.Date(1998, 12, 31, 0, 0, 0, 0, time.UTC).Sub(startDate).Hours()/24) - 151
)

func (g *Gen) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(g.Seed, stream))
}

// between returns a uniform integer in [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// text returns random words of the vocabulary, between lo and hi bytes.
func text(r *rand.Rand, lo, hi int) string {
	n := between(r, lo, hi)
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pick(r, words))
	}
	return strings.TrimSpace(b.String()[:n])
}

// vstring returns random alphanumeric characters, between lo and hi.
func vstring(r *rand.Rand, lo, hi int) string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,"
	b := make([]byte, between(r, lo, hi))
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}

func phone(r *rand.Rand, nation int) string {
	return fmt.Sprintf("%d-%03d-%03d-%04d", nation+10, between(r, 100, 999), between(r, 100, 999), between(r, 1000, 9999))
}

// money formats cents as a decimal with two places.
func money(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

func day(d time.Time) string { return d.Format("2006-01-02") }

// retailCents is P_RETAILPRICE by the specification's formula, in cents.
func retailCents(partkey int) int64 {
	return int64(90000 + (partkey/10)%20001 + 100*(partkey%1000))
}

// partSupp is the i-th (0..3) supplier of a part, by the specification's formula.
// At small scales the formula's step may be a multiple of the number of
// suppliers; the step then drops its second term, so the four differ.
func (g *Gen) partSupp(partkey, i int) int {
	s := g.suppliers
	step := s/4 + (partkey-1)/s
	if (step*2)%s == 0 || (step*3)%s == 0 || step%s == 0 {
		step = s / 4
	}
	return (partkey+i*step)%s + 1
}

// orderKey maps the n-th order (0-based) to its sparse key: the first 8
// of every 32 keys are used, the others are left for the refreshes.
func orderKey(n int) int { return (n/8)*32 + n%8 + 1 }

// WriteTable writes table's rows in COPY text format.
func (g *Gen) WriteTable(table string, w io.Writer) error {
	out := &rowWriter{w: w}
	switch table {
	case "region":
		r := g.rng(1)
		for i, n := range regions {
			out.row(strconv.Itoa(i), n, text(r, 31, 115))
		}
	case "nation":
		r := g.rng(2)
		for i, n := range nations {
			out.row(strconv.Itoa(i), n.name, strconv.Itoa(n.region), text(r, 31, 114))
		}
	case "supplier":
		g.suppliersRows(out)
	case "customer":
		r := g.rng(4)
		for k := 1; k <= g.customers; k++ {
			nat := r.IntN(25)
			out.row(strconv.Itoa(k), fmt.Sprintf("Customer#%09d", k), vstring(r, 10, 40), strconv.Itoa(nat),
				phone(r, nat), money(int64(between(r, -99999, 999999))), pick(r, segments), text(r, 29, 116))
		}
	case "part", "partsupp":
		r := g.rng(5)
		for k := 1; k <= g.parts; k++ {
			name := make([]string, 0, 5)
			for len(name) < 5 {
				c := pick(r, colors)
				if !slices.Contains(name, c) {
					name = append(name, c)
				}
			}
			m := between(r, 1, 5)
			part := []string{strconv.Itoa(k), strings.Join(name, " "), fmt.Sprintf("Manufacturer#%d", m),
				fmt.Sprintf("Brand#%d%d", m, between(r, 1, 5)), pick(r, typeS1) + " " + pick(r, typeS2) + " " + pick(r, typeS3),
				strconv.Itoa(between(r, 1, 50)), pick(r, contS1) + " " + pick(r, contS2), money(retailCents(k)), text(r, 5, 22)}
			if table == "part" {
				out.row(part...)
			}
			for i := range 4 {
				ps := []string{strconv.Itoa(k), strconv.Itoa(g.partSupp(k, i)), strconv.Itoa(between(r, 1, 9999)),
					money(int64(between(r, 100, 100000))), text(r, 49, 198)}
				if table == "partsupp" {
					out.row(ps...)
				}
			}
		}
	case "orders", "lineitem":
		r := g.rng(6)
		for n := range g.orders {
			o, lines := g.order(r, orderKey(n))
			if table == "orders" {
				out.row(o...)
			} else {
				for _, l := range lines {
					out.row(l...)
				}
			}
		}
	default:
		return fmt.Errorf("tpch: no table %q", table)
	}
	return out.err
}

func (g *Gen) suppliersRows(out *rowWriter) {
	r := g.rng(3)
	// SF × 5 suppliers each have complaints and recommendations in their
	// comment (at least one of each at any scale).
	special := max(1, int(math.Round(g.SF*5)))
	complaints, recommends := map[int]bool{}, map[int]bool{}
	for len(complaints) < special {
		complaints[between(r, 1, g.suppliers)] = true
	}
	for len(recommends) < special {
		k := between(r, 1, g.suppliers)
		if !complaints[k] {
			recommends[k] = true
		}
	}
	for k := 1; k <= g.suppliers; k++ {
		nat := r.IntN(25)
		comment := text(r, 25, 100)
		switch {
		case complaints[k]:
			comment = plant(r, comment, "Customer ", "Complaints", 101)
		case recommends[k]:
			comment = plant(r, comment, "Customer ", "Recommends", 101)
		}
		out.row(strconv.Itoa(k), fmt.Sprintf("Supplier#%09d", k), vstring(r, 10, 40), strconv.Itoa(nat),
			phone(r, nat), money(int64(between(r, -99999, 999999))), comment)
	}
}

// plant puts a, then b, at random places of s, keeping it within max bytes.
func plant(r *rand.Rand, s, a, b string, limit int) string {
	room := limit - len(a) - len(b) - 1
	if len(s) > room {
		s = s[:room]
	}
	i := r.IntN(len(s) + 1)
	j := i + r.IntN(len(s)-i+1)
	return s[:i] + a + s[i:j] + " " + b + s[j:]
}

// order generates an order with its lines.
func (g *Gen) order(r *rand.Rand, key int) ([]string, [][]string) {
	cust := between(r, 1, g.customers)
	for g.customers >= 3 && cust%3 == 0 {
		cust = between(r, 1, g.customers)
	}
	odate := startDate.AddDate(0, 0, r.IntN(orderDays+1))
	prio := pick(r, priorities)
	clerk := fmt.Sprintf("Clerk#%09d", between(r, 1, max(1, int(math.Round(g.SF*1000)))))
	comment := text(r, 19, 78)
	if r.IntN(100) == 0 {
		comment = plant(r, comment, "special ", "requests", 79)
	}
	nlines := between(r, 1, 7)
	var lines [][]string
	var total int64 // in units of 1/1,000,000 of a cent
	nf, no := 0, 0
	for ln := 1; ln <= nlines; ln++ {
		part := between(r, 1, g.parts)
		supp := g.partSupp(part, r.IntN(4))
		qty := between(r, 1, 50)
		price := int64(qty) * retailCents(part)
		disc := between(r, 0, 10)
		tax := between(r, 0, 8)
		ship := odate.AddDate(0, 0, between(r, 1, 121))
		commit := odate.AddDate(0, 0, between(r, 30, 90))
		receipt := ship.AddDate(0, 0, between(r, 1, 30))
		flag := "N"
		if !receipt.After(currentDate) {
			flag = pick(r, []string{"R", "A"})
		}
		status := "O"
		if !ship.After(currentDate) {
			status = "F"
			nf++
		} else {
			no++
		}
		total += price * int64(100+tax) * int64(100-disc)
		lines = append(lines, []string{strconv.Itoa(key), strconv.Itoa(part), strconv.Itoa(supp), strconv.Itoa(ln),
			strconv.Itoa(qty), money(price), money(int64(disc)), money(int64(tax)), flag, status, day(ship),
			day(commit), day(receipt), pick(r, instructs), pick(r, modes), text(r, 10, 43)})
	}
	status := "P"
	switch {
	case no == 0:
		status = "F"
	case nf == 0:
		status = "O"
	}
	o := []string{strconv.Itoa(key), strconv.Itoa(cust), status, money((total + 5000) / 10000), day(odate), prio, clerk, "0", comment}
	return o, lines
}

type rowWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (o *rowWriter) row(vals ...string) {
	if o.err != nil {
		return
	}
	o.buf = o.buf[:0]
	for i, v := range vals {
		if i > 0 {
			o.buf = append(o.buf, '\t')
		}
		o.buf = append(o.buf, v...)
	}
	o.buf = append(o.buf, '\n')
	_, o.err = o.w.Write(o.buf)
}

// sqlRow formats a row as a parenthesised list of SQL literals.
func sqlRow(b *strings.Builder, table string, vals []string) {
	kinds := textCols[table]
	b.WriteByte('(')
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		if kinds[i] == '1' {
			b.WriteByte('\'')
			b.WriteString(strings.ReplaceAll(v, "'", "''"))
			b.WriteByte('\'')
		} else {
			b.WriteString(v)
		}
	}
	b.WriteByte(')')
}

// RefreshSize is the number of orders each refresh function inserts or
// deletes: SF × 1500, at least 10.
func (g *Gen) RefreshSize() int { return max(10, int(math.Round(g.SF*1500))) }

// RF1 returns the statements of the n-th (0-based) new-sales refresh:
// RefreshSize new orders, with their lines, in keys the load left unused.
func (g *Gen) RF1(n int) []string {
	r := g.rng(1000 + uint64(n))
	var o, l strings.Builder
	o.WriteString("INSERT INTO orders VALUES ")
	l.WriteString("INSERT INTO lineitem VALUES ")
	for i := range g.RefreshSize() {
		m := n*g.RefreshSize() + i
		key := (m/24)*32 + 9 + m%24
		ord, lines := g.order(r, key)
		if i > 0 {
			o.WriteString(", ")
		}
		sqlRow(&o, "orders", ord)
		for j, ln := range lines {
			if i > 0 || j > 0 {
				l.WriteString(", ")
			}
			sqlRow(&l, "lineitem", ln)
		}
	}
	return []string{o.String(), l.String()}
}

// RF2 returns the statements of the n-th (0-based) old-sales refresh:
// RefreshSize orders of the load deleted with their lines, one key at a
// time.
func (g *Gen) RF2(n int) []string {
	var out []string
	for i := range g.RefreshSize() {
		key := orderKey((n*g.RefreshSize() + i) % g.orders)
		out = append(out, fmt.Sprintf("DELETE FROM lineitem WHERE l_orderkey = %d", key),
			fmt.Sprintf("DELETE FROM orders WHERE o_orderkey = %d", key))
	}
	return out
}

// Updates returns n random changes of the n-th update transaction:
// updates of prices, quantities, dates, balances, segments and supply
// costs, and deletes and inserts of single lines.
func (g *Gen) Updates(t, n int) []string {
	r := g.rng(2000 + uint64(t))
	var out []string
	for range n {
		switch r.IntN(9) {
		case 0:
			out = append(out, fmt.Sprintf("UPDATE lineitem SET l_quantity = %d, l_discount = %s WHERE l_orderkey = %d AND l_linenumber = 1",
				between(r, 1, 50), money(int64(between(r, 0, 10))), orderKey(r.IntN(g.orders))))
		case 1:
			out = append(out, fmt.Sprintf("UPDATE lineitem SET l_shipdate = l_shipdate + %d, l_receiptdate = l_receiptdate + %d WHERE l_orderkey = %d",
				between(r, -60, 60), between(r, -30, 30), orderKey(r.IntN(g.orders))))
		case 2:
			out = append(out, fmt.Sprintf("UPDATE orders SET o_orderdate = o_orderdate + %d, o_orderpriority = '%s' WHERE o_orderkey = %d",
				between(r, -200, 200), pick(r, priorities), orderKey(r.IntN(g.orders))))
		case 3:
			out = append(out, fmt.Sprintf("UPDATE customer SET c_acctbal = %s, c_mktsegment = '%s' WHERE c_custkey = %d",
				money(int64(between(r, -99999, 999999))), pick(r, segments), between(r, 1, g.customers)))
		case 4:
			out = append(out, fmt.Sprintf("UPDATE partsupp SET ps_supplycost = %s, ps_availqty = %d WHERE ps_partkey = %d",
				money(int64(between(r, 100, 100000))), between(r, 1, 9999), between(r, 1, g.parts)))
		case 5:
			out = append(out, fmt.Sprintf("UPDATE supplier SET s_acctbal = %s, s_nationkey = %d WHERE s_suppkey = %d",
				money(int64(between(r, -99999, 999999))), r.IntN(25), between(r, 1, g.suppliers)))
		case 6:
			out = append(out, fmt.Sprintf("UPDATE part SET p_size = %d, p_type = '%s %s %s', p_brand = 'Brand#%d%d' WHERE p_partkey = %d",
				between(r, 1, 50), pick(r, typeS1), pick(r, typeS2), pick(r, typeS3), between(r, 1, 5), between(r, 1, 5), between(r, 1, g.parts)))
		case 7:
			out = append(out, fmt.Sprintf("DELETE FROM lineitem WHERE l_orderkey = %d AND l_linenumber = 1", orderKey(r.IntN(g.orders))))
		case 8:
			out = append(out, fmt.Sprintf("UPDATE lineitem SET l_quantity = l_quantity + 100 WHERE l_orderkey = %d",
				orderKey(r.IntN(g.orders))))
		}
	}
	return out
}

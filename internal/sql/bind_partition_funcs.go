package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// partitionSRF binds pg_partition_tree(regclass) and
// pg_partition_ancestors(regclass) in FROM: the partitions below a
// partitioned table, and the tables above a partition, from the system
// catalog as the statement sees it (SysCatalog.PartitionParents). A
// relation that is neither partitioned nor a partition gives no rows, as
// in PostgreSQL. ok is false for other functions.
func (b *binder) partitionSRF(f *pg_query.FuncCall) (_ *expr.SRF, ok bool, _ error) {
	name := opName(f.Funcname)
	if name != "pg_partition_tree" && name != "pg_partition_ancestors" {
		return nil, false, nil
	}
	sc := b.sysCatalog()
	if sc == nil {
		return nil, false, nil
	}
	arg, err := b.catalogSRFArg(f, name)
	if err != nil {
		return nil, true, err
	}
	if arg.Type().Kind != value.RegClass {
		c := &pg_query.TypeCast{Arg: f.Args[0], Location: nodeLoc(f.Args[0], f.Location), TypeName: &pg_query.TypeName{Location: f.Location}}
		if arg, err = b.regCast(arg, value.RegClass, c); err != nil {
			return nil, true, err
		}
	}
	reg := func(oid uint32) value.Value { return value.NewReg(value.RegClass, oid, sc.Names[value.RegClass][oid]) }
	children := map[uint32][]uint32{}
	for kid, parent := range sc.PartitionParents {
		children[parent] = append(children[parent], kid)
	}
	for _, kids := range children {
		slices.Sort(kids) // by oid, as PostgreSQL lists them
	}
	partitioned := func(oid uint32) bool {
		_, isPart := sc.PartitionParents[oid]
		return isPart || sc.RelKinds[oid] == 'p'
	}
	if name == "pg_partition_ancestors" {
		gen := func(a []value.Value, emit func(value.Row) error) error {
			if a[0].IsNull() || !partitioned(a[0].OID()) {
				return nil
			}
			for oid, ok := a[0].OID(), true; ok; oid, ok = sc.PartitionParents[oid] {
				if err := emit(value.Row{reg(oid)}); err != nil {
					return err
				}
			}
			return nil
		}
		return &expr.SRF{Name: name, Args: []expr.Expr{arg}, Cols: []value.Type{regclassType}, Names: []string{"relid"}, Gen: gen}, true, nil
	}
	gen := func(a []value.Value, emit func(value.Row) error) error {
		if a[0].IsNull() || !partitioned(a[0].OID()) {
			return nil
		}
		type node struct {
			oid   uint32
			level int64
		}
		// Breadth first, as PostgreSQL's find_all_inheritors.
		for queue := []node{{a[0].OID(), 0}}; len(queue) > 0; queue = queue[1:] {
			n := queue[0]
			parent := value.Null
			if n.level > 0 || sc.PartitionParents[n.oid] != 0 {
				parent = reg(sc.PartitionParents[n.oid])
			}
			kids := children[n.oid]
			if err := emit(value.Row{reg(n.oid), parent, value.NewBool(sc.RelKinds[n.oid] != 'p'), value.NewInt(value.Int4, n.level)}); err != nil {
				return err
			}
			for _, k := range kids {
				queue = append(queue, node{k, n.level + 1})
			}
		}
		return nil
	}
	return &expr.SRF{Name: name, Args: []expr.Expr{arg}, Cols: []value.Type{regclassType, regclassType, value.BoolType, value.Int4Type},
		Names: []string{"relid", "parentrelid", "isleaf", "level"}, Gen: gen}, true, nil
}

var regclassType = value.Type{Kind: value.RegClass, Mod: -1}

// partitionRoot is pg_partition_root: the top of the partition tree rel
// is in, NULL for a relation that is neither partitioned nor a
// partition.
func partitionRoot(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
	oid := a[0].OID()
	if _, isPart := sc.PartitionParents[oid]; !isPart && sc.RelKinds[oid] != 'p' {
		return value.Null, nil
	}
	for {
		parent, ok := sc.PartitionParents[oid]
		if !ok {
			return value.NewReg(value.RegClass, oid, sc.Names[value.RegClass][oid]), nil
		}
		oid = parent
	}
}

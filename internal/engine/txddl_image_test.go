package engine

import (
	"reflect"
	"strings"
	"testing"
)

// imageOf maps each catalog field of the Engine to the catalogImage field
// that keeps it for the undo of a block's catalog change (txddl_image.go).
// Fields of embedded states are named as promoted, those of domains and
// shared as "domains.byName".
var imageOf = map[string]string{
	"rules": "rules", "tables": "tables", "seqs": "seqs", "views": "views",
	"named": "named", "viewSettings": "viewSettings", "unpopulated": "unpopulated",
	"viewStmts": "viewStmts", "stats": "stats", "evtTriggers": "evtTriggers", "funcs": "funcs",
	"funcDeps": "funcDeps", "routineText": "routineText", "aggs": "aggs", "opers": "opers",
	"triggers": "triggers", "rls": "rls", "comments": "comments", "owners": "owners", "typeOwners": "typeOwners",
	"domains.byName": "domainsBy", "domains.views": "domainViews",
	"userTypes": "userTypes", "composites": "composites", "restoreOIDs": "restoreOIDs",
	"typeUses": "typeUses", "nextOID": "nextOID", "exts": "exts", "casts": "casts",
	"inherits": "inherits", "inheritOnly": "inheritOnly", "inheritChecks": "inheritChks",
	"inheritChild": "inheritChild", "schemas": "schemas", "publicSchema": "public", "indexes": "indexes",
	"matIndexes": "matIndexes", "parts": "parts", "order": "order", "deps": "deps",
	"notes": "notes", "roles": "roles", "grants": "grants", "grantOrder": "grantOrder", "defACLs": "defACLs", "dbACL": "dbACL", "dbACLOrder": "dbACLOrder", "typeACLs": "typeACLs", "typeOptions": "typeOptions", "colGrants": "colGrants", "deferKeys": "deferKeys",
	"nextID": "nextID", "shared.m": "shared", "shared.list": "sharedList", "colls": "colls",
}

// notCatalog are the Engine's fields that no catalog change of a block
// changes, or that the block undoes another way, each with the reason.
var notCatalog = map[string]string{
	"fkeys":   "made again from the tables' definitions at restore (linkForeignKeys)",
	"replica": "set during one typed change", "viewCalls": "runtime of view functions",
	"snap": "the running statement's read point for functions, reset by each statement",
	"mu":   "lock", "halted": "engine state", "lookupMu": "lock", "slot": "writer slot",
	"advisory": "advisory locks, not the catalog", "pids": "counter", "notifyQ": "LISTEN/NOTIFY queue",
	"acts": "sessions' activity", "xids": "transaction ids", "seqStoreMu": "lock",
	"firer": "running statement", "polls": "counter", "stepping": "commit state",
	"xacts": "statistics", "temps": "temporary tables: their session undoes them (temp.go)",
	"tempSessions": "temporary tables' sessions", "tempPending": "temporary tables of open blocks, cleared by their session's block end (temp.go)", "within": "running statement",
	"inheritRecursing": "set while one ALTER TABLE runs", "inheritRenaming": "set while one rename runs",
	"tableAsProfile": "set while one EXPLAIN ANALYZE CREATE TABLE … AS runs",
	"tx":             "the transaction, whose log undoes rows", "txd": "the block itself", "gate": "the block itself",
	"ts": "logical time: no commit runs inside a block", "subs": "ended at the block's end (endBlock); the names of their views are kept (objectCats)",
	"notices": "a commit's notices", "noticeLevels": "a commit's notices", "noticeCodes": "a commit's notices", "noticeFields": "a commit's notices",
	"spare": "reused transaction", "deltas": "commit scratch", "touched": "commit scratch", "batch": "commit scratch",
	"read": "derived, cleared by restoreImage", "readGen": "derived", "scratch": "scratch", "castRow": "scratch",
	"rowsCast": "scratch", "eachRow": "test switch", "image": "scratch", "castFor": "derived, keyed by catalogGen",
	"stepped": "commit scratch", "events": "commit scratch", "stepIn": "commit scratch", "eventsKept": "commit scratch",
	"touched1": "commit scratch", "workers": "SET deltaview.* is not transactional", "parallelMin": "setting",
	"bigCommit": "commit state", "waves": "derived, cleared by restoreImage", "chunkRows": "setting",
	"chunk": "commit scratch", "trace": "tracing", "ph": "commit phases",
	"leaveBehind": "commit state", "refillNotice": "setting", "maxRecursion": "setting", "maxMemory": "setting",
	"overBudget": "derived from views' state", "copyLimits": "setting", "maxQueryMemory": "setting",
	"progress": "callback", "openFile": "callback", "createFile": "callback", "copyData": "running COPY", "copyEnc": "running COPY", "relay": "parallel scheduling",
	"copyClock": "running COPY", "with": "running statement", "sinks": "ended at the block's end (endBlock)",
	"catalogGen": "only grows: prepared statements bind again", "store": "the store, undone by its marks",
	"storeCommit": "commit scratch", "deadline": "running statement", "subsDriverMu": "lock",
	"subsDriver": "subscriptions are refused in a block", "closed": "engine state",
	"foreignDriver": "foreign tables are refused in a block", "now": "clock", "clockSource": "clock",
	"pinned": "clock", "pinnedAt": "clock", "clockMu": "clock", "clockWake": "clock", "onWake": "clock",
}

// derivedImage are catalogImage's fields that keep objects' contents
// rather than an Engine field.
var derivedImage = map[string]bool{
	"tableCats": true, "seqCats": true, "enums": true, "rlsCats": true,
	"schemaCats": true, "roleCats": true, "sharedCats": true, "objs": true,
	"recordNames": true, // names of composite types the value package interns
	"rangeNames":  true, // names of range types the value package interns
}

// expanded are the Engine's struct fields whose fields are named one by one.
var expanded = map[string]bool{"domains": true, "shared": true}

// TestCatalogImageCoversEngine guards the undo of catalog changes in a
// block: every field of the Engine is either kept by the catalog image or
// said not to be catalog, so that a catalog map added later without an
// undo fails here; and every field of the image stands for one.
func TestCatalogImageCoversEngine(t *testing.T) {
	var names []string
	et := reflect.TypeOf(Engine{})
	for i := 0; i < et.NumField(); i++ {
		f := et.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			for j := 0; j < f.Type.NumField(); j++ {
				names = append(names, f.Type.Field(j).Name)
			}
		case expanded[f.Name]:
			for j := 0; j < f.Type.NumField(); j++ {
				names = append(names, f.Name+"."+f.Type.Field(j).Name)
			}
		default:
			names = append(names, f.Name)
		}
	}
	it := reflect.TypeOf(catalogImage{})
	kept := map[string]bool{}
	for _, n := range names {
		im, inImage := imageOf[n]
		_, other := notCatalog[n]
		switch {
		case inImage && other:
			t.Errorf("Engine.%s is both in the catalog image and said not to be catalog", n)
		case !inImage && !other:
			t.Errorf("Engine.%s is neither kept by catalogImage (txddl_image.go) nor listed in notCatalog: a catalog change in a transaction block could not be undone", n)
		case inImage:
			if _, ok := it.FieldByName(im); !ok {
				t.Errorf("catalogImage has no field %s for Engine.%s", im, n)
			}
			kept[im] = true
		}
	}
	for i := 0; i < it.NumField(); i++ {
		if n := it.Field(i).Name; !kept[n] && !derivedImage[n] {
			t.Errorf("catalogImage.%s stands for no Engine field", n)
		}
	}
	for n := range imageOf {
		if !contains(names, n) {
			t.Errorf("imageOf names Engine.%s, which does not exist", n)
		}
	}
	for n := range notCatalog {
		if !contains(names, n) {
			t.Errorf("notCatalog names Engine.%s, which does not exist", n)
		}
	}
}

// copyOnWrite are the types of catalog objects that catalog changes never
// edit in place: a change makes a new object and puts it in the catalog's
// map or list, which the image copies.
var copyOnWrite = map[string]string{
	"sql.Function":  "ALTER FUNCTION, GRANT on routines and CREATE OR REPLACE replace it in its list",
	"sql.Aggregate": "CREATE OR REPLACE AGGREGATE replaces it in its list", "sql.Operator": "never edited",
	"engine.namedView": "copied (objectCats)", "sql.CreateView": "never edited",
	"sql.UserCast": "never edited", "sql.CompositeType": "ALTER TYPE makes a new one",
	"engine.fkLink": "never edited", "engine.sharedIndex": "its readers are kept (sharedCats)",
	"engine.statsObject": "copied (objectCats)", "engine.evtTrigger": "copied (objectCats)",
	"engine.installedExt": "copied (objectCats)", "engine.matIndex": "copied (objectCats)",
	"engine.partition": "copied (objectCats)", "engine.trigger": "copied (objectCats)",
	"engine.rule": "copied (objectCats)", "engine.tableRLS": "copied (rlsCats)", "engine.schema": "copied (schemaCats)",
	"engine.role": "copied (roleCats)", "engine.table": "its catalog fields are copied (tableCats)",
	"engine.sequence": "its options are copied (seqCats)", "expr.Domain": "its definition is kept (objectCats)",
	"value.EnumDesc": "copy on write (enums)", "sql.UserCollation": "ALTER COLLATION makes a new one",
}

// TestCatalogImageObjects checks that the objects the catalog's maps and
// lists point to are either copied by the image or never edited in place.
func TestCatalogImageObjects(t *testing.T) {
	et := reflect.TypeOf(Engine{})
	for n := range imageOf {
		var ft reflect.Type
		if outer, inner, ok := strings.Cut(n, "."); ok {
			f, _ := et.FieldByName(outer)
			g, _ := f.Type.FieldByName(inner)
			ft = g.Type
		} else {
			f, _ := et.FieldByName(n)
			ft = f.Type
		}
		for ft.Kind() == reflect.Map || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Pointer {
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				if _, ok := copyOnWrite[ft.Elem().String()]; !ok {
					t.Errorf("Engine.%s points to %s, which the catalog image neither copies nor lists as copy on write", n, ft.Elem())
				}
				break
			}
			ft = ft.Elem()
		}
	}
}

package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// CreateExtension is CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA
// s] [VERSION v] [CASCADE] of an extension the engine provides
// (expr.Extension); Schema is where its functions go.
type CreateExtension struct {
	Ext         *expr.Extension
	IfNotExists bool
	Schema      string
}

// DropExtension is DROP EXTENSION [IF EXISTS] name, … [CASCADE | RESTRICT].
type DropExtension struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

// AlterExtension is ALTER EXTENSION name UPDATE [TO version]; Version ""
// is the default version.
type AlterExtension struct {
	Name    string
	Version string
}

func (*CreateExtension) bound() {}
func (*DropExtension) bound()   {}
func (*AlterExtension) bound()  {}

// ExtensionCatalog is a Catalog with installed extensions: Funcs returns
// the functions of a name that they provide, and missing the extension
// installed whose function of that name is not provided ("" for none).
type ExtensionCatalog interface {
	ExtensionFuncs(name string) (funcs []*expr.FuncDef, missing string)
}

// ExtensionTypeCatalog is a Catalog that knows the types of the installed
// extensions (hstore), which a name resolves to after the built-in types.
type ExtensionTypeCatalog interface {
	ExtensionType(name string) (value.Type, bool)
}

// ExtensionUser is a Catalog told of each extension function a statement
// calls, for DROP EXTENSION's dependencies.
type ExtensionUser interface {
	UseExtensionFunc(d *expr.FuncDef)
}

// ExtensionDepKey is the key under which a view's dependency on an
// extension's function is recorded.
func ExtensionDepKey(d *expr.FuncDef) string { return "extension " + d.Ext + " " + d.Signature() }

// extensionSchemas are the schemas an extension may be created in.
var extensionSchemas = map[string]bool{"public": true, "pg_catalog": true}

func (b *binder) bindCreateExtension(cs *pg_query.CreateExtensionStmt) (Bound, error) {
	x, ok := expr.LookupExtension(cs.Extname)
	if !ok {
		return nil, errExtensionNotAvailable(cs.Extname)
	}
	c := &CreateExtension{Ext: x, IfNotExists: cs.IfNotExists, Schema: x.Schema}
	for _, o := range cs.Options {
		d := o.GetDefElem()
		switch d.GetDefname() {
		case "schema":
			s := d.Arg.GetString_().GetSval()
			if !extensionSchemas[s] {
				return nil, b.refuse(d.Location, "CREATE EXTENSION … SCHEMA %s is not supported: extensions go in public or pg_catalog", s)
			}
			if x.Schema != "" && s != x.Schema {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "extension %q must be installed in schema %q", x.Name, x.Schema)
			}
			c.Schema = s
		case "new_version":
			if v := d.Arg.GetString_().GetSval(); v != x.Version {
				return nil, pgerr.New(pgerr.InvalidParameter, "extension %q has no installation script nor update path for version %q", x.Name, v)
			}
		case "cascade":
			// The extensions provided require none.
		default:
			return nil, b.refuse(d.GetLocation(), "CREATE EXTENSION option %s is not supported", d.GetDefname())
		}
	}
	if c.Schema == "" {
		c.Schema = "public"
	}
	return c, nil
}

// errExtensionNotAvailable is PostgreSQL's error for an extension that is
// not installed on the server, which is what one the engine does not
// provide looks like.
func errExtensionNotAvailable(name string) *pgerr.Error {
	var names []string
	for _, x := range expr.Extensions() {
		names = append(names, x.Name)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "extension %q is not available", name).
		WithDetail("The extensions available are %s.", strings.Join(names, ", ")).
		WithHint("The extension must first be installed on the system where PostgreSQL is running.")
}

func (b *binder) bindDropExtension(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropExtension{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		d.Names = append(d.Names, o.GetString_().GetSval())
	}
	return d, nil
}

func (b *binder) bindAlterExtension(as *pg_query.AlterExtensionStmt) (Bound, error) {
	a := &AlterExtension{Name: as.Extname}
	for _, o := range as.Options {
		d := o.GetDefElem()
		if d.GetDefname() != "new_version" {
			return nil, b.refuse(d.GetLocation(), "ALTER EXTENSION option %s is not supported", d.GetDefname())
		}
		a.Version = d.Arg.GetString_().GetSval()
	}
	return a, nil
}

// extensionFuncs are the functions of a name the catalog's installed
// extensions provide, and the extension that leaves it out.
func (b *binder) extensionFuncs(name string) ([]*expr.FuncDef, string) {
	if ec, ok := b.cat.(ExtensionCatalog); ok {
		return ec.ExtensionFuncs(strings.ToLower(name))
	}
	return nil, ""
}

// usedExtensionFunc tells the catalog that the statement calls def, when
// it is an extension's.
func (b *binder) usedExtensionFunc(def *expr.FuncDef) {
	if def == nil || def.Ext == "" {
		return
	}
	if eu, ok := b.cat.(ExtensionUser); ok {
		eu.UseExtensionFunc(def)
	}
}

// errMissingExtensionFunc refuses a call of a function of an installed
// extension that the engine does not provide.
func errMissingExtensionFunc(name, ext string) *pgerr.Error {
	return pgerr.New(pgerr.FeatureNotSupported, "function %s of extension %s is not supported", name, ext).
		WithDetail("Of extension %s, only some functions are provided.", ext)
}

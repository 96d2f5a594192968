package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// superuserCatalogs are the system catalogs and views whose SELECT
// PostgreSQL's initdb keeps from PUBLIC (only their owner, the bootstrap
// superuser, holds it): a role that is no superuser reading one gets
// 42501, the value its relkind names it by ("table" or "view").
var superuserCatalogs = map[string]string{
	"pg_authid": "table", "pg_largeobject": "table", "pg_statistic": "table", "pg_statistic_ext_data": "table",
	"pg_user_mapping": "table", "pg_shadow": "view", "pg_config": "view", "pg_file_settings": "view",
	"pg_hba_file_rules": "view", "pg_ident_file_mappings": "view", "pg_replication_origin_status": "view",
}

// superuserCatalogError is 42501 when key names such a catalog, nil
// otherwise.
func superuserCatalogError(key string) error {
	rel, ok := strings.CutPrefix(key, "pg_catalog.")
	if !ok {
		return nil
	}
	if kind, ok := superuserCatalogs[rel]; ok {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", kind, rel)
	}
	return nil
}

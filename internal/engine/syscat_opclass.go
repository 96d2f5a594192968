package engine

import (
	"github.com/deltaview/deltaview/internal/value"
	"strconv"
	"strings"
)

// The operator classes and families of the btree, hash, GiST, GIN,
// SP-GiST and BRIN access methods, as PostgreSQL 15 ships them (in the
// order its catalogs hold them); and the text search
// objects of the two configurations the engine has, simple and english.
// They are constants: the engine makes no operator classes or text
// search objects.

// builtinOpfamilies are pg_opfamily's rows: oid, opfmethod, opfname.
var builtinOpfamilies = "" +
	"397 403 array_ops 627 405 array_ops 423 403 bit_ops 424 403 bool_ops 426 403 bpchar_ops 427 405 bpchar_ops " +
	"428 403 bytea_ops 429 403 char_ops 431 405 char_ops 434 403 datetime_ops 435 405 date_ops 1970 403 float_ops " +
	"1971 405 float_ops 1974 403 network_ops 1975 405 network_ops 3550 783 network_ops 3794 4000 network_ops 1976 403 integer_ops " +
	"1977 405 integer_ops 1982 403 interval_ops 1983 405 interval_ops 1984 403 macaddr_ops 1985 405 macaddr_ops 3371 403 macaddr8_ops " +
	"3372 405 macaddr8_ops 1988 403 numeric_ops 1998 405 numeric_ops 1989 403 oid_ops 1990 405 oid_ops 1991 403 oidvector_ops " +
	"1992 405 oidvector_ops 2994 403 record_ops 6194 405 record_ops 3194 403 record_image_ops 1994 403 text_ops 1995 405 text_ops " +
	"1996 403 time_ops 1997 405 time_ops 1999 405 timestamptz_ops 2000 403 timetz_ops 2001 405 timetz_ops 2002 403 varbit_ops " +
	"2040 405 timestamp_ops 2095 403 text_pattern_ops 2097 403 bpchar_pattern_ops 2099 403 money_ops 2222 405 bool_ops 2223 405 bytea_ops " +
	"2789 403 tid_ops 2225 405 xid_ops 5032 405 xid8_ops 5067 403 xid8_ops 2226 405 cid_ops 2227 405 tid_ops " +
	"2229 405 text_pattern_ops 2231 405 bpchar_pattern_ops 2235 405 aclitem_ops 2593 783 box_ops 2594 783 poly_ops 2595 783 circle_ops " +
	"1029 783 point_ops 2745 2742 array_ops 2968 403 uuid_ops 2969 405 uuid_ops 3253 403 pg_lsn_ops 3254 405 pg_lsn_ops " +
	"3522 403 enum_ops 3523 405 enum_ops 3626 403 tsvector_ops 3655 783 tsvector_ops 3659 2742 tsvector_ops 3683 403 tsquery_ops " +
	"3702 783 tsquery_ops 3901 403 range_ops 3903 405 range_ops 3919 783 range_ops 3474 4000 range_ops 4015 4000 quad_point_ops " +
	"4016 4000 kd_point_ops 4017 4000 text_ops 4033 403 jsonb_ops 4034 405 jsonb_ops 4036 2742 jsonb_ops 4037 2742 jsonb_path_ops " +
	"4054 3580 integer_minmax_ops 4602 3580 integer_minmax_multi_ops 4572 3580 integer_bloom_ops 4055 3580 numeric_minmax_ops 4603 3580 numeric_minmax_multi_ops 4056 3580 text_minmax_ops " +
	"4573 3580 text_bloom_ops 4574 3580 numeric_bloom_ops 4058 3580 timetz_minmax_ops 4604 3580 timetz_minmax_multi_ops 4575 3580 timetz_bloom_ops 4059 3580 datetime_minmax_ops " +
	"4605 3580 datetime_minmax_multi_ops 4576 3580 datetime_bloom_ops 4062 3580 char_minmax_ops 4577 3580 char_bloom_ops 4064 3580 bytea_minmax_ops 4578 3580 bytea_bloom_ops " +
	"4065 3580 name_minmax_ops 4579 3580 name_bloom_ops 4068 3580 oid_minmax_ops 4606 3580 oid_minmax_multi_ops 4580 3580 oid_bloom_ops 4069 3580 tid_minmax_ops " +
	"4581 3580 tid_bloom_ops 4607 3580 tid_minmax_multi_ops 4070 3580 float_minmax_ops 4608 3580 float_minmax_multi_ops 4582 3580 float_bloom_ops 4074 3580 macaddr_minmax_ops " +
	"4609 3580 macaddr_minmax_multi_ops 4583 3580 macaddr_bloom_ops 4109 3580 macaddr8_minmax_ops 4610 3580 macaddr8_minmax_multi_ops 4584 3580 macaddr8_bloom_ops 4075 3580 network_minmax_ops " +
	"4611 3580 network_minmax_multi_ops 4102 3580 network_inclusion_ops 4585 3580 network_bloom_ops 4076 3580 bpchar_minmax_ops 4586 3580 bpchar_bloom_ops 4077 3580 time_minmax_ops " +
	"4612 3580 time_minmax_multi_ops 4587 3580 time_bloom_ops 4078 3580 interval_minmax_ops 4613 3580 interval_minmax_multi_ops 4588 3580 interval_bloom_ops 4079 3580 bit_minmax_ops " +
	"4080 3580 varbit_minmax_ops 4081 3580 uuid_minmax_ops 4614 3580 uuid_minmax_multi_ops 4589 3580 uuid_bloom_ops 4103 3580 range_inclusion_ops 4082 3580 pg_lsn_minmax_ops " +
	"4615 3580 pg_lsn_minmax_multi_ops 4590 3580 pg_lsn_bloom_ops 4104 3580 box_inclusion_ops 5000 4000 box_ops 5008 4000 poly_ops 4199 403 multirange_ops " +
	"4225 405 multirange_ops 6158 783 multirange_ops " +
	""

// builtinOpclasses are pg_opclass's rows: oid, opcmethod, opcname,
// opcfamily, opcintype, opcdefault (t or f), opckeytype.
var builtinOpclasses = "" +
	"10000 403 array_ops 397 2277 t 0 10001 405 array_ops 627 2277 t 0 10002 403 bit_ops 423 1560 t 0 10003 403 bool_ops 424 16 t 0 10004 403 bpchar_ops 426 1042 t 0 " +
	"10005 405 bpchar_ops 427 1042 t 0 10006 403 bytea_ops 428 17 t 0 10007 403 char_ops 429 18 t 0 10008 405 char_ops 431 18 t 0 10009 403 cidr_ops 1974 869 f 0 " +
	"10010 405 cidr_ops 1975 869 f 0 3122 403 date_ops 434 1082 t 0 10011 405 date_ops 435 1082 t 0 10012 403 float4_ops 1970 700 t 0 10013 405 float4_ops 1971 700 t 0 " +
	"3123 403 float8_ops 1970 701 t 0 10014 405 float8_ops 1971 701 t 0 10015 403 inet_ops 1974 869 t 0 10016 405 inet_ops 1975 869 t 0 10017 783 inet_ops 3550 869 f 0 " +
	"10018 4000 inet_ops 3794 869 t 0 1979 403 int2_ops 1976 21 t 0 10019 405 int2_ops 1977 21 t 0 1978 403 int4_ops 1976 23 t 0 10020 405 int4_ops 1977 23 t 0 " +
	"3124 403 int8_ops 1976 20 t 0 10021 405 int8_ops 1977 20 t 0 10022 403 interval_ops 1982 1186 t 0 10023 405 interval_ops 1983 1186 t 0 10024 403 macaddr_ops 1984 829 t 0 " +
	"10025 405 macaddr_ops 1985 829 t 0 10026 403 macaddr8_ops 3371 774 t 0 10027 405 macaddr8_ops 3372 774 t 0 10028 403 name_ops 1994 19 t 2275 10029 405 name_ops 1995 19 t 0 " +
	"3125 403 numeric_ops 1988 1700 t 0 10030 405 numeric_ops 1998 1700 t 0 1981 403 oid_ops 1989 26 t 0 10031 405 oid_ops 1990 26 t 0 10032 403 oidvector_ops 1991 30 t 0 " +
	"10033 405 oidvector_ops 1992 30 t 0 10034 403 record_ops 2994 2249 t 0 10035 405 record_ops 6194 2249 t 0 10036 403 record_image_ops 3194 2249 f 0 3126 403 text_ops 1994 25 t 0 " +
	"10037 405 text_ops 1995 25 t 0 10038 403 time_ops 1996 1083 t 0 10039 405 time_ops 1997 1083 t 0 3127 403 timestamptz_ops 434 1184 t 0 10040 405 timestamptz_ops 1999 1184 t 0 " +
	"10041 403 timetz_ops 2000 1266 t 0 10042 405 timetz_ops 2001 1266 t 0 10043 403 varbit_ops 2002 1562 t 0 10044 403 varchar_ops 1994 25 f 0 10045 405 varchar_ops 1995 25 f 0 " +
	"3128 403 timestamp_ops 434 1114 t 0 10046 405 timestamp_ops 2040 1114 t 0 4217 403 text_pattern_ops 2095 25 f 0 4218 403 varchar_pattern_ops 2095 25 f 0 4219 403 bpchar_pattern_ops 2097 1042 f 0 " +
	"10047 403 money_ops 2099 790 t 0 10048 405 bool_ops 2222 16 t 0 10049 405 bytea_ops 2223 17 t 0 10050 403 tid_ops 2789 27 t 0 10051 405 xid_ops 2225 28 t 0 " +
	"10052 405 xid8_ops 5032 5069 t 0 10053 403 xid8_ops 5067 5069 t 0 10054 405 cid_ops 2226 29 t 0 10055 405 tid_ops 2227 27 t 0 10056 405 text_pattern_ops 2229 25 f 0 " +
	"10057 405 varchar_pattern_ops 2229 25 f 0 10058 405 bpchar_pattern_ops 2231 1042 f 0 10059 405 aclitem_ops 2235 1033 t 0 10060 783 box_ops 2593 603 t 0 10061 783 point_ops 1029 600 t 603 " +
	"10062 783 poly_ops 2594 604 t 603 10063 783 circle_ops 2595 718 t 603 10064 2742 array_ops 2745 2277 t 2283 10065 403 uuid_ops 2968 2950 t 0 10066 405 uuid_ops 2969 2950 t 0 " +
	"10067 403 pg_lsn_ops 3253 3220 t 0 10068 405 pg_lsn_ops 3254 3220 t 0 10069 403 enum_ops 3522 3500 t 0 10070 405 enum_ops 3523 3500 t 0 10071 403 tsvector_ops 3626 3614 t 0 " +
	"10072 783 tsvector_ops 3655 3614 t 3642 10073 2742 tsvector_ops 3659 3614 t 25 10074 403 tsquery_ops 3683 3615 t 0 10075 783 tsquery_ops 3702 3615 t 20 10076 403 range_ops 3901 3831 t 0 " +
	"10077 405 range_ops 3903 3831 t 0 10078 783 range_ops 3919 3831 t 0 10079 4000 range_ops 3474 3831 t 0 10080 403 multirange_ops 4199 4537 t 0 10081 405 multirange_ops 4225 4537 t 0 " +
	"10082 783 multirange_ops 6158 4537 t 3831 10083 4000 box_ops 5000 603 t 0 10084 4000 quad_point_ops 4015 600 t 0 10085 4000 kd_point_ops 4016 600 f 0 10086 4000 text_ops 4017 25 t 0 " +
	"10087 4000 poly_ops 5008 604 t 603 10088 403 jsonb_ops 4033 3802 t 0 10089 405 jsonb_ops 4034 3802 t 0 10090 2742 jsonb_ops 4036 3802 t 25 10091 2742 jsonb_path_ops 4037 3802 f 23 " +
	"10092 3580 bytea_minmax_ops 4064 17 t 17 10093 3580 bytea_bloom_ops 4578 17 f 17 10094 3580 char_minmax_ops 4062 18 t 18 10095 3580 char_bloom_ops 4577 18 f 18 10096 3580 name_minmax_ops 4065 19 t 19 " +
	"10097 3580 name_bloom_ops 4579 19 f 19 10098 3580 int8_minmax_ops 4054 20 t 20 10099 3580 int8_minmax_multi_ops 4602 20 f 20 10100 3580 int8_bloom_ops 4572 20 f 20 10101 3580 int2_minmax_ops 4054 21 t 21 " +
	"10102 3580 int2_minmax_multi_ops 4602 21 f 21 10103 3580 int2_bloom_ops 4572 21 f 21 10104 3580 int4_minmax_ops 4054 23 t 23 10105 3580 int4_minmax_multi_ops 4602 23 f 23 10106 3580 int4_bloom_ops 4572 23 f 23 " +
	"10107 3580 text_minmax_ops 4056 25 t 25 10108 3580 text_bloom_ops 4573 25 f 25 10109 3580 oid_minmax_ops 4068 26 t 26 10110 3580 oid_minmax_multi_ops 4606 26 f 26 10111 3580 oid_bloom_ops 4580 26 f 26 " +
	"10112 3580 tid_minmax_ops 4069 27 t 27 10113 3580 tid_bloom_ops 4581 27 f 27 10114 3580 tid_minmax_multi_ops 4607 27 f 27 10115 3580 float4_minmax_ops 4070 700 t 700 10116 3580 float4_minmax_multi_ops 4608 700 f 700 " +
	"10117 3580 float4_bloom_ops 4582 700 f 700 10118 3580 float8_minmax_ops 4070 701 t 701 10119 3580 float8_minmax_multi_ops 4608 701 f 701 10120 3580 float8_bloom_ops 4582 701 f 701 10121 3580 macaddr_minmax_ops 4074 829 t 829 " +
	"10122 3580 macaddr_minmax_multi_ops 4609 829 f 829 10123 3580 macaddr_bloom_ops 4583 829 f 829 10124 3580 macaddr8_minmax_ops 4109 774 t 774 10125 3580 macaddr8_minmax_multi_ops 4610 774 f 774 10126 3580 macaddr8_bloom_ops 4584 774 f 774 " +
	"10127 3580 inet_minmax_ops 4075 869 f 869 10128 3580 inet_minmax_multi_ops 4611 869 f 869 10129 3580 inet_bloom_ops 4585 869 f 869 10130 3580 inet_inclusion_ops 4102 869 t 869 10131 3580 bpchar_minmax_ops 4076 1042 t 1042 " +
	"10132 3580 bpchar_bloom_ops 4586 1042 f 1042 10133 3580 time_minmax_ops 4077 1083 t 1083 10134 3580 time_minmax_multi_ops 4612 1083 f 1083 10135 3580 time_bloom_ops 4587 1083 f 1083 10136 3580 date_minmax_ops 4059 1082 t 1082 " +
	"10137 3580 date_minmax_multi_ops 4605 1082 f 1082 10138 3580 date_bloom_ops 4576 1082 f 1082 10139 3580 timestamp_minmax_ops 4059 1114 t 1114 10140 3580 timestamp_minmax_multi_ops 4605 1114 f 1114 10141 3580 timestamp_bloom_ops 4576 1114 f 1114 " +
	"10142 3580 timestamptz_minmax_ops 4059 1184 t 1184 10143 3580 timestamptz_minmax_multi_ops 4605 1184 f 1184 10144 3580 timestamptz_bloom_ops 4576 1184 f 1184 10145 3580 interval_minmax_ops 4078 1186 t 1186 10146 3580 interval_minmax_multi_ops 4613 1186 f 1186 " +
	"10147 3580 interval_bloom_ops 4588 1186 f 1186 10148 3580 timetz_minmax_ops 4058 1266 t 1266 10149 3580 timetz_minmax_multi_ops 4604 1266 f 1266 10150 3580 timetz_bloom_ops 4575 1266 f 1266 10151 3580 bit_minmax_ops 4079 1560 t 1560 " +
	"10152 3580 varbit_minmax_ops 4080 1562 t 1562 10153 3580 numeric_minmax_ops 4055 1700 t 1700 10154 3580 numeric_minmax_multi_ops 4603 1700 f 1700 10155 3580 numeric_bloom_ops 4574 1700 f 1700 10156 3580 uuid_minmax_ops 4081 2950 t 2950 " +
	"10157 3580 uuid_minmax_multi_ops 4614 2950 f 2950 10158 3580 uuid_bloom_ops 4589 2950 f 2950 10159 3580 range_inclusion_ops 4103 3831 t 3831 10160 3580 pg_lsn_minmax_ops 4082 3220 t 3220 10161 3580 pg_lsn_minmax_multi_ops 4615 3220 f 3220 " +
	"10162 3580 pg_lsn_bloom_ops 4590 3220 f 3220 10163 3580 box_inclusion_ops 4104 603 t 603 " +
	""

// catalogFields splits s into rows of n fields.
func catalogFields(s string, n int) [][]string {
	f := strings.Fields(s)
	var out [][]string
	for i := 0; i+n <= len(f); i += n {
		out = append(out, f[i:i+n])
	}
	return out
}

func catOID(s string) uint32 {
	n, _ := strconv.ParseUint(s, 10, 32)
	return uint32(n)
}

func pgOpfamily(_ *catalogObjects, r *catRows) {
	for _, f := range catalogFields(builtinOpfamilies, 3) {
		r.add("oid", catOID(f[0]), "opfmethod", catOID(f[1]), "opfname", f[2], "opfnamespace", uint32(pgCatalogOID), "opfowner", uint32(superuserOID))
	}
}

func pgOpclass(_ *catalogObjects, r *catRows) {
	for _, f := range catalogFields(builtinOpclasses, 7) {
		r.add("oid", catOID(f[0]), "opcmethod", catOID(f[1]), "opcname", f[2], "opcnamespace", uint32(pgCatalogOID), "opcowner", uint32(superuserOID),
			"opcfamily", catOID(f[3]), "opcintype", catOID(f[4]), "opcdefault", f[5] == "t", "opckeytype", catOID(f[6]))
	}
}

// The text search parser, templates, dictionaries and configurations,
// with PostgreSQL's oids; english's token types map to english_stem
// (13163) where PostgreSQL's do, the others to simple (3765).
const (
	tsParserOID      = 3722
	tsSimpleDictOID  = 3765
	tsEnglishDictOID = 13163
	tsSimpleCfgOID   = 3748
	tsEnglishCfgOID  = 13164
)

// tsEnglishStemmed are the token types english maps to english_stem.
var tsEnglishStemmed = map[int]bool{1: true, 2: true, 10: true, 11: true, 16: true, 17: true}

// tsTokenTypes are the default parser's token types the configurations map.
var tsTokenTypes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18, 19, 20, 21, 22}

func init() {
	add := func(name, cols string, oid uint32, rows func(o *catalogObjects, r *catRows)) {
		catalogColumns["pg_catalog."+name], catalogRowFuncs["pg_catalog."+name] = cols, rows
		catalogRelations["pg_catalog."+name] = catalogRelation{cols: catalogCols(cols), rows: rows}
		catalogRelOIDs[name] = oid
	}
	add("pg_opfamily", "oid:oid,opfmethod:oid,opfname:name,opfnamespace:oid,opfowner:oid", 2753, pgOpfamily)
	add("pg_opclass", "oid:oid,opcmethod:oid,opcname:name,opcnamespace:oid,opcowner:oid,opcfamily:oid,opcintype:oid,opcdefault:boolean,opckeytype:oid", 2616, pgOpclass)
	add("pg_ts_parser", "oid:oid,prsname:name,prsnamespace:oid,prsstart:regproc,prstoken:regproc,prsend:regproc,prsheadline:regproc,prslextype:regproc", 3601,
		func(_ *catalogObjects, r *catRows) {
			r.add("oid", uint32(tsParserOID), "prsname", "default", "prsnamespace", uint32(pgCatalogOID), "prsstart", procReg(3717, "prsd_start"),
				"prstoken", procReg(3718, "prsd_nexttoken"), "prsend", procReg(3719, "prsd_end"), "prsheadline", procReg(3720, "prsd_headline"),
				"prslextype", procReg(3721, "prsd_lextype"))
		})
	add("pg_ts_template", "oid:oid,tmplname:name,tmplnamespace:oid,tmplinit:regproc,tmpllexize:regproc", 3764,
		func(_ *catalogObjects, r *catRows) {
			r.add("oid", uint32(3727), "tmplname", "simple", "tmplnamespace", uint32(pgCatalogOID), "tmplinit", procReg(3725, "dsimple_init"),
				"tmpllexize", procReg(3726, "dsimple_lexize"))
			r.add("oid", uint32(13150), "tmplname", "snowball", "tmplnamespace", uint32(pgCatalogOID), "tmplinit", procReg(13148, "dsnowball_init"),
				"tmpllexize", procReg(13149, "dsnowball_lexize"))
		})
	add("pg_ts_dict", "oid:oid,dictname:name,dictnamespace:oid,dictowner:oid,dicttemplate:oid,dictinitoption:text", 3600,
		func(_ *catalogObjects, r *catRows) {
			r.add("oid", uint32(tsSimpleDictOID), "dictname", "simple", "dictnamespace", uint32(pgCatalogOID), "dictowner", uint32(superuserOID),
				"dicttemplate", uint32(3727))
			r.add("oid", uint32(tsEnglishDictOID), "dictname", "english_stem", "dictnamespace", uint32(pgCatalogOID), "dictowner", uint32(superuserOID),
				"dicttemplate", uint32(13150), "dictinitoption", "language = 'english', stopwords = 'english'")
		})
	add("pg_ts_config", "oid:oid,cfgname:name,cfgnamespace:oid,cfgowner:oid,cfgparser:oid", 3602,
		func(_ *catalogObjects, r *catRows) {
			for _, c := range []struct {
				oid  uint32
				name string
			}{{tsSimpleCfgOID, "simple"}, {tsEnglishCfgOID, "english"}} {
				r.add("oid", c.oid, "cfgname", c.name, "cfgnamespace", uint32(pgCatalogOID), "cfgowner", uint32(superuserOID), "cfgparser", uint32(tsParserOID))
			}
		})
	add("pg_ts_config_map", "mapcfg:oid,maptokentype:integer,mapseqno:integer,mapdict:oid", 3603,
		func(_ *catalogObjects, r *catRows) {
			for _, t := range tsTokenTypes {
				r.add("mapcfg", uint32(tsSimpleCfgOID), "maptokentype", t, "mapseqno", 1, "mapdict", uint32(tsSimpleDictOID))
			}
			for _, t := range tsTokenTypes {
				dict := uint32(tsSimpleDictOID)
				if tsEnglishStemmed[t] {
					dict = tsEnglishDictOID
				}
				r.add("mapcfg", uint32(tsEnglishCfgOID), "maptokentype", t, "mapseqno", 1, "mapdict", dict)
			}
		})
}

// procReg is a built-in function as a regproc column holds it.
func procReg(oid uint32, name string) value.Value { return value.NewReg(value.RegProc, oid, name) }

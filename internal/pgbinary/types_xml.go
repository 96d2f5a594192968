package pgbinary

// oidXML is PostgreSQL's OID of xml, whose text and binary formats are
// both its text output (for a UTF-8 client).
const oidXML = 142

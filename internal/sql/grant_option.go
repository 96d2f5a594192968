package sql

// A grant option is kept in a Privilege's high byte, above the privilege
// it is the option of, as PostgreSQL's ACL_GRANT_OPTION_FOR keeps it in an
// aclitem: the holder may grant that privilege to others.

// optionShift is how far a privilege's grant option sits above it.
const optionShift = 8

// WithOption is p with the grant option of each of its privileges.
func (p Privilege) WithOption() Privilege { return p.Plain() | p.Plain()<<optionShift }

// Options are the privileges of p held with their grant option.
func (p Privilege) Options() Privilege { return p >> optionShift }

// Plain is p without its grant options.
func (p Privilege) Plain() Privilege { return p & (1<<optionShift - 1) }

// OptionsOf is the grant options of the privileges p, as a Privilege's
// high byte holds them.
func OptionsOf(p Privilege) Privilege { return p.Plain() << optionShift }

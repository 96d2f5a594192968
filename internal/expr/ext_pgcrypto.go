package expr

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"hash"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The pgcrypto extension's digests, HMACs, random bytes, password
// hashing (crypt and gen_salt for md5 and bf, ext_crypt.go) and raw AES
// encryption (ext_encrypt.go). Its PGP functions are not provided: a
// call of one is refused. digest, hmac and crypt are immutable; gen_random_bytes,
// gen_random_uuid and gen_salt are volatile, as in PostgreSQL.
func init() {
	T, B, I4 := value.Text, value.Bytea, value.Int4
	bytea := func(b []byte) value.Value { return value.NewBytea(b) }
	digest := func(a []value.Value) (value.Value, error) {
		h, err := pgcryptoHash(textOf(a[1]))
		if err != nil {
			return value.Null, err
		}
		h.Write([]byte(a[0].Str()))
		return bytea(h.Sum(nil)), nil
	}
	mac := func(a []value.Value) (value.Value, error) {
		name := textOf(a[2])
		if _, err := pgcryptoHash(name); err != nil {
			return value.Null, err
		}
		h := hmac.New(func() hash.Hash { h, _ := pgcryptoHash(name); return h }, []byte(a[1].Str()))
		h.Write([]byte(a[0].Str()))
		return bytea(h.Sum(nil)), nil
	}
	imm := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval}
	}
	vol := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Volatile: true, Params: params, Result: result, Eval: eval}
	}
	x := &Extension{
		Name: "pgcrypto", Version: "1.3", Relocatable: true, Comment: "cryptographic functions",
		Funcs: []*FuncDef{
			imm("digest", kinds(T, T), value.ByteaType, digest),
			imm("digest", kinds(B, T), value.ByteaType, digest),
			imm("hmac", kinds(T, T, T), value.ByteaType, mac),
			imm("hmac", kinds(B, B, T), value.ByteaType, mac),
			vol("gen_random_bytes", kinds(I4), value.ByteaType, func(a []value.Value) (value.Value, error) {
				n := a[0].Int()
				if n < 1 || n > 1024 {
					return value.Null, pgerr.New(codeExternalRoutine, "Length not in range")
				}
				b := make([]byte, n)
				_, _ = rand.Read(b) // crypto/rand.Read never fails
				return bytea(b), nil
			}),
			// pgcrypto's own gen_random_uuid is hidden by the built-in one
			// (pg_catalog comes first); it is listed for DROP's sake.
			{Name: "gen_random_uuid", Volatile: true, Result: value.UUIDType,
				Eval: func([]value.Value) (value.Value, error) { return value.NewUUID(randomUUID()), nil }},
			imm("crypt", kinds(T, T), value.TextType, func(a []value.Value) (value.Value, error) {
				s, err := pgCrypt(textOf(a[0]), textOf(a[1]))
				return text(s), err
			}),
			vol("gen_salt", kinds(T), value.TextType, func(a []value.Value) (value.Value, error) {
				s, err := genSalt(textOf(a[0]), 0)
				return text(s), err
			}),
			vol("gen_salt", kinds(T, I4), value.TextType, func(a []value.Value) (value.Value, error) {
				s, err := genSalt(textOf(a[0]), a[1].Int())
				return text(s), err
			}),
		},
		Missing: []string{"armor", "dearmor", "pgp_armor_headers", "pgp_key_id",
			"pgp_pub_decrypt", "pgp_pub_decrypt_bytea", "pgp_pub_encrypt", "pgp_pub_encrypt_bytea",
			"pgp_sym_decrypt", "pgp_sym_decrypt_bytea", "pgp_sym_encrypt", "pgp_sym_encrypt_bytea"},
	}
	x.Funcs = append(x.Funcs, encryptFuncs()...)
	registerExtension(x)
}

// codeExternalRoutine is SQLSTATE 39000, which pgcrypto raises for a
// length out of range.
const codeExternalRoutine = "39000"

// pgcryptoHash returns a new hash of the algorithm named, case aside:
// 22023 "No such hash algorithm" for a name pgcrypto does not know.
func pgcryptoHash(name string) (hash.Hash, error) {
	switch strings.ToLower(name) {
	case "md5":
		return md5.New(), nil
	case "sha1":
		return sha1.New(), nil
	case "sha224":
		return sha256.New224(), nil
	case "sha256":
		return sha256.New(), nil
	case "sha384":
		return sha512.New384(), nil
	case "sha512":
		return sha512.New(), nil
	case "sha512-224":
		return sha512.New512_224(), nil
	case "sha512-256":
		return sha512.New512_256(), nil
	case "sha3-224":
		return sha3.New224(), nil
	case "sha3-256":
		return sha3.New256(), nil
	case "sha3-384":
		return sha3.New384(), nil
	case "sha3-512":
		return sha3.New512(), nil
	}
	return nil, pgerr.New(pgerr.InvalidParameter, "Cannot use %q: No such hash algorithm", name)
}

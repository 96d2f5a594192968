package expr

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/blowfish"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// pgcrypto's crypt(password, salt) and gen_salt(type [, rounds]) for the
// two algorithms worth storing passwords with: md5 ("$1$", the FreeBSD
// MD5-based scheme) and bf ("$2a$", bcrypt). The DES-based schemes
// (traditional and extended) are refused. The salt of a stored hash is
// the hash itself, so that crypt(password, hash) = hash checks a password.

// errInvalidSalt is pgcrypto's error for a salt it cannot read.
var errInvalidSalt = pgerr.New(pgerr.InvalidParameter, "invalid salt")

// pgCrypt hashes password by the scheme salt names.
func pgCrypt(password, salt string) (string, error) {
	switch {
	case strings.HasPrefix(salt, "$1$"):
		return md5Crypt(password, salt[3:]), nil
	case strings.HasPrefix(salt, "$2a$"):
		return bcrypt(password, salt, "$2a$")
	case strings.HasPrefix(salt, "$2x$"):
		// $2x$ reproduces an old bug with bytes above 0x7f; without
		// them it is $2a$.
		for i := 0; i < len(password); i++ {
			if password[i] >= 0x80 {
				return "", pgerr.New(pgerr.FeatureNotSupported, "crypt() with a $2x$ salt of a password with non-ASCII bytes is not supported").
					WithHint("use a $2a$ salt: gen_salt('bf')")
			}
		}
		return bcrypt(password, salt, "$2x$")
	case salt == "":
		return "", errInvalidSalt
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "crypt() with a DES salt is not supported").
		WithHint("use gen_salt('bf') or gen_salt('md5')")
}

// errRounds is gen_salt's error for a count of rounds out of range.
var errRounds = pgerr.New(pgerr.InvalidParameter, "gen_salt: Incorrect number of rounds")

// genSalt draws a salt for the algorithm named; rounds 0 is its default.
func genSalt(alg string, rounds int64) (string, error) {
	switch strings.ToLower(alg) {
	case "md5":
		if rounds != 0 && rounds != 1000 {
			return "", errRounds
		}
		var b [6]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		return "$1$" + cryptB64(b[:]), nil
	case "bf":
		if rounds == 0 {
			rounds = 6
		}
		if rounds < 4 || rounds > 31 {
			return "", errRounds
		}
		var b [16]byte
		_, _ = rand.Read(b[:])
		return fmt.Sprintf("$2a$%02d$%s", rounds, bcryptB64.EncodeToString(b[:])), nil
	case "des", "xdes":
		return "", pgerr.New(pgerr.FeatureNotSupported, "gen_salt('%s') is not supported: the DES-based crypt() schemes are not provided", strings.ToLower(alg)).
			WithHint("use gen_salt('bf') or gen_salt('md5')")
	}
	return "", pgerr.New(pgerr.InvalidParameter, "gen_salt: Unknown salt algorithm")
}

// cryptAlphabet is the digits of crypt()'s base 64.
const cryptAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// cryptB64 writes bytes in crypt()'s base 64, three bytes at a time, low
// bits first: the form of md5 salts.
func cryptB64(b []byte) string {
	var out []byte
	for i := 0; i < len(b); i += 3 {
		var v uint32
		n := 0
		for j := 0; j < 3 && i+j < len(b); j++ {
			v |= uint32(b[i+j]) << (8 * j)
			n++
		}
		out = appendTo64(out, v, n+1)
	}
	return string(out)
}

// appendTo64 appends the n low 6-bit digits of v, lowest first.
func appendTo64(out []byte, v uint32, n int) []byte {
	for ; n > 0; n-- {
		out = append(out, cryptAlphabet[v&0x3f])
		v >>= 6
	}
	return out
}

// md5Crypt is the MD5-based crypt of FreeBSD: salt is what follows "$1$",
// up to 8 characters before a '$'.
func md5Crypt(password, salt string) string {
	if i := strings.IndexByte(salt, '$'); i >= 0 {
		salt = salt[:i]
	}
	if len(salt) > 8 {
		salt = salt[:8]
	}
	const magic = "$1$"
	pw := []byte(password)
	alt := md5.Sum([]byte(password + salt + password))
	h := md5.New()
	h.Write([]byte(password + magic + salt))
	for n := len(pw); n > 0; n -= 16 {
		h.Write(alt[:min(n, 16)])
	}
	for i := len(pw); i != 0; i >>= 1 {
		if i&1 != 0 {
			h.Write([]byte{0})
		} else {
			h.Write(pw[:1])
		}
	}
	sum := h.Sum(nil)
	for i := 0; i < 1000; i++ {
		h := md5.New()
		if i&1 != 0 {
			h.Write(pw)
		} else {
			h.Write(sum)
		}
		if i%3 != 0 {
			h.Write([]byte(salt))
		}
		if i%7 != 0 {
			h.Write(pw)
		}
		if i&1 != 0 {
			h.Write(sum)
		} else {
			h.Write(pw)
		}
		sum = h.Sum(sum[:0])
	}
	out := []byte(magic + salt + "$")
	for _, g := range [5][3]int{{0, 6, 12}, {1, 7, 13}, {2, 8, 14}, {3, 9, 15}, {4, 10, 5}} {
		out = appendTo64(out, uint32(sum[g[0]])<<16|uint32(sum[g[1]])<<8|uint32(sum[g[2]]), 4)
	}
	out = appendTo64(out, uint32(sum[11]), 2)
	return string(out)
}

// bcryptB64 is bcrypt's base 64: its own alphabet, most significant bits
// first, no padding.
var bcryptB64 = base64.NewEncoding(bcryptB64Alphabet).WithPadding(base64.NoPadding)

// bcrypt hashes password with the cost and salt of setting
// ($2a$NN$ then 22 digits of salt).
func bcrypt(password, setting, prefix string) (string, error) {
	rest := setting[len(prefix):]
	if len(rest) < 3+22 || rest[2] != '$' {
		return "", errInvalidSalt
	}
	cost, err := strconv.Atoi(rest[:2])
	if err != nil || cost < 4 || cost > 31 {
		return "", errInvalidSalt
	}
	digits := rest[3 : 3+22]
	// The 22nd digit carries 2 bits of the salt's last byte and 4 unused.
	salt, err := bcryptB64.DecodeString(digits[:21] + "..")
	if err != nil {
		return "", errInvalidSalt
	}
	last := strings.IndexByte(bcryptB64Alphabet, digits[21])
	if last < 0 {
		return "", errInvalidSalt
	}
	salt = salt[:16]
	salt[15] |= byte(last >> 4)
	key := append([]byte(password), 0)
	if len(key) > 72 {
		key = key[:72]
	}
	c, err := blowfish.NewSaltedCipher(key, salt)
	if err != nil {
		return "", errInvalidSalt
	}
	for i := uint64(0); i < 1<<uint(cost); i++ {
		blowfish.ExpandKey(key, c)
		blowfish.ExpandKey(salt, c)
	}
	text := []byte("OrpheanBeholderScryDoubt")
	for i := 0; i < 24; i += 8 {
		for j := 0; j < 64; j++ {
			c.Encrypt(text[i:i+8], text[i:i+8])
		}
	}
	return fmt.Sprintf("%s%02d$%s%s", prefix, cost, bcryptB64.EncodeToString(salt), bcryptB64.EncodeToString(text[:23])), nil
}

// bcryptB64Alphabet is bcryptB64's digits in order.
const bcryptB64Alphabet = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

package expr

import (
	"crypto/aes"
	"crypto/cipher"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// pgcrypto's raw encryption functions, encrypt, decrypt, encrypt_iv and
// decrypt_iv, for AES: type is "aes" with an optional mode ("-cbc", the
// default, or "-ecb") and options ("/pad:pkcs", the default, or
// "/pad:none"). The key is padded with zero bytes to 16, 24 or 32 bytes
// (AES-128, -192, -256; longer keys are cut at 32), the IV to 16 (zero
// bytes without one), as pgcrypto does. Blowfish, DES, 3DES and CAST5 are
// refused.

// pgCipher is a parsed encryption type.
type pgCipher struct {
	ecb, noPad bool
}

// parseCipher reads an encryption type, with pgcrypto's errors.
func parseCipher(typ string) (pgCipher, error) {
	var c pgCipher
	noSuch := pgerr.New(pgerr.InvalidParameter, "Cannot use %q: No such cipher algorithm", typ)
	parts := strings.Split(typ, "/")
	alg, mode, _ := strings.Cut(parts[0], "-")
	for _, o := range parts[1:] {
		k, v, _ := strings.Cut(o, ":")
		if k != "pad" {
			return c, pgerr.New(pgerr.InvalidParameter, "Cannot use %q: Unknown option", typ)
		}
		switch v {
		case "pkcs":
		case "none":
			c.noPad = true
		default:
			return c, noSuch
		}
	}
	switch alg {
	case "aes":
	case "bf", "des", "3des", "cast5":
		return c, pgerr.New(pgerr.FeatureNotSupported, "encryption with %s is not supported", alg).
			WithHint("use aes")
	default:
		return c, noSuch
	}
	switch mode {
	case "", "cbc":
	case "ecb":
		c.ecb = true
	default:
		return c, noSuch
	}
	return c, nil
}

// aesCrypt encrypts (or decrypts) data with key and iv by the type given.
func aesCrypt(data, key, iv []byte, typ string, decrypt bool) ([]byte, error) {
	c, err := parseCipher(typ)
	if err != nil {
		return nil, err
	}
	fail := pgerr.New(codeExternalRoutine, "encrypt error: Encryption failed")
	if decrypt {
		fail = pgerr.New(codeExternalRoutine, "decrypt error: Decryption failed")
	}
	size := 32
	switch {
	case len(key) <= 16:
		size = 16
	case len(key) <= 24:
		size = 24
	}
	k := make([]byte, size)
	copy(k, key)
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, fail
	}
	var v [aes.BlockSize]byte
	copy(v[:], iv)
	in := append([]byte(nil), data...)
	if !decrypt && !c.noPad {
		n := aes.BlockSize - len(in)%aes.BlockSize
		for i := 0; i < n; i++ {
			in = append(in, byte(n))
		}
	}
	if len(in)%aes.BlockSize != 0 {
		return nil, fail
	}
	out := make([]byte, len(in))
	switch {
	case c.ecb && decrypt:
		for i := 0; i < len(in); i += aes.BlockSize {
			block.Decrypt(out[i:], in[i:])
		}
	case c.ecb:
		for i := 0; i < len(in); i += aes.BlockSize {
			block.Encrypt(out[i:], in[i:])
		}
	case decrypt:
		cipher.NewCBCDecrypter(block, v[:]).CryptBlocks(out, in)
	default:
		cipher.NewCBCEncrypter(block, v[:]).CryptBlocks(out, in)
	}
	if decrypt && !c.noPad {
		if len(out) == 0 {
			return nil, fail
		}
		n := int(out[len(out)-1])
		if n < 1 || n > aes.BlockSize || n > len(out) {
			return nil, fail
		}
		for _, b := range out[len(out)-n:] {
			if int(b) != n {
				return nil, fail
			}
		}
		out = out[:len(out)-n]
	}
	return out, nil
}

// encryptFuncs are encrypt, decrypt, encrypt_iv and decrypt_iv.
func encryptFuncs() []*FuncDef {
	B, T := value.Bytea, value.Text
	def := func(name string, params []value.Kind, decrypt bool) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: params, Result: value.ByteaType, Eval: func(a []value.Value) (value.Value, error) {
			var iv []byte
			if len(a) == 4 {
				iv = []byte(a[2].Str())
			}
			out, err := aesCrypt([]byte(a[0].Str()), []byte(a[1].Str()), iv, textOf(a[len(a)-1]), decrypt)
			if err != nil {
				return value.Null, err
			}
			return value.NewBytea(out), nil
		}}
	}
	return []*FuncDef{
		def("encrypt", kinds(B, B, T), false),
		def("decrypt", kinds(B, B, T), true),
		def("encrypt_iv", kinds(B, B, B, T), false),
		def("decrypt_iv", kinds(B, B, B, T), true),
	}
}

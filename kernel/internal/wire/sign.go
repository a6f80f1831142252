package wire

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// SchemeHMACSHA256 is the signature_scheme value of a connection file that
// selects HMAC with SHA-256, the scheme every current Jupyter client writes.
const SchemeHMACSHA256 = "hmac-sha256"

// Signer signs and verifies messages with one key. The zero value (and a
// Signer made with an empty key) does not sign: its signatures are empty and
// it accepts any signature, as the Jupyter spec prescribes for a connection
// file whose key is "".
type Signer struct {
	key []byte
}

// NewSigner returns a Signer for a connection file's signature_scheme and key.
// It returns an error for a scheme other than [SchemeHMACSHA256] when the key
// is not empty.
func NewSigner(scheme string, key []byte) (*Signer, error) {
	if len(key) > 0 && scheme != SchemeHMACSHA256 {
		return nil, fmt.Errorf("wire: signature scheme %q is not supported: use %q", scheme, SchemeHMACSHA256)
	}
	return &Signer{key: append([]byte(nil), key...)}, nil
}

// Enabled reports whether s signs messages (its key is not empty).
func (s *Signer) Enabled() bool { return s != nil && len(s.key) > 0 }

// Sign returns the hex-encoded HMAC-SHA256 of the four JSON frames header,
// parent_header, metadata and content, or nil when s does not sign.
func (s *Signer) Sign(header, parent, metadata, content []byte) []byte {
	if !s.Enabled() {
		return nil
	}
	mac := hmac.New(sha256.New, s.key)
	for _, frame := range [][]byte{header, parent, metadata, content} {
		mac.Write(frame)
	}
	sum := mac.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// Verify checks that signature is the one [Signer.Sign] gives for the four
// frames. It returns an error wrapping [ErrBadSignature] when it is not; a
// Signer that does not sign accepts everything.
func (s *Signer) Verify(signature, header, parent, metadata, content []byte) error {
	if !s.Enabled() {
		return nil
	}
	got := make([]byte, hex.DecodedLen(len(signature)))
	if _, err := hex.Decode(got, signature); err != nil {
		return fmt.Errorf("wire: %w: signature frame %q is not hexadecimal", ErrBadSignature, truncate(signature))
	}
	want := s.Sign(header, parent, metadata, content)
	wantRaw := make([]byte, hex.DecodedLen(len(want)))
	hex.Decode(wantRaw, want) // want is our own hex: cannot fail
	// hmac.Equal compares in constant time, so the time taken does not tell
	// an attacker how many leading bytes of a forged signature were right.
	if !hmac.Equal(got, wantRaw) {
		return fmt.Errorf("wire: %w: the message was not signed with this connection's key", ErrBadSignature)
	}
	return nil
}

// truncate shortens a frame for an error message.
func truncate(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

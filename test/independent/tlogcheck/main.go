// Command tlogcheck verifies the audit log's checkpoints and proofs with the Go checksum
// database's own packages (golang.org/x/mod/sumdb/note and sumdb/tlog), which the project did
// not write: what it accepts, any C2SP and RFC 6962 reader accepts.
//
//	tlogcheck inclusion <verifier key> <checkpoint note file> <leaf, base64> <leaf index> <audit path: base64,base64,…>
//	tlogcheck consistency <verifier key> <earlier note file> <later note file> <proof: base64,base64,…>
//
// Prints what held and exits 0, or says what did not and exits 1.
package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func main() {
	var (
		said string
		err  error
	)
	switch {
	case len(os.Args) == 7 && os.Args[1] == "inclusion":
		said, err = inclusion(os.Args[2], os.Args[3], os.Args[4], os.Args[5], os.Args[6])
	case len(os.Args) == 6 && os.Args[1] == "consistency":
		said, err = consistency(os.Args[2], os.Args[3], os.Args[4], os.Args[5])
	default:
		err = errors.New("usage: tlogcheck inclusion <vkey> <note file> <leaf base64> <index> <path> | consistency <vkey> <note file> <note file> <proof>")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tlogcheck:", err)
		os.Exit(1)
	}
	fmt.Println(said)
}

type checkpoint struct {
	size int64
	root tlog.Hash
}

// opened verifies the note's signature by the key, then reads its C2SP tlog-checkpoint body:
// tlog.ParseTree reads only the go.sum database's origin, so the lines are read here.
func opened(vkey, file string) (checkpoint, error) {
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return checkpoint{}, fmt.Errorf("verifier key: %v", err)
	}
	msg, err := os.ReadFile(file)
	if err != nil {
		return checkpoint{}, err
	}
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return checkpoint{}, fmt.Errorf("%s: %v", file, err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[len(lines)-1] != "" {
		return checkpoint{}, fmt.Errorf("%s: not a checkpoint body (origin, size, root hash)", file)
	}
	if lines[0] != verifier.Name() {
		return checkpoint{}, fmt.Errorf("%s: the origin %q is not the key's name %q", file, lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return checkpoint{}, fmt.Errorf("%s: the tree size %q is not a decimal number", file, lines[1])
	}
	root, err := hashOf(lines[2])
	if err != nil {
		return checkpoint{}, fmt.Errorf("%s: root: %v", file, err)
	}
	return checkpoint{size, root}, nil
}

func hashOf(text string) (tlog.Hash, error) {
	var h tlog.Hash
	b, err := base64.StdEncoding.DecodeString(text)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("%q is not a 32-byte hash in base64", text)
	}
	copy(h[:], b)
	return h, nil
}

func hashesOf(list string) ([]tlog.Hash, error) {
	hashes := []tlog.Hash{}
	if list == "" {
		return hashes, nil
	}
	for _, text := range strings.Split(list, ",") {
		h, err := hashOf(text)
		if err != nil {
			return nil, err
		}
		hashes = append(hashes, h)
	}
	return hashes, nil
}

func inclusion(vkey, file, leaf, index, path string) (string, error) {
	c, err := opened(vkey, file)
	if err != nil {
		return "", err
	}
	data, err := base64.StdEncoding.DecodeString(leaf)
	if err != nil {
		return "", fmt.Errorf("the leaf is not base64: %v", err)
	}
	n, err := strconv.ParseInt(index, 10, 64)
	if err != nil {
		return "", fmt.Errorf("the leaf index %q is not a number", index)
	}
	proof, err := hashesOf(path)
	if err != nil {
		return "", fmt.Errorf("audit path: %v", err)
	}
	if err := tlog.CheckRecord(proof, c.size, c.root, n, tlog.RecordHash(data)); err != nil {
		return "", fmt.Errorf("leaf %d is not in the tree of %d: %v", n, c.size, err)
	}
	return fmt.Sprintf("OK: leaf %d is in the signed tree of %d leaves", n, c.size), nil
}

func consistency(vkey, fromFile, toFile, list string) (string, error) {
	from, err := opened(vkey, fromFile)
	if err != nil {
		return "", err
	}
	to, err := opened(vkey, toFile)
	if err != nil {
		return "", err
	}
	proof, err := hashesOf(list)
	if err != nil {
		return "", fmt.Errorf("proof: %v", err)
	}
	if err := tlog.CheckTree(proof, to.size, to.root, from.size, from.root); err != nil {
		return "", fmt.Errorf("the tree of %d is not a prefix of the tree of %d: %v", from.size, to.size, err)
	}
	return fmt.Sprintf("OK: the signed tree of %d leaves is a prefix of the signed tree of %d", from.size, to.size), nil
}

// Command precompress writes FILE.br and FILE.gz beside each FILE given, at
// the highest compression levels, so the server can send engine.wasm to
// browsers at about a fifth of its size without compressing per request.
// It is a build step (Taskfile.yml, build:wasm), never part of the server.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := precompress(name); err != nil {
			fmt.Fprintf(os.Stderr, "precompress: %v\n", err)
			os.Exit(1)
		}
	}
}

func precompress(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	br, err := compress(data, func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterLevel(w, brotli.BestCompression), nil
	})
	if err != nil {
		return err
	}
	gz, err := compress(data, func(w io.Writer) (io.WriteCloser, error) {
		return gzip.NewWriterLevel(w, gzip.BestCompression)
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(name+".br", br, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(name+".gz", gz, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes, brotli %d, gzip %d\n", name, len(data), len(br), len(gz))
	return nil
}

func compress(data []byte, newWriter func(io.Writer) (io.WriteCloser, error)) ([]byte, error) {
	var buf bytes.Buffer
	w, err := newWriter(&buf)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

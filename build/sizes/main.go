// Command sizes builds schedlab's two WebAssembly modules as they ship
// (build/wasmsize), prints their sizes against their budgets and, with
// -docs, writes the table into docs/development.md (`make sizes`). It
// exits with status 1 when a module is over its budget. Run it from the
// repository's root.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedlab/schedlab/build/wasmsize"
)

func main() {
	docs := flag.Bool("docs", false, "write the table into "+wasmsize.DocFile)
	flag.Parse()
	if err := run(*docs); err != nil {
		fmt.Fprintln(os.Stderr, "sizes:", err)
		os.Exit(1)
	}
}

func run(docs bool) error {
	root, err := wasmsize.Root()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "schedlab-sizes")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Println("sizes: building the two WebAssembly modules (a few minutes the first time)")
	var ms []wasmsize.Measured
	over := false
	for _, m := range wasmsize.Modules {
		out := filepath.Join(tmp, m.File)
		if err := m.Build(context.Background(), root, out); err != nil {
			return err
		}
		data, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		s, err := wasmsize.Measure(data)
		if err != nil {
			return err
		}
		ms = append(ms, wasmsize.Measured{Module: m, Sizes: s})
		served := m.ServedSize(s)
		verdict := "within"
		if served > m.Budget {
			verdict, over = "OVER", true
		}
		fmt.Printf("%-12s %11d bytes, gzip -9 %10d, brotli 6 %10d, gzip -6 %10d: %s its budget of %d bytes %s (%d to spare)\n",
			m.File, s.Raw, s.Gzip, s.Brotli, s.Gzip6, verdict, m.Budget, m.Served, m.Budget-served)
	}
	if docs {
		file := filepath.Join(root, wasmsize.DocFile)
		doc, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		out, err := wasmsize.Splice(string(doc), wasmsize.Table(ms))
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			return err
		}
		fmt.Println("sizes: wrote the table into", wasmsize.DocFile)
	}
	if over {
		return fmt.Errorf("a module is over its budget (see build/wasmsize)")
	}
	return nil
}

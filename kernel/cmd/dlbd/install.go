package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/dlbd/dlbd/kernel/kernelspec"
)

func runInstall(ctx context.Context, args []string) error {
	fs := newFlagSet("install")
	repo := fs.String("repo", "", "root of the dlbd checkout (default: the one containing the working directory)")
	jdir := fs.String("jupyter-dir", "", "Jupyter data directory (default <repo>/.jupyter)")
	env := envFlags{}
	fs.Var(env, "env", "extra KEY=VALUE for the kernel's environment (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *repo != "" {
		abs, err := filepath.Abs(*repo)
		if err != nil {
			return err
		}
		*repo = abs
	}
	o := kernelspec.InstallOptions{RepoDir: *repo, JupyterDir: *jdir, Env: env}
	if err := kernelspec.Install(ctx, o); err != nil {
		return err
	}
	dir, _ := o.SpecDir()
	fmt.Printf("installed kernelspec %q (%s) in %s\n", kernelspec.Name, kernelspec.DisplayName, dir)
	return nil
}

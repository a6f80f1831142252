package main

import (
	"context"
	"errors"
)

func runDoctor(ctx context.Context, args []string) error {
	return errors.New("doctor: not built yet")
}

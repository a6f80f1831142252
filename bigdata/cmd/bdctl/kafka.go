package main

import "context"

func kafkaCmd(ctx context.Context, verb string) error { return usage() }

func cellLatency(ctx context.Context, kernelName string, runs int) error { return usage() }

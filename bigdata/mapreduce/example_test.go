package mapreduce_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/dlbd/dlbd/bigdata/mapreduce"
)

func ExampleRun() {
	dir, _ := os.MkdirTemp("", "dfs")
	defer os.RemoveAll(dir)
	d, _ := mapreduce.New(mapreduce.Config{Dir: dir, Nodes: 3, BlockSize: 16, Replication: 2})
	d.Put("libro.txt", strings.NewReader("el dato es el rey\nel dato manda\n"))
	rep, err := mapreduce.Run(context.Background(), d, "libro.txt", mapreduce.WordCount(2), mapreduce.RunConfig{})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.MapTasks, "map tasks;", "el:", rep.Output["el"], "dato:", rep.Output["dato"], "manda:", rep.Output["manda"])
	// Output: 2 map tasks; el: 3 dato: 2 manda: 1
}

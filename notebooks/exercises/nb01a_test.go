package exercises

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/bigdata/mapreduce"
)

// nb01aCorpus writes a corpus of words words and stores it in a DFS as the
// notebook does (4 nodes, 3 replicas, blocks small enough to have many).
func nb01aCorpus(t *testing.T, words int) (string, mapreduce.Config, *mapreduce.DFS) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "corpus.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := mapreduce.Corpus(f, words, 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cfg := mapreduce.Config{Nodes: 4, BlockSize: 16 << 10, Replication: 3}
	c := cfg
	c.Dir = filepath.Join(dir, "dfs")
	d, err := mapreduce.New(c)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := os.Open(path)
	defer in.Close()
	if _, err := d.Put("corpus.txt", in); err != nil {
		t.Fatal(err)
	}
	return path, cfg, d
}

func TestNodesThatMayFail(t *testing.T) {
	corpus, cfg, _ := nb01aCorpus(t, 20_000)
	nb01Expect(t, "reference (Replication − 1)", NodesThatMayFail(cfg.Replication-1, cfg, corpus), "right", "")
	nb01Expect(t, "all replicas", NodesThatMayFail(3, cfg, corpus), "wrong", "se queda sin ninguna copia")
	nb01Expect(t, "too few", NodesThatMayFail(1, cfg, corpus), "wrong", "Prueba con más")
	nb01Expect(t, "blank", NodesThatMayFail(-1, cfg, corpus), "blank", "Prueba con más")
	one := cfg
	one.Replication = 1
	nb01Expect(t, "one replica: no node may fail", NodesThatMayFail(0, one, corpus), "right", "")
	nb01Expect(t, "missing corpus", NodesThatMayFail(2, cfg, filepath.Join(t.TempDir(), "no")), "wrong", "no he podido")
}

// nb01aPorInicial is the reference solution of exercise 2.
func nb01aPorInicial() mapreduce.Job {
	return mapreduce.Job{
		Map: func(linea string, emit func(string, int64)) {
			for _, w := range mapreduce.Words(linea) {
				emit(string([]rune(w)[:1]), 1)
			}
		},
		Reduce: func(_ string, valores []int64) int64 {
			var s int64
			for _, v := range valores {
				s += v
			}
			return s
		},
	}
}

func TestInitialLetterJob(t *testing.T) {
	_, _, d := nb01aCorpus(t, 20_000)
	ctx := context.Background()
	check := func(what string, job mapreduce.Job, want, hint string) {
		t.Helper()
		nb01Expect(t, what, InitialLetterJob(ctx, job, d, "corpus.txt"), want, hint)
	}
	check("reference", nb01aPorInicial(), "right", "")
	withCombiner := nb01aPorInicial()
	withCombiner.Combine = withCombiner.Reduce
	check("reference with a combiner", withCombiner, "right", "")
	check("whole words", mapreduce.WordCount(4), "wrong", "palabras enteras")
	bytes := nb01aPorInicial()
	bytes.Map = func(linea string, emit func(string, int64)) {
		for _, w := range mapreduce.Words(linea) {
			emit(w[:1], 1)
		}
	}
	check("first byte, where no word starts with a non-ASCII letter", bytes, "right", "")
	accents, err := mapreduce.New(mapreduce.Config{Dir: filepath.Join(t.TempDir(), "dfs")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accents.Put("tildes.txt", strings.NewReader("él aprende\nárbol y ámbito\n")); err != nil {
		t.Fatal(err)
	}
	nb01Expect(t, "first byte", InitialLetterJob(ctx, bytes, accents, "tildes.txt"), "wrong", "primera runa")
	nb01Expect(t, "reference, accents", InitialLetterJob(ctx, nb01aPorInicial(), accents, "tildes.txt"), "right", "")
	ones := nb01aPorInicial()
	ones.Reduce = func(string, []int64) int64 { return 1 }
	check("reduce does not add", ones, "wrong", "Reduce debe sumar")
	panics := nb01aPorInicial()
	panics.Map = func(linea string, emit func(string, int64)) { emit(string(mapreduce.Words(linea)[99]), 1) }
	check("map panics", panics, "wrong", "pánico")
	check("blank", mapreduce.Job{}, "blank", "pánico")
	check("blank reduce", mapreduce.Job{Map: nb01aPorInicial().Map}, "blank", "pánico")
}

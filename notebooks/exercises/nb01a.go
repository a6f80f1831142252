package exercises

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dlbd/dlbd/bigdata/mapreduce"
)

// NodesThatMayFail checks exercise 1 of 01a-mapreduce-y-spark: how many nodes
// of a DFS of configuration cfg may die at once, whichever they are, without
// losing a block. It stores the file corpus in a new DFS (in a temporary
// directory, removed on return), finds from the placement of the replicas the
// smallest set of nodes that holds every replica of some block, and kills those
// nodes for real to show that block lost. A blank answer is negative.
func NodesThatMayFail(answer int, cfg mapreduce.Config, corpus string) Result {
	const label = "Ejercicio 1"
	if answer < 0 {
		return blank(label, "Escribe en respuesta1 cuántos nodos pueden morir a la vez sin perder ningún bloque.")
	}
	lost, err := nb01aFatalNodes(cfg, corpus)
	if err != nil {
		return wrong(label, "no he podido montar el DFS de prueba: %v", err)
	}
	safe := len(lost.nodes) - 1
	switch {
	case answer == safe:
		return correct(label, "con Replication: %d, el DFS aguanta %s a la vez (Replication − 1); al matar de verdad los nodos %v se pierde el bloque %d, con réplicas en %v.",
			lost.replication, nb01aDead(safe), lost.nodes, lost.block.Index, lost.block.Replicas)
	case answer > safe:
		return wrong(label, "con %s ya se puede perder un bloque: al matar los nodos %v, el bloque %d (réplicas en %v) se queda sin ninguna copia.",
			nb01aDead(safe+1), lost.nodes, lost.block.Index, lost.block.Replicas)
	}
	return wrong(label, "con %s no se pierde nada, sean cuales sean los nodos: cada bloque tiene %d réplicas en nodos distintos y alguna sigue viva. Prueba con más.",
		nb01aDead(answer), lost.replication)
}

// nb01aDead says "n nodos caídos" in Spanish, with the singular and zero.
func nb01aDead(n int) string {
	switch n {
	case 0:
		return "ningún nodo caído"
	case 1:
		return "un nodo caído"
	}
	return fmt.Sprintf("%d nodos caídos", n)
}

// nb01aLoss is the smallest set of nodes whose death loses a block.
type nb01aLoss struct {
	nodes       []int
	block       mapreduce.Block
	replication int
}

// nb01aFatalNodes stores corpus in a new DFS of configuration cfg, finds the
// smallest set of nodes that holds all the replicas of a block (the first in
// lexicographic order), kills them and checks that the block has no live
// replica left.
func nb01aFatalNodes(cfg mapreduce.Config, corpus string) (nb01aLoss, error) {
	dir, err := os.MkdirTemp("", "dlbd-ejercicio-01a-")
	if err != nil {
		return nb01aLoss{}, err
	}
	defer os.RemoveAll(dir)
	cfg.Dir = dir
	d, err := mapreduce.New(cfg)
	if err != nil {
		return nb01aLoss{}, err
	}
	in, err := os.Open(corpus)
	if err != nil {
		return nb01aLoss{}, err
	}
	f, err := d.Put("corpus", in)
	if err = errors.Join(err, in.Close()); err != nil {
		return nb01aLoss{}, err
	}
	nodes := d.Config().Nodes
	if nodes > 20 {
		return nb01aLoss{}, fmt.Errorf("%d nodos son demasiados para probar todas las combinaciones (20 como mucho)", nodes)
	}
	best := nb01aLoss{replication: d.Config().Replication}
	for set := 1; set < 1<<nodes; set++ {
		k := 0
		for s := set; s > 0; s &= s - 1 {
			k++
		}
		if best.nodes != nil && k >= len(best.nodes) {
			continue
		}
		for _, b := range f.Blocks {
			if !slices.ContainsFunc(b.Replicas, func(n int) bool { return set&(1<<n) == 0 }) {
				best.nodes, best.block = nil, b
				for n := range nodes {
					if set&(1<<n) != 0 {
						best.nodes = append(best.nodes, n)
					}
				}
				break
			}
		}
	}
	if best.nodes == nil {
		return best, fmt.Errorf("el fichero no tiene bloques")
	}
	for _, n := range best.nodes {
		if err := d.Kill(n); err != nil {
			return best, err
		}
	}
	if live := d.LiveReplicas(best.block); len(live) > 0 {
		return best, fmt.Errorf("el bloque %d sigue vivo en %v tras matar %v", best.block.Index, live, best.nodes)
	}
	return best, nil
}

// InitialLetterJob checks exercise 2 of 01a-mapreduce-y-spark: job, the
// student's MapReduce Job, must count how many words of file (on d) start with
// each letter: the key is the first letter (rune) of each word, the value its
// count. The expected counts are mapreduce.WordCount's, summed by initial.
// The student's Map, Combine and Reduce run with their panics recovered: a
// panic in a task's goroutine would otherwise end the kernel. A blank answer
// has no Map or no Reduce.
func InitialLetterJob(ctx context.Context, job mapreduce.Job, d *mapreduce.DFS, file string) Result {
	const label = "Ejercicio 2"
	if job.Map == nil || job.Reduce == nil {
		return blank(label, "Rellena Map y Reduce en porInicial: Map emite un par (clave, valor) por palabra de la línea y Reduce combina los valores de una clave. mapreduce.WordCount (bigdata/mapreduce/wordcount.go) es un Job completo que puedes tomar como modelo.")
	}
	words, err := mapreduce.Run(ctx, d, file, mapreduce.WordCount(4), mapreduce.RunConfig{})
	if err != nil {
		return wrong(label, "no he podido contar las palabras de referencia: %v", err)
	}
	want := map[string]int64{}
	for w, n := range words.Output {
		r, _ := utf8.DecodeRuneInString(w)
		want[string(r)] += n
	}
	guarded, panicked := nb01aGuard(job)
	rep, err := mapreduce.Run(ctx, d, file, guarded, mapreduce.RunConfig{})
	switch {
	case panicked() != nil:
		return wrong(label, "tu función entró en pánico: %v", panicked())
	case err != nil:
		return wrong(label, "el trabajo falló: %v", err)
	case maps.Equal(rep.Output, want):
		top := slices.SortedFunc(maps.Keys(want), func(a, b string) int { return int(want[b] - want[a]) })[0]
		return correct(label, "%d iniciales distintas; la más frecuente es «%s», con %s palabras.", len(want), top, thousands(int(want[top])))
	case maps.Equal(rep.Output, words.Output):
		return wrong(label, "tu trabajo cuenta palabras enteras: la clave es solo la primera letra de cada palabra.")
	}
	for k := range rep.Output {
		if !utf8.ValidString(k) {
			return wrong(label, "la clave %q no es una letra entera: w[:1] toma el primer byte, y una letra con tilde ocupa 2 bytes en UTF-8. Toma la primera runa, []rune(w)[0].", k)
		}
	}
	if slices.Equal(slices.Sorted(maps.Keys(rep.Output)), slices.Sorted(maps.Keys(want))) {
		k := slices.Sorted(maps.Keys(want))[0]
		return wrong(label, "las claves están bien, pero no las cuentas (para «%s» das %s y son %s): Reduce debe sumar todos los valores de la clave (y Combine, si lo usas, también).", k, thousands(int(rep.Output[k])), thousands(int(want[k])))
	}
	return wrong(label, "esperaba %d claves, una por inicial (%s…), y tu trabajo da %d (%s…).", len(want), nb01aFirstKeys(want), len(rep.Output), nb01aFirstKeys(rep.Output))
}

// nb01aGuard returns job with Map, Combine and Reduce that recover a panic
// (Reduce and Combine then return 0) and the function that reports the first.
func nb01aGuard(job mapreduce.Job) (mapreduce.Job, func() error) {
	var mu sync.Mutex
	var first error
	record := func(err error) {
		if err != nil {
			mu.Lock()
			if first == nil {
				first = err
			}
			mu.Unlock()
		}
	}
	m := job.Map
	job.Map = func(line string, emit func(string, int64)) { record(catch(func() { m(line, emit) })) }
	guard := func(f func(string, []int64) int64) func(string, []int64) int64 {
		if f == nil {
			return nil
		}
		return func(k string, vs []int64) (v int64) {
			record(catch(func() { v = f(k, vs) }))
			return v
		}
	}
	job.Combine, job.Reduce = guard(job.Combine), guard(job.Reduce)
	return job, func() error { mu.Lock(); defer mu.Unlock(); return first }
}

// nb01aFirstKeys lists the first keys of m in order, for a hint.
func nb01aFirstKeys(m map[string]int64) string {
	k := slices.Sorted(maps.Keys(m))
	return strings.Join(k[:min(len(k), 5)], ", ")
}

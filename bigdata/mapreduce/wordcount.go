package mapreduce

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words splits a line into lower-case words: maximal runs of Unicode letters. It is the
// rule that bigdata/spark's word count writes in Spark SQL as
// explode(split(lower(value), '[^\p{L}]+')), so both count the same words.
func Words(line string) []string {
	return strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return !unicode.IsLetter(r) })
}

// WordCount is the MapReduce paper's example: map emits (word, 1) for every word, the
// combiner and the reducer add.
func WordCount(reducers int) Job {
	sum := func(_ string, vs []int64) int64 {
		var s int64
		for _, v := range vs {
			s += v
		}
		return s
	}
	return Job{
		Map: func(line string, emit func(string, int64)) {
			for _, w := range Words(line) {
				emit(w, 1)
			}
		},
		Combine:  sum,
		Reduce:   sum,
		Reducers: reducers,
	}
}

// courseText is the opening of the course text ("¿Qué es Big Data?"), the vocabulary of
// Corpus.
const courseText = `Big Data se refiere a conjuntos de datos cuyo volumen, velocidad de generación o
variedad hacen que las herramientas tradicionales de procesamiento sean insuficientes. El término
no describe sólo un tamaño, sino un paradigma: nuevas arquitecturas, algoritmos y tecnologías
diseñadas para capturar, almacenar, procesar y analizar datos a escalas antes inimaginables.
El concepto de Big Data nació a principios de los años 2000, impulsado por la necesidad de empresas
como Google, Yahoo y Facebook de gestionar cantidades de información que crecían a un ritmo
exponencial. Google fue la pionera: para indexar toda la web necesitaba un sistema de
almacenamiento y procesamiento radicalmente diferente a las bases de datos relacionales que
existían hasta entonces. Sus publicaciones internas —el Google File System (GFS, 2003) y MapReduce
(2004)— sentaron las bases técnicas de lo que hoy conocemos como el ecosistema Big Data.`

// Vocabulary returns the distinct words of the course's opening paragraphs, in order of
// first appearance (the ranks Corpus draws from).
func Vocabulary() []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range Words(courseText) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Corpus writes a synthetic text of words words, 12 per line, drawn from Vocabulary with
// Zipf's law (the k-th word has probability ∝ 1/(k+1)^1.1, as in natural text) from a PCG
// generator seeded with seed. Capitals and punctuation are sprinkled in so that the
// tokenizer has work to do.
func Corpus(w io.Writer, words int, seed uint64) error {
	vocab := Vocabulary()
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	z := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	bw := bufio.NewWriter(w)
	for i := range words {
		word := vocab[z.Uint64()]
		if r.IntN(10) == 0 {
			first, size := utf8.DecodeRuneInString(word)
			word = string(unicode.ToUpper(first)) + word[size:]
		}
		bw.WriteString(word)
		switch {
		case i%12 == 11:
			bw.WriteString(".\n")
		case r.IntN(8) == 0:
			bw.WriteString(", ")
		default:
			bw.WriteString(" ")
		}
	}
	bw.WriteString("\n")
	return bw.Flush()
}

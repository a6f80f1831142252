package exercises

import "slices"

// ShardLoader is what StepsPerRank reads of a *shards.Loader: its steps per
// epoch and the row count of each shard. It is an interface so that this
// package does not link the Parquet reader.
type ShardLoader interface {
	Len() int
	Rows() []int64
}

// StepsPerRank checks exercise 1 of 01d-pipelines-de-datos-para-dl: the steps
// per epoch that every rank takes when world ranks share the shards of l in
// batches of batch rows. The expected value is l.Len(), where l is a loader
// opened with World world and BatchSize batch; the hints recognise the mean
// rank instead of the worst one, a rounded-up last batch and the steps of a
// single rank. A blank answer is negative.
func StepsPerRank(steps int, l ShardLoader, world, batch int) Result {
	const label = "Ejercicio 1"
	if steps < 0 {
		return blank(label, "Escribe en pasos8 los pasos por época de cada rank con %d ranks y lotes de %d, a partir de las filas de los fragmentos.", world, batch)
	}
	if world < 1 || batch < 1 {
		return wrong(label, "la comprobación necesita un número de ranks y un tamaño de lote positivos (recibió %d y %d).", world, batch)
	}
	want := l.Len()
	if steps == want {
		return correct(label, "%d pasos por época en cada uno de los %d ranks.", want, world)
	}
	rows := slices.Sorted(slices.Values(l.Rows()))
	var total, least int64
	for i, n := range rows {
		total += n
		if i < (len(rows)+world-1)/world {
			least += n
		}
	}
	b := int64(batch)
	switch int64(steps) {
	case (least + b - 1) / b:
		return wrong(label, "casi: el último lote, incompleto, no se usa (redondea hacia abajo).")
	case total / int64(world) / b, (total/int64(world) + b - 1) / b:
		return wrong(label, "eso sale de repartir las filas por igual, la media; pero cada rank lee fragmentos enteros y todos deben dar los mismos pasos, así que manda el rank al que le tocan los fragmentos más pequeños.")
	case total / b:
		return wrong(label, "esos son los pasos de un solo rank que lo lee todo; aquí hay %d ranks.", world)
	}
	return wrong(label, "no son %d. Ordena las filas de los fragmentos (Rows() del cargador), suma las de los %d más pequeños (los que podrían tocarle a un rank) y divide entre %d.", steps, (len(rows)+world-1)/world, batch)
}

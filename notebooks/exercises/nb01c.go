package exercises

import (
	"context"
	"time"

	"github.com/dlbd/dlbd/bigdata/stream"
)

// MinWatermarkLateness checks exercise 1 of 01c-streaming: the smallest
// watermark lateness, in ms and a multiple of 50, with which 1 s event-time
// windows over events (in arrival order) drop no event as late. It runs the
// events through stream.Windower with the answer and with 50 ms less. A blank
// answer is negative.
func MinWatermarkLateness(ms int, events []stream.Event) Result {
	const label = "Ejercicio 1"
	if ms < 0 {
		return blank(label, "Escribe en retraso el menor retraso permitido, en ms y múltiplo de 50, con el que no se descarta ningún evento.")
	}
	if ms%50 != 0 {
		return wrong(label, "%d no es múltiplo de 50: prueba con los múltiplos de 50 ms.", ms)
	}
	late := func(ms int) int {
		w := stream.NewWindower(time.Second, time.Duration(ms)*time.Millisecond)
		for _, e := range events {
			w.Add(e)
		}
		return w.Late
	}
	if n := late(ms); n > 0 {
		return wrong(label, "con %d ms aún se descartan %s de %s eventos: sube el retraso.", ms, thousands(n), thousands(len(events)))
	}
	if ms >= 50 && late(ms-50) == 0 {
		return wrong(label, "con %d ms no se pierde nada, pero con %d ms tampoco: busca el menor. La marca de agua parte del mayor tiempo de evento visto, y ese evento también pudo llegar con retraso.", ms, ms-50)
	}
	if ms == 0 {
		return correct(label, "con estos eventos ni siquiera hace falta retraso.")
	}
	return correct(label, "%d ms es el menor retraso sin pérdidas (con %d ms se descartan %s eventos); a cambio, cada ventana se emite %d ms más tarde.", ms, ms-50, thousands(late(ms-50)), ms)
}

// MicroBatchMedianLatency checks exercise 2 of 01c-streaming: the student's
// estimate, in ms, of the median latency of a pipeline that handles a
// micro-batch every second. It runs that pipeline for real, stream.Run with
// events on broker b (topic "ejercicio2", 2,000 events/s, Trigger 1 s), and
// accepts an estimate within 25 % of the measured median; the hints do not
// give the measure away. b is an interface so that this package links no
// broker. A blank answer is negative, and runs nothing.
func MicroBatchMedianLatency(ctx context.Context, b stream.Broker, events []stream.Event, ms float64) Result {
	const label = "Ejercicio 2"
	if ms < 0 {
		return blank(label, "Escribe en mediana la latencia mediana que esperas, en ms, si el consumidor procesa un micro-lote cada segundo.")
	}
	const trigger = time.Second
	rep, err := stream.Run(ctx, b, events, stream.Config{Topic: "ejercicio2", Rate: 2000, Trigger: trigger})
	if err != nil {
		return wrong(label, "no he podido medir el pipeline: %v", err)
	}
	measured := float64(rep.Percentile(50).Microseconds()) / 1e3
	switch {
	case within(ms, measured, 0.25):
		return correct(label, "medida: %.0f ms, unos %.0f ms de espera media hasta el siguiente trigger (la mitad del intervalo) más el procesamiento.", measured, float64(trigger.Milliseconds())/2)
	case within(ms, float64(trigger.Milliseconds()), 0.1):
		return wrong(label, "un evento no espera el intervalo entero: llega en un instante al azar dentro de él. ¿Cuánto falta de media hasta el siguiente trigger?")
	case ms < measured/4:
		return wrong(label, "eso es la latencia de un pipeline evento a evento; con micro-lotes, cada evento espera al siguiente trigger.")
	case ms < measured:
		return wrong(label, "%.0f ms se queda corto: piensa en cuánto espera de media un evento que llega en un instante al azar del intervalo de 1 s.", ms)
	}
	return wrong(label, "%.0f ms es demasiado: piensa en cuánto espera de media un evento que llega en un instante al azar del intervalo de 1 s.", ms)
}

package dl_test

// Values recorded once from NewGenerator(0): the generator must give these
// numbers on every machine, architecture and Go version.
var (
	pinnedRand0  = []float64{0.6012629994179048, 0.7477740925472398}                      // Rand(2), Float64
	pinnedRandn0 = []float64{0.5981026483626094, 1.4634599192204392, -0.8950525532379916} // Randn(3), Float64
)

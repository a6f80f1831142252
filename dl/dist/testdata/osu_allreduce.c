/* The C anchor of BenchmarkMPIAllReduce: MPI_Allreduce of float buffers,
 * timed like OSU's osu_allreduce (warm-up, barrier, MPI_Wtime around a
 * loop), with Open MPI's own library and no binding in between.
 * Usage: mpirun -np N osu_allreduce BYTES ITERS; rank 0 prints
 * "us <microseconds per call>". Written for dlbd (Debian packages no OSU
 * binary). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	long bytes = argc > 1 ? atol(argv[1]) : 1 << 20;
	int iters = argc > 2 ? atoi(argv[2]) : 100;
	int n = (int)(bytes / sizeof(float)), rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	float *buf = malloc(bytes);
	for (int i = 0; i < n; i++) buf[i] = (float)(i % 7);
	for (int i = 0; i < 2; i++) MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	for (int i = 0; i < iters; i++) MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
	double t = (MPI_Wtime() - t0) / iters, max;
	MPI_Reduce(&t, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0) printf("us %.3f\n", max * 1e6);
	free(buf);
	MPI_Finalize();
	return 0;
}

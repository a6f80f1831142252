// Package scaling measures a scaling law: it trains students of several
// sizes on a teacher network's task and fits L(N) = a·N^(−α) + c to their
// test losses, the experiment behind Kaplan et al.'s L(N), in seconds.
//
// # Overview
//
// [Run] trains one two-hidden-layer ReLU MLP per width of
// [ExperimentConfig].Widths on the same data set of a data.Teacher (a fixed
// random network), with Adam and warmup + cosine, and returns a [Result]:
// parameters N and test loss of every student. [FitPowerLaw] fits a
// [PowerLaw] to those points with gonum's optimize package (BFGS on the
// squared error of log L). Together:
//
//	res, err := scaling.Run(scaling.ExperimentConfig{})
//	law, err := scaling.FitPowerLaw(res.Params(), res.TestLoss())
//	fmt.Println(law.Alpha) // the exponent, to compare with Kaplan's α_N = 0.076
//
// The defaults take about ten seconds on two cores. Everything is
// deterministic from the seeds (only Result.Elapsed varies).
//
// # Errors
//
// Bad input returns errors: FitPowerLaw's wrap [ErrFit] (too few points,
// mismatched lengths, values that are not positive and finite), Run's name
// the configuration field and the fix. A bad teacher configuration panics
// in data.NewTeacher, and PowerLaw.Curve, a chart helper, panics on a range
// it cannot sample.
//
// # Concepts
//
// A power law L = a·N^(−α) is a straight line of slope −α on log-log axes;
// the constant c bends the line flat where the loss stops falling. Fitting
// on log L weighs every decade of loss alike. The exponent of a task is a
// property of the task: for a teacher with d-dimensional inputs theory
// predicts α ≈ 4/d (Sharma & Kaplan), far above the α_N ≈ 0.076 of
// language models, whose data are much higher-dimensional.
//
// Course: "¿Por qué el Deep Learning necesita Big Data?" and "Leyes de escala
// (Scaling Laws)".
// Paper: Kaplan et al. 2020, Scaling Laws for Neural Language Models
// (arXiv:2001.08361); Sharma & Kaplan 2020, A Neural Scaling Law from the
// Dimension of the Data Manifold (arXiv:2004.10802; JMLR 23(9), 2022).
package scaling

package io.mmgr.stream.frechet;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the live FID costs per row: adding one sample to the running statistic (O(d^2)) and one distance
 * (a d x d symmetric eigenvalue problem), at I3D's 400 (FVD), 1024 and Inception's 2048 (FID).
 * mvn -P jmh -DskipTests test-compile exec:exec -Djmh.args="FrechetBenchmark -f 1"
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
public class FrechetBenchmark {

    @Param({"400", "1024", "2048"})
    public int dims;

    RunningFrechet running;
    double[][] samples;
    int next;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom r = new SplittableRandom(1);
        int n = dims + 50;
        Moments reference = new Moments(dims);
        double[] x = new double[dims];
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < dims; i++) {
                x[i] = r.nextGaussian() * (1 + 0.001 * i);
            }
            reference.add(x);
        }
        running = reference.statistics().prepare().running();
        samples = new double[64][dims];
        for (double[] s : samples) {
            for (int i = 0; i < dims; i++) {
                s[i] = r.nextGaussian() + 0.1;
            }
        }
        for (int k = 0; k < n; k++) {
            running.add(samples[k % samples.length]);
        }
    }

    /** One sample in, the previous one out again: a re-scored sample, the worst case of an update. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long replaceSample() {
        double[] s = samples[next++ % samples.length];
        running.add(s);
        running.remove(s);
        return running.samples();
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Double distance() {
        return running.distance();
    }
}

/*
 * CPU-bound workload used to record the gperftools fixtures with the real
 * profiler (see ../make-fixtures.sh).  It is never built by Meson: it only
 * exists so the fixtures can be re-recorded and their origin is auditable.
 *
 * Usage: workload SECONDS [api PATH | flush]
 *   SECONDS   CPU time to burn; 0 exits at once (the "too short" fixture)
 *   api PATH  profile through ProfilerStart/ProfilerStop instead of relying
 *             on the CPUPROFILE environment variable
 *   flush     call ProfilerFlush() every quarter second; the profiler keeps
 *             samples in memory until exit, so without this a process killed
 *             by SIGKILL leaves an empty file, and with it the file holds
 *             records but no trailer and no maps
 *
 * The call graph is deliberately varied so readers and exporters see shapes
 * that occur in real programs: one leaf reached from several callers, plain
 * and mutual recursion (the same PC many times in one stack), calls through
 * a function pointer, and a deep non-recursive chain.
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gperftools/profiler.h>

/* Keeps -O1 from folding away work whose result nobody reads. */
static volatile unsigned long sink;

#define NOINLINE __attribute__((noinline))

NOINLINE static unsigned long mix_leaf(unsigned long x, int rounds)
{
    int i;
    for (i = 0; i < rounds; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    return x;
}

/* Two distinct callers of the same leaf: folded output must keep them apart. */
NOINLINE static unsigned long caller_left(unsigned long x)
{
    return mix_leaf(x, 4000) ^ 1;
}

NOINLINE static unsigned long caller_right(unsigned long x)
{
    return mix_leaf(x, 2000) ^ 2;
}

NOINLINE static unsigned long fib(unsigned n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

NOINLINE static unsigned long walk_odd(unsigned n, unsigned long acc);

NOINLINE static unsigned long walk_even(unsigned n, unsigned long acc)
{
    if (n == 0)
        return mix_leaf(acc, 3000);
    return walk_odd(n - 1, acc + n);
}

NOINLINE static unsigned long walk_odd(unsigned n, unsigned long acc)
{
    if (n == 0)
        return mix_leaf(acc, 1000);
    return walk_even(n - 1, acc ^ n);
}

NOINLINE static unsigned long sum_bytes(unsigned long seed)
{
    unsigned char buf[4096];
    unsigned long s = 0;
    size_t i;
    memset(buf, (int)(seed & 0xff), sizeof buf);
    for (i = 0; i < sizeof buf; i++)
        s += buf[i] * (i | 1);
    return s;
}

typedef unsigned long (*step_fn)(unsigned long);

/* Indirect calls: the caller's return address is all that links the frames. */
static const step_fn steps[] = { caller_left, caller_right, sum_bytes };

NOINLINE static unsigned long dispatch(unsigned long x)
{
    size_t i;
    for (i = 0; i < sizeof steps / sizeof steps[0]; i++)
        x = steps[i](x);
    return x;
}

NOINLINE static unsigned long chain_5(unsigned long x) { return mix_leaf(x, 2500) + sum_bytes(x); }
NOINLINE static unsigned long chain_4(unsigned long x) { return chain_5(x + 4) + 1; }
NOINLINE static unsigned long chain_3(unsigned long x) { return chain_4(x + 3) + 1; }
NOINLINE static unsigned long chain_2(unsigned long x) { return chain_3(x + 2) + 1; }
NOINLINE static unsigned long chain_1(unsigned long x) { return chain_2(x + 1) + 1; }

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

NOINLINE static void run_for(double seconds)
{
    double start = cpu_seconds();
    unsigned long x = 1;
    unsigned round = 0;

    while (cpu_seconds() - start < seconds) {
        switch (round++ % 5) {
        case 0: x += caller_left(x); break;
        case 1: x += fib(18); break;
        case 2: x += walk_even(40 + (round % 7), x); break;
        case 3: x += dispatch(x); break;
        default: x += chain_1(x); break;
        }
    }
    sink = x;
}

int main(int argc, char **argv)
{
    double seconds;

    if (argc < 2) {
        fprintf(stderr, "usage: %s SECONDS [api PATH | flush]\n", argv[0]);
        return 2;
    }
    seconds = atof(argv[1]);

    if (argc >= 4 && strcmp(argv[2], "api") == 0) {
        if (!ProfilerStart(argv[3])) {
            fprintf(stderr, "ProfilerStart(%s) failed\n", argv[3]);
            return 1;
        }
        run_for(seconds);
        ProfilerStop();
        return 0;
    }

    if (argc >= 3 && strcmp(argv[2], "flush") == 0) {
        double done;
        for (done = 0; done < seconds; done += 0.25) {
            run_for(0.25);
            ProfilerFlush();
        }
        return 0;
    }

    run_for(seconds);
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A CPU-bound workload for the symbolization tests (tests/symbolize/): a few
 * functions calling each other so that stacks have depth and names to check.
 * Built with -DINLINE_HELPERS at -O2, its helpers are always_inline and the
 * profile's PCs sit in code inlined into their callers.
 *
 * Usage: workload SECONDS
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef INLINE_HELPERS
#define HELPER static inline __attribute__((always_inline))
#else
#define HELPER static __attribute__((noinline))
#endif

static volatile uint64_t sink;

HELPER uint64_t mix_bits(uint64_t x)
{
	for (int i = 0; i < 64; i++)
		x = (x ^ (x >> 31)) * 0x9E3779B97F4A7C15ull + (uint64_t)i;
	return x;
}

HELPER uint64_t hash_block(uint64_t seed)
{
	uint64_t h = seed;
	for (int i = 0; i < 32; i++)
		h = mix_bits(h + (uint64_t)i);
	return h;
}

static __attribute__((noinline)) uint64_t sum_squares(uint64_t n)
{
	uint64_t s = 0;
	for (uint64_t i = 0; i < n; i++)
		s += i * i + (s >> 7);
	return s;
}

static __attribute__((noinline)) void busy_hash(int rounds)
{
	for (int r = 0; r < rounds; r++)
		sink += hash_block((uint64_t)r);
}

static __attribute__((noinline)) void busy_sum(int rounds)
{
	for (int r = 0; r < rounds; r++)
		sink += sum_squares(20000);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	double end = now() + secs;
	while (now() < end) {
		busy_hash(40);
		busy_sum(20);
	}
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The quick start's workload (tools/quickstart.sh): a program that keeps the
 * CPU busy in a few recognisable places, so that its CPU profile, once its
 * frames are named, reads like its source: counting primes, sorting numbers
 * and checksumming text.
 *
 * Usage: busy SECONDS
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile uint64_t result;

static __attribute__((noinline)) int is_prime(uint32_t n)
{
	if (n < 2)
		return 0;
	for (uint32_t d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

static __attribute__((noinline)) uint32_t count_primes(uint32_t limit)
{
	uint32_t count = 0;
	for (uint32_t n = 0; n < limit; n++)
		count += (uint32_t)is_prime(n);
	return count;
}

static __attribute__((noinline)) void insertion_sort(uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static __attribute__((noinline)) uint32_t sort_numbers(size_t n)
{
	uint32_t *v = malloc(n * sizeof *v), seed = 12345;
	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		v[i] = seed = seed * 1103515245u + 12345u;
	insertion_sort(v, n);
	uint32_t median = v[n / 2];
	free(v);
	return median;
}

static __attribute__((noinline)) uint32_t checksum_text(const char *text, int rounds)
{
	uint32_t crc = 0xFFFFFFFFu;
	size_t len = strlen(text);
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < len; i++) {
			crc ^= (unsigned char)text[i];
			for (int k = 0; k < 8; k++)
				crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
		}
	return ~crc;
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double until = seconds_now() + (argc > 1 ? atof(argv[1]) : 2.0);
	while (seconds_now() < until) {
		result += count_primes(60000);
		result += sort_numbers(3000);
		result += checksum_text("the quick brown fox jumps over the lazy dog", 2000);
	}
	printf("done (%llu)\n", (unsigned long long)result);
	return 0;
}

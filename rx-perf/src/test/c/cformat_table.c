// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * Generates rx-perf/src/test/resources/cformat-g4.tsv, the reference table for CFormatTest.
 *
 * Each row is "precision<TAB>value<TAB>C output": value printed with "%.17g" (round-trips any
 * double), output = printf("%.*g", precision, value) from the C library that ran it.
 * Rows cover edge cases (zero, signs, rounding carries, exact ties, the %f/%e switch at
 * exponents -5/-4 and P-1/P, subnormals, extremes, inf, nan), values shaped like rxperf rates,
 * and seeded pseudo-random doubles, mostly at precision 4 (what rxperf prints) and some at others.
 *
 * Regenerate (glibc, once; the table is committed, the binary is not):
 *   gcc -O1 -Wall -o /tmp/cformat_table rx-perf/src/test/c/cformat_table.c -lm
 *   /tmp/cformat_table > rx-perf/src/test/resources/cformat-g4.tsv
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t state = 0x9e3779b97f4a7c15ULL;

/* xorshift64*: a fixed, seeded sequence so the table is reproducible */
static uint64_t next_random(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
}

static void row(int precision, double value)
{
    printf("%d\t%.17g\t%.*g\n", precision, value, precision, value);
}

int main(void)
{
    static const double edges[] = {
        0.0, -0.0, 1.0, -1.0, 2.0, 10.0, 100.0, 1000.0, 9999.0, 10000.0, 12345.0, 99999.0,
        600.47, 600.45, 600.55, 198.7, 1.5, 2.5, 0.125, 0.375, 1.0005, 1.00049999, 9.9995,
        9.99949, 9.9996, 99.995, 999.95, 999.949, 1000.5, 1234.5, 1235.5, 0.0001, 0.00012345,
        0.000099995, 0.00009999, 0.00001, 1.0e-5, 1.234567e-5, 0.001, 0.01, 0.1, 0.5, 0.99995,
        0.999949, 123456.0, 1234567.0, 1.235e6, 1.0e6, 1.0e7, 1.0e10, 1.0e15, 1.0e16, 1.0e21,
        1.0e22, 1.0e100, 1.7976931348623157e308, 2.2250738585072014e-308, 4.9e-324, 1.0e-300,
        -600.47, -0.00012345, -1.0e-5, -1.235e6, -9.9996, 3.14159265358979, 2.718281828459045,
        0.30000000000000004, 8000.0, 7999.5, 1048576.0, 104857600.0, 838.8608, 1e3, 1.0e-4,
        9.9999e-5, 1.0e-10, 5.0e-5, 12.5, 0.0625, 1.25e-5, 65536.0, 4294967296.0,
    };
    static const int other_precisions[] = { 0, 1, 2, 3, 6, 10, 17 };
    static const double others[] = {
        0.0, 1.0, 0.5, 1.5, 2.5, 0.125, 123.456, 1.0e-5, 9.9999, 99.5, 1.0e6, 123456789.0,
        0.000123456, -2.5, 1.7976931348623157e308,
    };
    size_t i, j;

    printf("# precision\tvalue (%%.17g)\tprintf(\"%%.*g\", precision, value)\n");
    for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
        row(4, edges[i]);
    row(4, INFINITY);
    row(4, -INFINITY);
    row(4, NAN);

    /* random mantissas across decades, the region rates and latencies live in */
    for (i = 0; i < 70; i++) {
        double mantissa = (double) (next_random() >> 11) / 9007199254740992.0;  /* [0,1) */
        int exponent = (int) (next_random() % 41) - 20;
        double value = (mantissa * 9.0 + 1.0) * pow(10.0, exponent);
        row(4, (next_random() & 1) ? -value : value);
    }
    /* random bit patterns: any finite double */
    for (i = 0; i < 40; i++) {
        uint64_t bits = next_random();
        double value;
        memcpy(&value, &bits, sizeof(value));
        if (isnan(value) || isinf(value))
            continue;
        row(4, value);
    }
    /* values just around a 4-digit rounding boundary (…5 in the 5th digit) */
    for (i = 0; i < 20; i++) {
        int base = 1000 + (int) (next_random() % 9000);
        int exponent = (int) (next_random() % 13) - 6;
        row(4, (base + 0.5) * pow(10.0, exponent - 3));
    }
    for (j = 0; j < sizeof(other_precisions) / sizeof(other_precisions[0]); j++)
        for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
            row(other_precisions[j], others[i]);
    return 0;
}

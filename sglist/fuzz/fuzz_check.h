/* SPDX-License-Identifier: MIT */
/*
 * fuzz_check.h - a mismatch with the reference model aborts with a message,
 * which libFuzzer records as a crash and saves the input that caused it.
 */
#ifndef SGLIST_FUZZ_CHECK_H
#define SGLIST_FUZZ_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noreturn, format(printf, 3, 4))) static inline void
fuzz_fail(const char *func, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sglist_fuzz: %s:%d: ", func, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define FUZZ_CHECK(cond, ...)                                       \
	do {                                                        \
		if (!(cond))                                        \
			fuzz_fail(__func__, __LINE__, __VA_ARGS__); \
	} while (0)

#endif /* SGLIST_FUZZ_CHECK_H */

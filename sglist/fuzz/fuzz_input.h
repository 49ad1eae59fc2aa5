/* SPDX-License-Identifier: MIT */
/*
 * fuzz_input.h - reading the fuzzer's bytes as small numbers.
 *
 * An exhausted input reads as zeros, so every decoder terminates and a
 * short input still means something (zero picks each decoder's simplest
 * choice).
 */
#ifndef SGLIST_FUZZ_INPUT_H
#define SGLIST_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline unsigned int in_u8(struct fuzz_in *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static inline unsigned int in_u16(struct fuzz_in *in)
{
	unsigned int lo = in_u8(in);

	return lo | in_u8(in) << 8;
}

static inline uint32_t in_u32(struct fuzz_in *in)
{
	uint32_t lo = in_u16(in);

	return lo | (uint32_t)in_u16(in) << 16;
}

/* A value in [0, @n) (0 when @n is 0), from 16 or 32 bits of input. */
static inline uint32_t in_below(struct fuzz_in *in, uint32_t n)
{
	if (!n)
		return 0;
	return (n <= 0x10000 ? in_u16(in) : in_u32(in)) % n;
}

#endif /* SGLIST_FUZZ_INPUT_H */

// SPDX-License-Identifier: MIT
/*
 * seglen.c - segment lengths of a scatter list: fixed, or drawn from a
 * seeded uniform or log-normal distribution, so a list is reproducible
 * from its seed.
 */
#include <math.h>

#include <dmasim/workload/workload.h>

#define TWO_PI 6.283185307179586

/* splitmix64: small, fast and good enough to pick segment lengths. */
static uint64_t rng_next(struct dmasim_seg_rng *rng)
{
	uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1), never 0 so that log() stays finite. */
static double rng_unit(struct dmasim_seg_rng *rng)
{
	return ((double)(rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
}

static uint64_t clamp_len(double len, const struct dmasim_seg_spec *seg)
{
	double lo = seg->min > 0 ? (double)seg->min : 1.0;
	double hi = (double)seg->max;

	if (len < lo)
		len = lo;
	if (len > hi)
		len = hi;
	return (uint64_t)llround(len);
}

/**
 * dmasim_seg_rng_init - start the length sequence of a list
 * @rng: generator state to initialise
 * @seg: segment specification (its seed is used; a given list's state is
 *       the index of the next segment)
 */
void dmasim_seg_rng_init(struct dmasim_seg_rng *rng,
			 const struct dmasim_seg_spec *seg)
{
	rng->state = seg->dist == DMASIM_SEG_LIST ? 0 : seg->seed;
}

/**
 * dmasim_seg_offset - in-page offset of a list's segment
 * @seg: segment specification
 * @i: index of the segment in the list
 *
 * Return: @seg->offsets[@i] for a given list, else @seg->offset.
 */
uint32_t dmasim_seg_offset(const struct dmasim_seg_spec *seg, unsigned int i)
{
	return seg->dist == DMASIM_SEG_LIST ? seg->offsets[i] : seg->offset;
}

/**
 * dmasim_seg_next_len - length of the next segment of a list
 * @rng: generator state
 * @seg: segment specification
 *
 * Log-normal lengths have mean @seg->bytes: ln(len) ~ N(mu, sigma^2) with
 * mu = ln(bytes) - sigma^2 / 2, clamped to [min, max].
 *
 * Return: segment length in bytes, >= 1.
 */
uint32_t dmasim_seg_next_len(struct dmasim_seg_rng *rng,
			     const struct dmasim_seg_spec *seg)
{
	double mu, z;

	switch (seg->dist) {
	case DMASIM_SEG_UNIFORM:
		return (uint32_t)(seg->min +
				  rng_next(rng) % (seg->max - seg->min + 1));
	case DMASIM_SEG_LOGNORMAL:
		mu = log((double)seg->bytes) - seg->sigma * seg->sigma / 2;
		/* Box-Muller: one standard normal from two uniforms. */
		z = sqrt(-2.0 * log(rng_unit(rng))) *
		    cos(TWO_PI * rng_unit(rng));
		return (uint32_t)clamp_len(exp(mu + seg->sigma * z), seg);
	case DMASIM_SEG_LIST:
		return seg->lengths[rng->state++];
	case DMASIM_SEG_FIXED:
	default:
		return (uint32_t)seg->bytes;
	}
}

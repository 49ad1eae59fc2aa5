// SPDX-License-Identifier: MIT
/*
 * page_alloc.c - the page frame allocator and its placement policies.
 *
 * Frames are tracked in a bitmap (bit set = in use), scanned a 64-bit word
 * at a time, so finding a run costs O(frames / 64) at worst and typically
 * O(1): contiguous placement starts at the lowest free frame, scattered
 * placement at a random frame, where a mostly free RAM has room. A second
 * bitmap remembers the frames ever freed: the others still hold the zeros
 * the host mapping started with, unless their owner wrote them.
 */
#include "mm_internal.h"

#include <string.h>
#include <sys/mman.h>

#define BITS_PER_WORD 64UL

static struct {
	uint64_t *bitmap;
	uint64_t *freed_once; /* bit set = freed since frames_init() */
	unsigned long nr_frames;
	unsigned long nr_free;
	unsigned long lowest_free; /* every frame below it is in use */
	enum sim_mem_placement placement;
	uint64_t rng;
} fa;

static size_t bitmap_bytes(unsigned long nr_frames)
{
	size_t words = (nr_frames + BITS_PER_WORD - 1) / BITS_PER_WORD;

	return PAGE_ALIGN(words * sizeof(uint64_t));
}

/* splitmix64: small, fast and fully determined by the seed. */
static uint64_t next_random(void)
{
	uint64_t z = (fa.rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long align_up(unsigned long x, unsigned long align)
{
	return (x + align - 1) / align * align;
}

/* First frame in [from, end) whose bit in @bitmap equals @set, or @end. */
static unsigned long find_bit_in(const uint64_t *bitmap, unsigned long from,
				 unsigned long end, bool set)
{
	while (from < end) {
		unsigned long w = from / BITS_PER_WORD;
		uint64_t word = set ? bitmap[w] : ~bitmap[w];

		word &= ~0ULL << (from % BITS_PER_WORD);
		if (word) {
			unsigned long pfn =
				w * BITS_PER_WORD +
				(unsigned long)__builtin_ctzll(word);

			return pfn < end ? pfn : end;
		}
		from = (w + 1) * BITS_PER_WORD;
	}
	return end;
}

/* First frame in [from, end) whose bit equals @used, or @end. */
static unsigned long find_bit(unsigned long from, unsigned long end, bool used)
{
	return find_bit_in(fa.bitmap, from, end, used);
}

static void set_bits_in(uint64_t *bitmap, unsigned long pfn,
			unsigned long count, bool used)
{
	unsigned long end = pfn + count;

	while (pfn < end) {
		unsigned long bit = pfn % BITS_PER_WORD;
		unsigned long n = BITS_PER_WORD - bit;
		uint64_t mask;

		if (n > end - pfn)
			n = end - pfn;
		mask = (n == BITS_PER_WORD ? ~0ULL : ((1ULL << n) - 1)) << bit;
		if (used)
			bitmap[pfn / BITS_PER_WORD] |= mask;
		else
			bitmap[pfn / BITS_PER_WORD] &= ~mask;
		pfn += n;
	}
}

static void set_bits(unsigned long pfn, unsigned long count, bool used)
{
	set_bits_in(fa.bitmap, pfn, count, used);
}

/*
 * First free run of @count frames aligned to @count in [from, end), or 0,
 * for a power-of-two @count of at most a word: such a run never straddles
 * two bitmap words, so each word is tested whole. (Stepping from hole to
 * hole instead costs a step per free frame once scattered single pages
 * have broken up most aligned runs.)
 */
static unsigned long find_aligned_group(unsigned long count,
					unsigned long from, unsigned long end)
{
	uint64_t starts = 0;
	unsigned long w, s, i;

	for (i = 0; i < BITS_PER_WORD; i += count)
		starts |= 1ULL << i;
	from = align_up(from, count);
	for (w = from / BITS_PER_WORD; w * BITS_PER_WORD < end; w++) {
		uint64_t free_from = ~fa.bitmap[w]; /* bit i: frames i.. free */

		for (s = 1; s < count; s <<= 1)
			free_from &= free_from >> s;
		free_from &= starts;
		if (w == from / BITS_PER_WORD)
			free_from &= ~0ULL << (from % BITS_PER_WORD);
		if (free_from) {
			unsigned long pfn = w * BITS_PER_WORD +
					    (unsigned long)__builtin_ctzll(free_from);

			return pfn < end && count <= end - pfn ? pfn : 0;
		}
	}
	return 0;
}

static bool is_word_group(unsigned long count, unsigned long align)
{
	return count == align && count <= BITS_PER_WORD &&
	       (count & (count - 1)) == 0;
}

/* First aligned run of @count free frames in [from, end), or 0. */
static unsigned long find_run(unsigned long count, unsigned long align,
			      unsigned long from, unsigned long end)
{
	unsigned long pfn = align_up(from, align);

	if (is_word_group(count, align))
		return find_aligned_group(count, from, end);

	while (pfn < end && count <= end - pfn) {
		unsigned long busy;

		pfn = align_up(find_bit(pfn, end, false), align);
		if (pfn >= end || count > end - pfn)
			break;
		busy = find_bit(pfn, pfn + count, true);
		if (busy == pfn + count)
			return pfn;
		pfn = align_up(busy + 1, align);
	}
	return 0;
}

int frames_init(unsigned long nr_frames, enum sim_mem_placement placement,
		uint64_t seed)
{
	/* Both bitmaps in one mapping: the in-use one, then freed_once. */
	size_t bytes = bitmap_bytes(nr_frames);
	char *bm = mmap(NULL, 2 * bytes, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (bm == MAP_FAILED)
		return -ENOMEM;
	fa.bitmap = (uint64_t *)bm;
	fa.freed_once = (uint64_t *)(bm + bytes);
	fa.nr_frames = nr_frames;
	fa.placement = placement;
	fa.rng = seed;
	set_bits(0, 1, true); /* frame 0: bus address 0 is never a buffer */
	fa.nr_free = nr_frames - 1;
	fa.lowest_free = 1;
	return 0;
}

void frames_exit(void)
{
	if (fa.bitmap)
		munmap(fa.bitmap, 2 * bitmap_bytes(fa.nr_frames));
	memset(&fa, 0, sizeof(fa));
}

static unsigned long place_run(unsigned long count, unsigned long align)
{
	unsigned long pfn = 0;

	if (fa.placement == SIM_MEM_SCATTERED) {
		unsigned long start = next_random() % fa.nr_frames;

		pfn = find_run(count, align, start, fa.nr_frames);
	}
	if (!pfn)
		pfn = find_run(count, align, fa.lowest_free, fa.nr_frames);
	return pfn;
}

unsigned long frames_alloc(unsigned long count, unsigned long align)
{
	unsigned long pfn;

	if (!fa.bitmap || count == 0 || count > fa.nr_free)
		return 0;
	pfn = place_run(count, align);
	if (!pfn)
		return 0;
	set_bits(pfn, count, true);
	fa.nr_free -= count;
	if (pfn == fa.lowest_free)
		fa.lowest_free = find_bit(pfn + count, fa.nr_frames, false);
	return pfn;
}

bool frames_allocated(unsigned long pfn, unsigned long count)
{
	return pfn != 0 && pfn < fa.nr_frames && count <= fa.nr_frames - pfn &&
	       find_bit(pfn, pfn + count, false) == pfn + count;
}

bool frames_never_freed(unsigned long pfn, unsigned long count)
{
	return find_bit_in(fa.freed_once, pfn, pfn + count, true) ==
	       pfn + count;
}

void frames_free(unsigned long pfn, unsigned long count)
{
	set_bits(pfn, count, false);
	set_bits_in(fa.freed_once, pfn, count, true);
	fa.nr_free += count;
	if (pfn < fa.lowest_free)
		fa.lowest_free = pfn;
}

unsigned long frames_in_use(void)
{
	return fa.nr_frames ? fa.nr_frames - 1 - fa.nr_free : 0;
}

unsigned long frames_free_count(void)
{
	return fa.nr_free;
}

unsigned long frames_largest_free_run(void)
{
	unsigned long best = 0, pfn = 0;

	while (pfn < fa.nr_frames) {
		unsigned long start = find_bit(pfn, fa.nr_frames, false);

		pfn = find_bit(start, fa.nr_frames, true);
		if (pfn - start > best)
			best = pfn - start;
	}
	return best;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	unsigned long count = order < BITS_PER_WORD ? 1UL << order : 0;
	unsigned long pfn = frames_alloc(count, count);

	if (!pfn && !(gfp & __GFP_NOWARN)) {
		sim_mem_set_error("alloc_pages(order %u): no free aligned run "
				  "of 2^%u page frames; %lu of %lu frames "
				  "free, largest free run %lu",
				  order, order, fa.nr_free, fa.nr_frames,
				  frames_largest_free_run());
	}
	if (!pfn)
		return NULL;
	if (gfp & __GFP_ZERO)
		memset(phys_to_virt((phys_addr_t)pfn << PAGE_SHIFT), 0,
		       count << PAGE_SHIFT);
	return pfn_to_page(pfn);
}

void __free_pages(struct page *page, unsigned int order)
{
	BUG_ON(!frames_allocated(page_to_pfn(page), 1UL << order));
	frames_free(page_to_pfn(page), 1UL << order);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page((const void *)addr), order);
}

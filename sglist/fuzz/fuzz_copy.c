// SPDX-License-Identifier: MIT
/*
 * fuzz_copy.c - ops that move bytes: the copy helpers and the mapping
 * iterator, checked byte for byte against the pool's shadow.
 */
#include "fuzz_ops.h"

#include "fuzz_check.h"

#include <string.h>

/* Where a copy starts and how long its buffer is, for a list of @total. */
struct copy_args {
	unsigned int n;
	u64 total;
	size_t skip;
	size_t buflen;
	size_t expect; /* bytes the call must report */
};

static void decode_copy(struct copy_args *a, const struct fuzz_list *l,
			struct fuzz_in *in)
{
	a->n = op_nents_arg(l, in);
	a->total = list_bytes(l, a->n);
	/* Whole list, or any window, including ones that run past the end. */
	if (in_u8(in) & 1) {
		a->skip = 0;
		a->buflen = a->total;
	} else {
		a->skip = in_below(in, (uint32_t)a->total + 64);
		a->buflen = in_below(in, (uint32_t)a->total + 65);
	}
	if (a->skip > a->total)
		a->expect = 0;
	else if (a->buflen < a->total - a->skip)
		a->expect = a->buflen;
	else
		a->expect = a->total - a->skip;
}

/* The shadow of the list bytes [skip, skip + count): apply @fn to each
 * piece with its position in the buffer. */
static void shadow_span(const struct fuzz_list *l, struct fuzz_pool *pool,
			const struct copy_args *a, uint8_t *buf,
			void (*fn)(uint8_t *shadow, uint8_t *buf, size_t len))
{
	struct list_cursor c;
	phys_addr_t phys;
	size_t pos = 0, k;

	if (!a->expect)
		return;
	cursor_start(&c, l, a->n);
	FUZZ_CHECK(cursor_skip(&c, a->skip) == a->skip, "model: bad skip");
	while (pos < a->expect &&
	       (k = cursor_take(&c, a->expect - pos, &phys))) {
		fn(pool_shadow(pool, phys), buf ? buf + pos : NULL, k);
		pos += k;
	}
	FUZZ_CHECK(pos == a->expect, "model: %zu of %zu bytes", pos, a->expect);
}

static void buf_to_shadow(uint8_t *shadow, uint8_t *buf, size_t len)
{
	memcpy(shadow, buf, len);
}

static void zero_shadow(uint8_t *shadow, uint8_t *buf, size_t len)
{
	(void)buf;
	memset(shadow, 0, len);
}

static void shadow_to_buf(uint8_t *shadow, uint8_t *buf, size_t len)
{
	memcpy(buf, shadow, len);
}

static uint8_t *alloc_buf(size_t len, uint8_t seed)
{
	uint8_t *buf = malloc(len ? len : 1);
	size_t i;

	FUZZ_CHECK(buf, "out of host memory");
	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 13 + seed);
	return buf;
}

void op_copy_from(struct fuzz_list *l, struct fuzz_in *in,
		  struct fuzz_pool *pool)
{
	struct copy_args a;
	uint8_t *buf;
	size_t got;

	decode_copy(&a, l, in);
	buf = alloc_buf(a.buflen, (uint8_t)in_u8(in));
	if (!a.skip && in_u8(in) & 1)
		got = sg_copy_from_buffer(l->e[0].sg, a.n, buf, a.buflen);
	else
		got = sg_pcopy_from_buffer(l->e[0].sg, a.n, buf, a.buflen,
					   (off_t)a.skip);
	FUZZ_CHECK(got == a.expect,
		   "copy_from(n %u, %zu bytes, skip %zu) = %zu, model %zu of "
		   "%llu",
		   a.n, a.buflen, a.skip, got, a.expect,
		   (unsigned long long)a.total);
	shadow_span(l, pool, &a, buf, buf_to_shadow);
	free(buf);
	pool_check(pool);
}

void op_copy_to(struct fuzz_list *l, struct fuzz_in *in, struct fuzz_pool *pool)
{
	struct copy_args a;
	uint8_t *buf, *want;
	size_t got;

	decode_copy(&a, l, in);
	/* Bytes past what is copied must keep their value. */
	buf = alloc_buf(a.buflen, 0xa5);
	want = alloc_buf(a.buflen, 0xa5);
	if (!a.skip && in_u8(in) & 1)
		got = sg_copy_to_buffer(l->e[0].sg, a.n, buf, a.buflen);
	else
		got = sg_pcopy_to_buffer(l->e[0].sg, a.n, buf, a.buflen,
					 (off_t)a.skip);
	FUZZ_CHECK(got == a.expect,
		   "copy_to(n %u, %zu bytes, skip %zu) = %zu, model %zu of "
		   "%llu",
		   a.n, a.buflen, a.skip, got, a.expect,
		   (unsigned long long)a.total);
	shadow_span(l, pool, &a, want, shadow_to_buf);
	FUZZ_CHECK(!memcmp(buf, want, a.buflen),
		   "copy_to(n %u, %zu bytes, skip %zu): buffer differs", a.n,
		   a.buflen, a.skip);
	free(want);
	free(buf);
}

void op_zero(struct fuzz_list *l, struct fuzz_in *in, struct fuzz_pool *pool)
{
	struct copy_args a;
	size_t got;

	decode_copy(&a, l, in);
	got = sg_zero_buffer(l->e[0].sg, a.n, a.buflen, (off_t)a.skip);
	FUZZ_CHECK(got == a.expect,
		   "zero(n %u, %zu bytes, skip %zu) = %zu, model %zu", a.n,
		   a.buflen, a.skip, got, a.expect);
	shadow_span(l, pool, &a, NULL, zero_shadow);
	pool_check(pool);
}

/* A mapping-iterator walk: where it stands in the model, what it does. */
struct miter_walk {
	struct sg_mapping_iter m;
	struct list_cursor c;
	u64 pos, total;
	bool to_sg;
};

/* The piece sg_miter_next() returned must be the model's next one. */
static void miter_piece(struct miter_walk *w, struct fuzz_in *in,
			struct fuzz_pool *pool)
{
	struct list_cursor peek = w->c;
	phys_addr_t phys;
	size_t len = cursor_take(&peek, SIZE_MAX, &phys), used;
	uint8_t *shadow;

	FUZZ_CHECK(len, "miter: a piece at byte %llu of %llu",
		   (unsigned long long)w->pos, (unsigned long long)w->total);
	FUZZ_CHECK(w->m.addr == phys_to_virt(phys) && w->m.length == len &&
			   w->m.page == pfn_to_page(phys >> PAGE_SHIFT),
		   "miter at byte %llu: piece phys %#llx len %zu, model %#llx "
		   "len %zu",
		   (unsigned long long)w->pos,
		   (unsigned long long)((char *)w->m.addr -
					(char *)sim_mem_base()),
		   w->m.length, (unsigned long long)phys, len);
	shadow = pool_shadow(pool, phys);
	if (w->to_sg) {
		uint8_t v = (uint8_t)in_u8(in);

		memset(w->m.addr, v, len);
		memset(shadow, v, len);
	} else {
		FUZZ_CHECK(!memcmp(w->m.addr, shadow, len),
			   "miter at byte %llu reads wrong bytes",
			   (unsigned long long)w->pos);
	}
	/* Sometimes use only part of it, so the rest comes back. */
	used = in_u8(in);
	used = used >= 224 ? used % len : len;
	w->m.consumed = used;
	w->pos += cursor_skip(&w->c, used);
}

/* sg_miter_skip() of a decoded amount; false once the list is behind. */
static bool miter_skip(struct miter_walk *w, struct fuzz_in *in)
{
	u64 k = in_below(in, (uint32_t)(w->total - w->pos) + 2);
	bool fits = w->pos + k <= w->total;

	FUZZ_CHECK(sg_miter_skip(&w->m, (off_t)k) == fits,
		   "miter_skip(%llu) at byte %llu of %llu: wrong result",
		   (unsigned long long)k, (unsigned long long)w->pos,
		   (unsigned long long)w->total);
	w->pos += cursor_skip(&w->c, k);
	return fits;
}

void op_miter(struct fuzz_list *l, struct fuzz_in *in, struct fuzz_pool *pool)
{
	unsigned int n = op_nents_arg(l, in), flags = in_u8(in);
	struct miter_walk w;
	bool live = true;

	w.to_sg = flags & 1;
	w.pos = 0;
	w.total = list_bytes(l, n);
	cursor_start(&w.c, l, n);
	sg_miter_start(&w.m, l->e[0].sg, n,
		       (w.to_sg ? SG_MITER_TO_SG : SG_MITER_FROM_SG) |
			       (flags & 2 ? SG_MITER_ATOMIC : 0));
	if (flags & 4)
		live = miter_skip(&w, in);
	while (live && sg_miter_next(&w.m)) {
		miter_piece(&w, in, pool);
		if (in_u8(in) >= 240)
			live = miter_skip(&w, in);
	}
	FUZZ_CHECK(!live || w.pos == w.total,
		   "miter ended at byte %llu of %llu",
		   (unsigned long long)w.pos, (unsigned long long)w.total);
	sg_miter_stop(&w.m);
	if (w.to_sg)
		pool_check(pool);
}

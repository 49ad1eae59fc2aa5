// SPDX-License-Identifier: MIT
/*
 * fuzz_dma.c - dma_map_sg / dma_map_sgtable, direct and through the
 * IOMMU, with decoded segment limits. The model predicts whether the
 * mapping succeeds; a mapping must cover the list's bytes in order with
 * segments inside the limits, and unmapping must leave nothing mapped.
 */
#include "fuzz_ops.h"

#include "fuzz_check.h"

#include <limits.h>
#include <sglist/dma-mapping.h>

#define IOVA_BASE (1ull << 32)
#define IOVA_SIZE (64ull << 20) /* several times the largest list */

struct map_case {
	struct device dev;
	unsigned int max_seg;
	unsigned long boundary;
	bool iommu;
	enum dma_data_direction dir;
	unsigned int n;
	bool sgtable; /* through dma_map_sgtable() */
};

static bool crosses(u64 addr, u64 len, unsigned long mask)
{
	return len && ((addr ^ (addr + len - 1)) & ~(u64)mask);
}

static unsigned int decode_max_seg(struct fuzz_in *in)
{
	switch (in_u8(in) % 5) {
	case 0:
		return 0; /* leave the 64 KiB default */
	case 1:
		return PAGE_SIZE;
	case 2:
		return 3 * PAGE_SIZE;
	case 3:
		return UINT_MAX;
	default:
		return 1 + in_u16(in);
	}
}

static void setup_device(struct map_case *mc, struct fuzz_list *l,
			 struct fuzz_in *in)
{
	unsigned int max_seg = decode_max_seg(in), b = in_u8(in);

	sim_device_init(&mc->dev, "fuzz");
	FUZZ_CHECK(!dma_set_mask_and_coherent(&mc->dev, DMA_BIT_MASK(64)),
		   "64-bit mask refused");
	if (max_seg)
		FUZZ_CHECK(!dma_set_max_seg_size(&mc->dev, max_seg),
			   "max segment %u refused", max_seg);
	/* No boundary, or one of 4 KiB .. 4 MiB. */
	if (b % 4)
		FUZZ_CHECK(!dma_set_seg_boundary(&mc->dev,
						 (1UL << (12 + b % 11)) - 1),
			   "boundary refused");
	mc->max_seg = dma_get_max_seg_size(&mc->dev);
	mc->boundary = dma_get_seg_boundary(&mc->dev);
	mc->iommu = in_u8(in) & 1;
	if (mc->iommu)
		FUZZ_CHECK(!sim_iommu_attach(&mc->dev, IOVA_BASE, IOVA_SIZE),
			   "IOMMU attach failed");
	mc->dir = (enum dma_data_direction)(in_u8(in) % 3);
	mc->n = op_nents_arg(l, in);
	/* dma_map_sgtable() maps orig_nents: only for a whole table. */
	mc->sgtable = list_table(l) && mc->n == l->n && l->len == l->n &&
		      in_u8(in) & 1;
}

/*
 * Whether the mapping must succeed. Direct: every entry within the
 * segment size and boundary. IOMMU: every entry within the segment size
 * and, with its page offset, within one boundary window.
 */
static bool map_allowed(const struct map_case *mc, const struct fuzz_list *l)
{
	unsigned int i;

	for (i = 0; i < mc->n; i++) {
		const struct fuzz_seg *s = &l->e[i].seg;

		if (s->len > mc->max_seg)
			return false;
		if (!mc->iommu && crosses(s->phys, s->len, mc->boundary))
			return false;
		if (mc->iommu && mc->boundary != ~0UL &&
		    offset_in_page(s->phys) + (u64)s->len >
			    (u64)mc->boundary + 1)
			return false;
	}
	return true;
}

static void check_direct(const struct map_case *mc, const struct fuzz_list *l,
			 int count)
{
	unsigned int i;

	FUZZ_CHECK(count == (int)mc->n, "direct map of %u gave %d segments",
		   mc->n, count);
	for (i = 0; i < mc->n; i++) {
		struct scatterlist *sg = l->e[i].sg;

		FUZZ_CHECK(sg_dma_address(sg) == l->e[i].seg.phys &&
				   sg_dma_len(sg) == l->e[i].seg.len,
			   "direct entry %u: dma %#llx+%u, phys %#llx+%u", i,
			   (unsigned long long)sg_dma_address(sg),
			   sg_dma_len(sg), (unsigned long long)l->e[i].seg.phys,
			   l->e[i].seg.len);
	}
}

/* One DMA segment's bytes, page by page, against the model's bytes. */
static void check_iommu_segment(struct map_case *mc, struct list_cursor *c,
				dma_addr_t iova, unsigned int len,
				unsigned int seg)
{
	FUZZ_CHECK(len <= mc->max_seg && !crosses(iova, len, mc->boundary),
		   "segment %u: %#llx+%u breaks max %u / boundary %#lx", seg,
		   (unsigned long long)iova, len, mc->max_seg, mc->boundary);
	while (len) {
		size_t room = PAGE_SIZE - offset_in_page(iova), k;
		phys_addr_t want;

		k = cursor_take(c, room < len ? room : len, &want);
		FUZZ_CHECK(k, "segment %u: %u bytes past the list's end", seg,
			   len);
		FUZZ_CHECK(sim_iommu_iova_to_phys(&mc->dev, iova) == want,
			   "segment %u: iova %#llx -> %#llx, model byte is at "
			   "%#llx",
			   seg, (unsigned long long)iova,
			   (unsigned long long)sim_iommu_iova_to_phys(&mc->dev,
								      iova),
			   (unsigned long long)want);
		iova += k;
		len -= (unsigned int)k;
	}
}

/*
 * Entries merge while they meet in IOVA space and the segment stays within
 * the limits, so two neighbouring segments never could have merged.
 */
static void check_not_mergeable(const struct map_case *mc,
				struct scatterlist *prv, struct scatterlist *sg,
				unsigned int seg)
{
	dma_addr_t a = sg_dma_address(prv);
	u64 len = (u64)sg_dma_len(prv) + sg_dma_len(sg);

	FUZZ_CHECK(a + sg_dma_len(prv) != sg_dma_address(sg) ||
			   len > mc->max_seg || crosses(a, len, mc->boundary),
		   "segments %u and %u meet at %#llx and fit together", seg - 1,
		   seg, (unsigned long long)sg_dma_address(sg));
}

static void check_iommu(struct map_case *mc, const struct fuzz_list *l,
			int count)
{
	struct list_cursor c;
	phys_addr_t phys;
	unsigned int i;

	FUZZ_CHECK(count >= 1 && count <= (int)mc->n,
		   "IOMMU map of %u gave %d segments", mc->n, count);
	cursor_start(&c, l, mc->n);
	for (i = 0; i < (unsigned int)count; i++) {
		check_iommu_segment(mc, &c, sg_dma_address(l->e[i].sg),
				    sg_dma_len(l->e[i].sg), i);
		if (i)
			check_not_mergeable(mc, l->e[i - 1].sg, l->e[i].sg, i);
	}
	FUZZ_CHECK(!cursor_take(&c, SIZE_MAX, &phys),
		   "%d segments leave list bytes unmapped", count);
	for (; i < mc->n; i++)
		FUZZ_CHECK(sg_dma_address(l->e[i].sg) == DMA_MAPPING_ERROR &&
				   !sg_dma_len(l->e[i].sg),
			   "entry %u past %d segments still has a mapping", i,
			   count);
}

static int map(struct map_case *mc, struct fuzz_list *l, bool allowed)
{
	struct sg_table *sgt = list_table(l);
	int ret;

	if (!mc->sgtable)
		return dma_map_sg(&mc->dev, l->e[0].sg, (int)mc->n, mc->dir);
	ret = dma_map_sgtable(&mc->dev, sgt, mc->dir, 0);
	FUZZ_CHECK(ret == (allowed ? 0 : -EINVAL),
		   "dma_map_sgtable = %d, model %s", ret,
		   allowed ? "maps" : "refuses");
	return ret ? 0 : (int)sgt->nents;
}

static void unmap(struct map_case *mc, struct fuzz_list *l)
{
	dma_addr_t first = sg_dma_address(l->e[0].sg);

	if (mc->sgtable)
		dma_unmap_sgtable(&mc->dev, list_table(l), mc->dir, 0);
	else
		dma_unmap_sg(&mc->dev, l->e[0].sg, (int)mc->n, mc->dir);
	if (mc->iommu)
		FUZZ_CHECK(!sim_iommu_iova_to_phys(&mc->dev, first),
			   "iova %#llx still mapped after unmap",
			   (unsigned long long)first);
}

/*
 * Other live mappings of the same device: single entries over a pool
 * run, mapped before and after the list, so the list's IOVA range has to
 * be found between them and nobody's pages may be remapped.
 */
#define MAX_FILLERS 5

struct filler {
	struct scatterlist sg;
	phys_addr_t phys;
};

static void filler_check(struct map_case *mc, struct filler *f)
{
	dma_addr_t iova = sg_dma_address(&f->sg);
	u64 k;

	for (k = 0; k < sg_dma_len(&f->sg); k += PAGE_SIZE)
		FUZZ_CHECK(sim_iommu_iova_to_phys(&mc->dev, iova + k) ==
				   f->phys + k,
			   "mapping at iova %#llx lost byte %llu",
			   (unsigned long long)iova, (unsigned long long)k);
}

static void filler_map(struct map_case *mc, struct filler *f,
		       struct fuzz_in *in, struct fuzz_pool *pool)
{
	const struct pool_run *run = &pool->run[in_u8(in) % pool->nruns];
	u64 len = run->bytes;

	/* As long as the device takes in one segment. */
	if (len > mc->max_seg)
		len = mc->max_seg;
	if (mc->boundary != ~0UL && len > (u64)mc->boundary + 1)
		len = (u64)mc->boundary + 1;
	f->phys = page_to_phys(run->page);
	sg_init_table(&f->sg, 1);
	sg_set_page(&f->sg, run->page, (unsigned int)len, 0);
	FUZZ_CHECK(dma_map_sg(&mc->dev, &f->sg, 1, mc->dir) == 1 &&
			   sg_dma_len(&f->sg) == len,
		   "IOMMU refused one entry of %llu bytes",
		   (unsigned long long)len);
	filler_check(mc, f);
}

static void filler_unmap(struct map_case *mc, struct filler *f)
{
	dma_unmap_sg(&mc->dev, &f->sg, 1, mc->dir);
	FUZZ_CHECK(!sim_iommu_iova_to_phys(&mc->dev, sg_dma_address(&f->sg)),
		   "iova %#llx still mapped after unmap",
		   (unsigned long long)sg_dma_address(&f->sg));
}

/* Map the list, check the result; return its segment count. */
static int map_list(struct map_case *mc, struct fuzz_list *l)
{
	bool allowed = map_allowed(mc, l);
	int count = map(mc, l, allowed);

	FUZZ_CHECK((count > 0) == allowed,
		   "map of %u entries (%s, max %u, boundary %#lx) = %d, model "
		   "%s",
		   mc->n, mc->iommu ? "IOMMU" : "direct", mc->max_seg,
		   mc->boundary, count, allowed ? "maps" : "refuses");
	if (count && mc->iommu)
		check_iommu(mc, l, count);
	else if (count)
		check_direct(mc, l, count);
	return count;
}

void op_map(struct fuzz_list *l, struct fuzz_in *in, struct fuzz_pool *pool)
{
	struct filler fill[MAX_FILLERS];
	unsigned int before, nfill, i;
	struct map_case mc;
	bool list_first;
	int count;

	setup_device(&mc, l, in);
	before = mc.iommu ? in_u8(in) % 4 : 0;
	nfill = before + (mc.iommu ? in_u8(in) % 3 : 0);
	list_first = in_u8(in) & 1;
	for (i = 0; i < before; i++)
		filler_map(&mc, &fill[i], in, pool);
	count = map_list(&mc, l);
	for (; i < nfill; i++)
		filler_map(&mc, &fill[i], in, pool);
	/* Mapping the others must not have disturbed anyone. */
	for (i = 0; i < nfill; i++)
		filler_check(&mc, &fill[i]);
	if (count && mc.iommu)
		check_iommu(&mc, l, count);
	if (count && list_first)
		unmap(&mc, l);
	for (i = 0; i < nfill; i++)
		filler_unmap(&mc, &fill[i]);
	if (count && !list_first)
		unmap(&mc, l);
	/* Detaching BUGs if a mapping outlived its unmap. */
	sim_iommu_detach(&mc.dev);
}

// SPDX-License-Identifier: MIT
/*
 * scatterlist.c - list walking and chained table allocation.
 */
#include <sglist/scatterlist.h>

#include <string.h>

struct scatterlist *sim_sg_follow_chain(const struct scatterlist *link)
{
	return sg_chain_ptr(link);
}

int sg_nents(struct scatterlist *sg)
{
	int nents;

	for (nents = 0; sg; sg = sg_next(sg))
		nents++;
	return nents;
}

int sg_nents_for_len(struct scatterlist *sg, u64 len)
{
	u64 total = 0;
	int nents;

	if (!len)
		return 0;
	for (nents = 0; sg; sg = sg_next(sg)) {
		nents++;
		total += sg->length;
		if (total >= len)
			return nents;
	}
	return -EINVAL;
}

struct scatterlist *sg_last(struct scatterlist *sgl, unsigned int nents)
{
	struct scatterlist *sg, *ret = NULL;
	unsigned int i;

	BUG_ON(nents == 0);
	for_each_sg(sgl, sg, nents, i) ret = sg;
	return ret;
}

void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	BUG_ON(nents == 0);
	memset(sgl, 0, sizeof(*sgl) * nents);
	sg_init_marker(sgl, nents);
}

void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg_init_table(sg, 1);
	sg_set_buf(sg, buf, buflen);
}

static struct scatterlist *sg_kmalloc(unsigned int nents, gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void sg_kfree(struct scatterlist *sg, unsigned int nents)
{
	(void)nents;
	kfree(sg);
}

void __sg_free_table(struct sg_table *table, unsigned int max_ents,
		     unsigned int nents_first_chunk, sg_free_fn *free_fn,
		     unsigned int num_ents)
{
	unsigned int curr_max_ents =
		nents_first_chunk ? nents_first_chunk : max_ents;
	struct scatterlist *sgl = table->sgl;

	if (!sgl)
		return;
	while (num_ents) {
		unsigned int alloc_size = num_ents, sg_size = num_ents;
		struct scatterlist *next = NULL;

		/* More entries than fit: this array ends in a chain link. */
		if (alloc_size > curr_max_ents) {
			next = sg_chain_ptr(&sgl[curr_max_ents - 1]);
			alloc_size = curr_max_ents;
			sg_size = alloc_size - 1;
		}
		num_ents -= sg_size;
		/* A preallocated first array belongs to the caller. */
		if (!nents_first_chunk)
			free_fn(sgl, alloc_size);
		else
			nents_first_chunk = 0;
		sgl = next;
		curr_max_ents = max_ents;
	}
	table->sgl = NULL;
}

int __sg_alloc_table(struct sg_table *table, unsigned int nents,
		     unsigned int max_ents, struct scatterlist *first_chunk,
		     unsigned int nents_first_chunk, gfp_t gfp,
		     sg_alloc_fn *alloc_fn)
{
	unsigned int curr_max_ents =
		nents_first_chunk ? nents_first_chunk : max_ents;
	struct scatterlist *sg, *prv = NULL;
	unsigned int left = nents, prv_max_ents = 0;

	memset(table, 0, sizeof(*table));
	if (nents == 0 || max_ents < 2 ||
	    (first_chunk && nents_first_chunk < 2))
		return -EINVAL;
	do {
		unsigned int alloc_size = left, sg_size = left;

		if (alloc_size > curr_max_ents) {
			alloc_size = curr_max_ents;
			sg_size = alloc_size - 1;
		}
		left -= sg_size;
		if (first_chunk) {
			sg = first_chunk;
			first_chunk = NULL;
		} else {
			sg = alloc_fn(alloc_size, gfp);
		}
		if (!sg) {
			/* Count prv's unlinked slot so a free stops there. */
			if (prv)
				table->nents = ++table->orig_nents;
			return -ENOMEM;
		}
		sg_init_table(sg, alloc_size);
		table->nents = table->orig_nents += sg_size;
		if (prv)
			sg_chain(prv, prv_max_ents, sg);
		else
			table->sgl = sg;
		if (!left)
			sg_mark_end(&sg[sg_size - 1]);
		prv = sg;
		prv_max_ents = curr_max_ents;
		curr_max_ents = max_ents;
	} while (left);
	return 0;
}

int sim_sg_alloc_table_chunked(struct sg_table *table, unsigned int nents,
			       unsigned int max_ents, gfp_t gfp)
{
	int ret = __sg_alloc_table(table, nents, max_ents, NULL, 0, gfp,
				   sg_kmalloc);

	if (ret)
		sim_sg_free_table_chunked(table, max_ents);
	return ret;
}

void sim_sg_free_table_chunked(struct sg_table *table, unsigned int max_ents)
{
	__sg_free_table(table, max_ents, 0, sg_kfree, table->orig_nents);
}

int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp)
{
	return sim_sg_alloc_table_chunked(table, nents, SG_MAX_SINGLE_ALLOC,
					  gfp);
}

void sg_free_table(struct sg_table *table)
{
	sim_sg_free_table_chunked(table, SG_MAX_SINGLE_ALLOC);
}

void sg_free_append_table(struct sg_append_table *sgt_append)
{
	__sg_free_table(&sgt_append->sgt, SG_MAX_SINGLE_ALLOC, 0, sg_kfree,
			sgt_append->total_nents);
}

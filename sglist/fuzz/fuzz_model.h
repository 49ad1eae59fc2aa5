/* SPDX-License-Identifier: MIT */
/*
 * fuzz_model.h - the reference model of a fuzzed scatterlist: a flat array
 * of segments (physical address, length, and the page/offset the API was
 * given) in walk order, with each entry's end mark, plus the arrays the
 * list is built from so the harness can free them.
 */
#ifndef SGLIST_FUZZ_MODEL_H
#define SGLIST_FUZZ_MODEL_H

#include "fuzz_pool.h"

#include <sglist/scatterlist.h>

#define FUZZ_MAX_ENTS 320 /* data entries of a table */
#define FUZZ_MAX_ARRAYS 8 /* hand-chained arrays */
#define FUZZ_MAX_ARRAY_SLOTS 24

/* What one data entry describes, as the reference model sees it. */
struct fuzz_seg {
	phys_addr_t phys; /* first byte */
	unsigned int len;
	struct page *page;   /* what sg_page() must return */
	unsigned int offset; /* what sg->offset must be */
};

struct fuzz_ent {
	struct scatterlist *sg; /* where the entry lives */
	struct fuzz_seg seg;
	unsigned int arr; /* LIST_CHAIN: index of its array */
	bool end;	  /* carries an end mark */
};

enum fuzz_list_kind {
	LIST_NONE,
	LIST_TABLE,
	LIST_CHAIN,
	LIST_PAGES,
	LIST_APPEND
};

struct fuzz_list {
	enum fuzz_list_kind kind;
	unsigned int n;	  /* data entries in chain order, marks ignored */
	unsigned int len; /* entries up to the first end mark */
	struct fuzz_ent e[FUZZ_MAX_ENTS];
	struct sg_table sgt;	    /* LIST_TABLE, LIST_PAGES */
	struct sg_append_table app; /* LIST_APPEND */
	unsigned int max_ents;	    /* LIST_TABLE: slots per array */
	/* LIST_CHAIN: every array allocated, linked or not */
	unsigned int narr;
	struct scatterlist *arr[FUZZ_MAX_ARRAYS];
	unsigned int ndata[FUZZ_MAX_ARRAYS]; /* data slots before the link */
	int next[FUZZ_MAX_ARRAYS];	     /* chain order, -1 at the end */
	unsigned long pages_before; /* sim_mem_pages_in_use() before the list */
};

/* Start an empty list of @kind, noting the page count to return to. */
void list_begin(struct fuzz_list *l, enum fuzz_list_kind kind);

/* Decode a segment in the pool and describe it in @sg three ways. */
void seg_set(struct scatterlist *sg, struct fuzz_seg *seg, struct fuzz_in *in,
	     struct fuzz_pool *pool);

/* sim_sg_alloc_table_chunked() or sg_alloc_table() of decoded size. */
void list_build_table(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool);
/* Arrays chained by hand with sg_chain(), some using only a prefix. */
void list_build_chain(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool);
/* sg_alloc_table_from_pages_segment() over pool pages. */
void list_build_pages(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool);
/* Up to three sg_alloc_append_table_from_pages() calls over pool pages. */
void list_build_append(struct fuzz_list *l, struct fuzz_in *in,
		       struct fuzz_pool *pool);

/* The list's sg_table, or NULL for arrays chained by hand. */
struct sg_table *list_table(struct fuzz_list *l);

/* Free the list; abort unless the page count is back where it started. */
void list_free(struct fuzz_list *l);

/* Recompute len from the end marks. */
void list_update_len(struct fuzz_list *l);

/* Abort unless sg_next(), sg_nents(), sg_last() and every entry agree. */
void list_check(struct fuzz_list *l);

/* Bytes in the first @n entries. */
u64 list_bytes(const struct fuzz_list *l, unsigned int n);

/* Entries sg_nents_for_len() must report for @len bytes. */
int list_nents_for_len(const struct fuzz_list *l, u64 len);

/* A position in the list's bytes, walking the model. */
struct list_cursor {
	const struct fuzz_list *l;
	unsigned int n;	  /* entries in play */
	unsigned int i;	  /* current entry */
	unsigned int off; /* bytes of it already passed */
};

void cursor_start(struct list_cursor *c, const struct fuzz_list *l,
		  unsigned int n);

/*
 * Up to @max bytes from the cursor that are contiguous in one physical
 * page and one entry; sets *@phys to the first. Return: the byte count,
 * 0 at the end of the list.
 */
size_t cursor_take(struct list_cursor *c, size_t max, phys_addr_t *phys);

/* Advance @bytes. Return: the bytes actually passed (short at the end). */
u64 cursor_skip(struct list_cursor *c, u64 bytes);

#endif /* SGLIST_FUZZ_MODEL_H */

/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ops.h - the API calls a fuzzed input can make on its list, each
 * checked against the reference model. Every op only makes valid calls.
 */
#ifndef SGLIST_FUZZ_OPS_H
#define SGLIST_FUZZ_OPS_H

#include "fuzz_model.h"

typedef void fuzz_op(struct fuzz_list *l, struct fuzz_in *in,
		     struct fuzz_pool *pool);

/* The entry count to pass an API: the whole list or a prefix of it. */
unsigned int op_nents_arg(const struct fuzz_list *l, struct fuzz_in *in);

fuzz_op op_set_entry;	  /* sg_set_page / sg_set_buf on any entry */
fuzz_op op_mark_end;	  /* sg_mark_end inside the list */
fuzz_op op_unmark_end;	  /* sg_unmark_end of a mark op_mark_end made */
fuzz_op op_unlink;	  /* re-point a hand-made link past an array */
fuzz_op op_nents_for_len; /* sg_nents_for_len, sg_last of a prefix */
fuzz_op op_page_iter;	  /* for_each_sg_page from a page offset */
fuzz_op op_copy_from;	  /* sg_copy_from_buffer / sg_pcopy_from_buffer */
fuzz_op op_copy_to;	  /* sg_copy_to_buffer / sg_pcopy_to_buffer */
fuzz_op op_zero;	  /* sg_zero_buffer */
fuzz_op op_miter;	  /* sg_miter_* walk with partial use and skips */
fuzz_op op_map;		  /* dma_map_sg / dma_map_sgtable, direct or IOMMU */

#endif /* SGLIST_FUZZ_OPS_H */

/* SPDX-License-Identifier: MIT */
/*
 * chan_regs.h - programming a channel's registers: shared by single
 * transfers (chan.c) and descriptor rings (ring.c).
 */
#ifndef DMASIM_DRIVER_CHAN_REGS_H
#define DMASIM_DRIVER_CHAN_REGS_H

#include <dmasim/driver/dmasim_dma.h>

void __iomem *chan_reg(const struct dmasim_chan *ch, uint32_t offset);
void chan_point(struct dmasim_chan *ch, uint64_t head);
void chan_start(struct dmasim_chan *ch, const struct dmasim_xfer_spec *spec);

#endif /* DMASIM_DRIVER_CHAN_REGS_H */

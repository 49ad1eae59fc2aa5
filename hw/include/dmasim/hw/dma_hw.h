/* SPDX-License-Identifier: MIT */
/*
 * dma_hw.h - the DMA controller's programming interface: register map,
 * descriptor layouts and status codes.
 *
 * This is the one definition shared by the C driver (tb/) and the SystemC
 * model (model/); docs/registers.md and docs/descriptor-formats.md describe
 * the same layout and are checked against it. Plain C so a kernel-style
 * driver can include it. All multi-byte fields are little-endian.
 */
#ifndef DMASIM_HW_DMA_HW_H
#define DMASIM_HW_DMA_HW_H

#include <stdint.h>

#define DMA_HW_VERSION 0x00010000u /* major 1, minor 0 */

/* ---- Bus address map ------------------------------------------------- */
/* Simulated RAM is at bus address 0; the controller's registers sit far
 * above any RAM size the simulator accepts. */
#define DMA_REGS_BASE 0xF000000000ull
#define DMA_REGS_SIZE 0x1000u

/* ---- Global registers (offsets from DMA_REGS_BASE, 32-bit) ----------- */
#define DMA_REG_VERSION    0x000 /* RO: DMA_HW_VERSION */
#define DMA_REG_CAPS       0x004 /* RO: see DMA_CAPS_* */
#define DMA_REG_IRQ_STATUS 0x008 /* W1C: bit n = channel n raised an interrupt */
#define DMA_REG_IRQ_MASK   0x00C /* RW: bit n = channel n may interrupt; reset 0 */
/* IOMMU between the DMA master and memory (present when CAPS.IOMMU is set;
 * page-table format in iommu_hw.h). */
#define DMA_REG_IOMMU_CTRL       0x010 /* RW: DMA_IOMMU_CTRL_ENABLE: translate every DMA access */
#define DMA_REG_IOMMU_ROOT_LO    0x014 /* RW: bus address of the root page table, bits 31:0 */
#define DMA_REG_IOMMU_ROOT_HI    0x018 /* RW: bits 63:32 */
#define DMA_REG_IOMMU_INVALIDATE 0x01C /* W: any value drops every cached translation; reads 0 */
#define DMA_REG_IOMMU_FAULT_LO   0x020 /* RO: IOVA of the latest translation fault, bits 31:0 */
#define DMA_REG_IOMMU_FAULT_HI   0x024 /* RO: bits 63:32 */

#define DMA_IOMMU_CTRL_ENABLE 0x00000001u

#define DMA_CAPS_CHANNELS_MASK  0x000000FFu /* number of channels */
#define DMA_CAPS_CHAINED_PAGES  0x00000100u /* chained_pages format supported */
#define DMA_CAPS_LINKED_LIST    0x00000200u /* linked_list format supported */
#define DMA_CAPS_DESC_SIZE_SHIFT 16         /* bits 23:16: chained_pages descriptor bytes */
#define DMA_CAPS_DESC_SIZE_MASK  0x00FF0000u /* 16, 32 or 64 (dma.descriptor_bytes) */
#define DMA_CAPS_WRITEBACK_SHIFT 24         /* bits 25:24: enum dma_hw_writeback */
#define DMA_CAPS_WRITEBACK_MASK  0x03000000u
#define DMA_CAPS_IOMMU           0x04000000u /* bit 26: an IOMMU translates DMA accesses */
#define DMA_CAPS_NEXT_IN_SLOT    0x08000000u /* bit 27: linked_list next inside the slot (32/64 B) */
#define DMA_CAPS_APP_WORDS_SHIFT 28          /* bits 30:28: APP words per descriptor, 0..5 */
#define DMA_CAPS_APP_WORDS_MASK  0x70000000u
#define DMA_CAPS_TAIL_POINTER    0x80000000u /* bit 31: a START runs to TAIL, not END (dma.submission) */

#define DMA_MAX_CHANNELS 16

/* ---- Per-channel registers: DMA_CH_BASE(n) + offset (32-bit) --------- */
#define DMA_CH_BASE(n)       (0x100u + (uint32_t)(n) * 0x40u)
#define DMA_CH_DESC_ADDR_LO  0x00 /* RW: bus address of the first descriptor */
#define DMA_CH_DESC_ADDR_HI  0x04 /* RW */
#define DMA_CH_CTRL          0x08 /* RW: see DMA_CTRL_*; START and ABORT read 0 */
#define DMA_CH_STATUS        0x0C /* RO: see DMA_STATUS_* */
#define DMA_CH_BYTES_DONE_LO 0x10 /* RO: payload bytes written at destination */
#define DMA_CH_BYTES_DONE_HI 0x14 /* RO */
#define DMA_CH_DESCS_DONE    0x18 /* RO: data descriptors completed */
/* CAPS.TAIL_POINTER: the last descriptor to process; writing HI takes effect */
#define DMA_CH_TAIL_LO       0x1C /* RW */
#define DMA_CH_TAIL_HI       0x20 /* RW */

#define DMA_CTRL_START        0x00000001u /* W: start walking at DESC_ADDR */
#define DMA_CTRL_ABORT        0x00000002u /* W: stop the channel (status ABORTED) */
#define DMA_CTRL_IRQ_EN       0x00000004u /* interrupt when the channel stops */
#define DMA_CTRL_DIR_SHIFT    4           /* bits 5:4: enum dma_hw_direction */
#define DMA_CTRL_DIR_MASK     0x00000030u
#define DMA_CTRL_FORMAT_SHIFT 6           /* bit 6: enum dma_hw_format */
#define DMA_CTRL_FORMAT_MASK  0x00000040u

#define DMA_STATUS_BUSY        0x00000001u
#define DMA_STATUS_DONE        0x00000002u /* stopped without error */
#define DMA_STATUS_ERROR       0x00000004u /* stopped with an error, see ERR field */
#define DMA_STATUS_IDLE        0x00000008u /* CAPS.TAIL_POINTER: BUSY, at TAIL, waiting for a TAIL write */
#define DMA_STATUS_ERR_SHIFT   8           /* bits 15:8: enum dma_hw_error */
#define DMA_STATUS_ERR_MASK    0x0000FF00u

enum dma_hw_direction {
	DMA_HW_MEM_TO_MEM = 0, /* descriptor src and dst are bus addresses */
	DMA_HW_DEV_TO_MEM = 1, /* src ignored: data comes from the stream port */
	DMA_HW_MEM_TO_DEV = 2, /* dst ignored: data goes to the stream port */
};

enum dma_hw_format {
	DMA_HW_FMT_CHAINED_PAGES = 0,
	DMA_HW_FMT_LINKED_LIST = 1,
};

/* Which data descriptors get a status write-back (CAPS bits 25:24). */
enum dma_hw_writeback {
	DMA_HW_WB_PER_DESCRIPTOR = 0, /* every data descriptor */
	DMA_HW_WB_IRQ_ONLY = 1,       /* only those carrying DMA_DESC_IRQ */
	DMA_HW_WB_LAST = 2,           /* only the one carrying DMA_DESC_END */
	DMA_HW_WB_NONE = 3,           /* none: completion is in the channel registers */
};

/* Error codes, in the channel STATUS ERR field and descriptor write-back. */
enum dma_hw_error {
	DMA_ERR_NONE = 0,
	DMA_ERR_DESC_BUS = 1,      /* bus error response on a descriptor read/write-back */
	DMA_ERR_DESC_ADDRESS = 2,  /* descriptor address outside memory */
	DMA_ERR_DATA_BUS = 3,      /* bus error response on a data burst */
	DMA_ERR_DATA_ADDRESS = 4,  /* data address outside memory */
	DMA_ERR_ZERO_LENGTH = 5,   /* data descriptor with length 0 */
	DMA_ERR_CHAIN_LOOP = 6,    /* chain revisits a chunk, or too many links/descriptors */
	DMA_ERR_BAD_DESCRIPTOR = 7,/* unknown flag bits, or a chain descriptor with END */
	DMA_ERR_ABORTED = 8,       /* software wrote ABORT */
	DMA_ERR_TRANSLATION = 9,   /* IOMMU: no present mapping (or no write permission) */
	DMA_ERR_TAIL_UNREACHED = 10, /* CAPS.TAIL_POINTER: the walk came back round without meeting TAIL */
};

/* ---- Descriptor control flags (both formats) ------------------------- */
#define DMA_DESC_END   0x00000001u /* last data descriptor of the transfer */
#define DMA_DESC_CHAIN 0x00000002u /* chained_pages: this slot links to the next
                                      chunk (addr in src); linked_list: the next
                                      descriptor lies in another chunk (counted
                                      as a chain link, no other effect) */
#define DMA_DESC_IRQ   0x00000004u /* raise the channel interrupt when done */
#define DMA_DESC_DEBURST 0x00000080u /* data descriptor: move it in one-beat
                                        bursts (iDMA desc64 flags bit 7,
                                        reduce_len); ignored on a chain slot */
#define DMA_DESC_FLAGS_VALID \
	(DMA_DESC_END | DMA_DESC_CHAIN | DMA_DESC_IRQ | DMA_DESC_DEBURST)

/* Descriptor status write-back word. */
#define DMA_DESC_STATUS_DONE      0x00000001u
#define DMA_DESC_STATUS_ERR_SHIFT 8 /* bits 15:8: enum dma_hw_error */
#define DMA_DESC_STATUS_ERR_MASK  0x0000FF00u

/*
 * chained_pages: 32-byte descriptors packed in chunks. The last slot of a
 * non-final chunk is a chain descriptor (flags = DMA_DESC_CHAIN, src = bus
 * address of the next chunk, all else 0). CAPS bits 23:16 give the slot
 * size the controller is built for: 16 (struct dma_hw_desc16), 32 (this
 * one) or 64 (struct dma_hw_desc64).
 */
struct dma_hw_desc {
	uint64_t src;        /* 0x00 source bus address (or next chunk for CHAIN) */
	uint64_t dst;        /* 0x08 destination bus address */
	uint32_t length;     /* 0x10 payload bytes, 1..2^32-1 */
	uint32_t flags;      /* 0x14 DMA_DESC_* */
	uint32_t status;     /* 0x18 written back by hardware: DONE | error << 8 */
	uint32_t bytes_done; /* 0x1C written back by hardware */
};

/* Compact 16-byte slot: 32-bit bus addresses (RAM must end at 4 GiB or
 * below), a 16-bit status and no bytes_done write-back. */
struct dma_hw_desc16 {
	uint32_t src;    /* 0x00 */
	uint32_t dst;    /* 0x04 */
	uint32_t length; /* 0x08 */
	uint16_t flags;  /* 0x0C DMA_DESC_* */
	uint16_t status; /* 0x0E written back: DONE | error << 8 */
};

/* 64-byte slot: the 32-byte layout, then 32 bytes the hardware fetches but
 * ignores (software's own fields, like PG021's APP words). */
struct dma_hw_desc64 {
	struct dma_hw_desc d; /* 0x00 */
	uint64_t user[4];     /* 0x20 ignored by hardware */
};

/*
 * linked_list: 48-byte descriptors, each naming its successor; next is
 * ignored on the descriptor that carries DMA_DESC_END. The compact and
 * 64-byte sizes add the next pointer to their chained_pages layouts:
 * 24 bytes (struct dma_hw_ll_desc24) and 80 (struct dma_hw_ll_desc80).
 */
struct dma_hw_ll_desc {
	uint64_t next;       /* 0x00 bus address of the next descriptor */
	uint64_t src;        /* 0x08 */
	uint64_t dst;        /* 0x10 */
	uint32_t length;     /* 0x18 */
	uint32_t flags;      /* 0x1C */
	uint32_t status;     /* 0x20 written back */
	uint32_t bytes_done; /* 0x24 written back */
	uint64_t reserved;   /* 0x28 keeps descriptors 8-byte aligned; must be 0 */
};

struct dma_hw_ll_desc24 {
	uint32_t next;     /* 0x00 */
	uint32_t src;      /* 0x04 */
	uint32_t dst;      /* 0x08 */
	uint32_t length;   /* 0x0C */
	uint16_t flags;    /* 0x10 */
	uint16_t status;   /* 0x12 written back */
	uint32_t reserved; /* 0x14 keeps descriptors 8-byte aligned; must be 0 */
};

struct dma_hw_ll_desc80 {
	struct dma_hw_ll_desc d; /* 0x00 */
	uint64_t user[4];        /* 0x30 ignored by hardware */
};

/*
 * linked_list with the next pointer inside the slot (CAPS.NEXT_IN_SLOT,
 * dma.descriptor_next: in_slot), as AXI DMA and CDMA lay out their 32-byte
 * BDs: 32 bytes with a 16-bit flags and status word (no bytes_done), or
 * the 48-byte layout in a 64-byte slot.
 */
struct dma_hw_ll_desc32 {
	uint64_t next;   /* 0x00 */
	uint64_t src;    /* 0x08 */
	uint64_t dst;    /* 0x10 */
	uint32_t length; /* 0x18 */
	uint16_t flags;  /* 0x1C DMA_DESC_* */
	uint16_t status; /* 0x1E written back: DONE | error << 8 */
};

struct dma_hw_ll_desc64 {
	struct dma_hw_ll_desc d; /* 0x00 */
	uint64_t user[2];        /* 0x30 ignored by hardware */
};

#define DMA_HW_DESC_SIZE       32u
#define DMA_HW_DESC16_SIZE     16u
#define DMA_HW_DESC64_SIZE     64u
#define DMA_HW_LL_DESC_SIZE    48u
#define DMA_HW_LL_DESC24_SIZE  24u
#define DMA_HW_LL_DESC80_SIZE  80u
#define DMA_HW_LL_DESC32_SIZE  32u
#define DMA_HW_LL_DESC64_SIZE  64u

/* APP words (PG021's APP0..APP4): up to 5 32-bit words after a
 * descriptor's fields, read with it; with any, descriptors sit at 0x40
 * alignment (PG021: 52-byte BDs at 0x40). */
#define DMA_HW_MAX_APP_WORDS 5u
#define DMA_HW_APP_ALIGN     0x40u

/* Bytes of one descriptor: the chained_pages slot size @slot_bytes (16, 32
 * or 64, from CAPS; anything else means 32), or for linked_list that
 * layout plus its next pointer (24, 48 or 80). */
static inline uint32_t dma_hw_desc_size(enum dma_hw_format format, uint32_t slot_bytes)
{
	int linked = format == DMA_HW_FMT_LINKED_LIST;

	switch (slot_bytes) {
	case DMA_HW_DESC16_SIZE:
		return linked ? DMA_HW_LL_DESC24_SIZE : DMA_HW_DESC16_SIZE;
	case DMA_HW_DESC64_SIZE:
		return linked ? DMA_HW_LL_DESC80_SIZE : DMA_HW_DESC64_SIZE;
	default:
		return linked ? DMA_HW_LL_DESC_SIZE : DMA_HW_DESC_SIZE;
	}
}

/* How one controller build lays out descriptors (CAPS bits 30:16). */
struct dma_hw_layout {
	enum dma_hw_format format;
	uint32_t slot_bytes;   /* 16, 32 or 64 (CAPS bits 23:16) */
	int next_in_slot;      /* CAPS.NEXT_IN_SLOT: linked_list next inside a 32/64 B slot */
	uint32_t app_words;    /* 0..DMA_HW_MAX_APP_WORDS */
};

/* Whether descriptors are linked_list ones with their next pointer inside
 * a 32 or 64-byte slot. */
static inline int dma_hw_layout_in_slot(const struct dma_hw_layout *l)
{
	return l->format == DMA_HW_FMT_LINKED_LIST && l->next_in_slot &&
	       l->slot_bytes != DMA_HW_DESC16_SIZE;
}

/* Whether descriptors are struct dma_hw_ll_desc32. */
static inline int dma_hw_layout_is_ll32(const struct dma_hw_layout *l)
{
	return dma_hw_layout_in_slot(l) && l->slot_bytes != DMA_HW_DESC64_SIZE;
}

/* Bytes of a descriptor's fields: dma_hw_desc_size(), or the slot itself
 * for a linked_list descriptor with its next pointer inside. */
static inline uint32_t dma_hw_layout_fields(const struct dma_hw_layout *l)
{
	if (dma_hw_layout_is_ll32(l))
		return DMA_HW_LL_DESC32_SIZE;
	if (dma_hw_layout_in_slot(l))
		return DMA_HW_LL_DESC64_SIZE;
	return dma_hw_desc_size(l->format, l->slot_bytes);
}

/* Whether the layout's status is the 16-bit word of the compact and
 * 32-byte in-slot layouts, with no bytes_done. */
static inline int dma_hw_layout_short_status(const struct dma_hw_layout *l)
{
	return l->slot_bytes == DMA_HW_DESC16_SIZE || dma_hw_layout_is_ll32(l);
}

/* Offset of the status word inside a descriptor (followed by bytes_done
 * unless short). */
static inline uint32_t dma_hw_layout_status_offset(const struct dma_hw_layout *l)
{
	int linked = l->format == DMA_HW_FMT_LINKED_LIST;

	if (dma_hw_layout_is_ll32(l))
		return 0x1E;
	if (l->slot_bytes == DMA_HW_DESC16_SIZE)
		return linked ? 0x12 : 0x0E;
	return linked ? 0x20 : 0x18;
}

/* Bytes a status write-back writes: the 16-bit status, or the 32-bit
 * status and bytes_done. */
static inline uint32_t dma_hw_layout_status_bytes(const struct dma_hw_layout *l)
{
	return dma_hw_layout_short_status(l) ? 2u : 8u;
}

/* Bytes the controller reads for one descriptor: its fields and APP words. */
static inline uint32_t dma_hw_layout_read(const struct dma_hw_layout *l)
{
	return dma_hw_layout_fields(l) + 4u * l->app_words;
}

/* Distance between consecutive descriptors of a chunk: the bytes read,
 * rounded up to DMA_HW_APP_ALIGN when there are APP words. */
static inline uint32_t dma_hw_layout_stride(const struct dma_hw_layout *l)
{
	uint32_t read = dma_hw_layout_read(l);

	if (!l->app_words)
		return read;
	return (read + DMA_HW_APP_ALIGN - 1) / DMA_HW_APP_ALIGN * DMA_HW_APP_ALIGN;
}

#ifdef __cplusplus
#define DMA_HW_STATIC_ASSERT static_assert
#else
#define DMA_HW_STATIC_ASSERT _Static_assert
#endif
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_desc) == DMA_HW_DESC_SIZE, "chained_pages descriptor layout");
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_desc16) == DMA_HW_DESC16_SIZE, "compact descriptor layout");
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_desc64) == DMA_HW_DESC64_SIZE, "64-byte descriptor layout");
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_ll_desc) == DMA_HW_LL_DESC_SIZE, "linked_list descriptor layout");
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_ll_desc24) == DMA_HW_LL_DESC24_SIZE, "compact linked_list layout");
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_ll_desc80) == DMA_HW_LL_DESC80_SIZE, "80-byte linked_list layout");
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_ll_desc32) == DMA_HW_LL_DESC32_SIZE, "32-byte in-slot linked_list layout");
DMA_HW_STATIC_ASSERT(sizeof(struct dma_hw_ll_desc64) == DMA_HW_LL_DESC64_SIZE, "64-byte in-slot linked_list layout");
#undef DMA_HW_STATIC_ASSERT

#endif /* DMASIM_HW_DMA_HW_H */

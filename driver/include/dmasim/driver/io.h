/* SPDX-License-Identifier: MIT */
/*
 * io.h - the kernel services the driver needs from its host: MMIO register
 * accessors on an __iomem cookie and completions.
 *
 * The driver is plain C and calls these as a Linux driver would. The
 * testbench implements the dmasim_io_* / dmasim_completion_* hooks in C++:
 * every register access is a TLM transaction from the CPU initiator (so it
 * costs simulated time) and waiting blocks the calling SystemC thread until
 * the interrupt handler signals completion.
 */
#ifndef DMASIM_DRIVER_IO_H
#define DMASIM_DRIVER_IO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks pointers that are MMIO cookies, never dereferenced directly. */
#define __iomem

/* A completion as in <linux/completion.h>: a count of pending wake-ups. */
struct completion {
	unsigned int done;
};

/* ---- Implemented by the testbench ------------------------------------ */
uint32_t dmasim_io_read32(uint64_t bus_addr);
void dmasim_io_write32(uint32_t value, uint64_t bus_addr);
/* Blocks the calling thread until x->done > 0, then consumes one wake-up. */
void dmasim_completion_wait(struct completion *x);
/* Adds one wake-up and wakes any thread waiting on x. */
void dmasim_completion_signal(struct completion *x);

/* ---- Kernel-style names used by the driver --------------------------- */

/**
 * ioremap - map a register window for MMIO accessors
 * @bus_addr: bus address of the window
 * @size: window size in bytes (unused: the bus is not translated)
 *
 * Return: a cookie for readl()/writel(); the bus address itself.
 */
static inline void __iomem *ioremap(uint64_t bus_addr, uint64_t size)
{
	(void)size;
	return (void __iomem *)(uintptr_t)bus_addr;
}

static inline void iounmap(void __iomem *addr)
{
	(void)addr;
}

static inline uint32_t readl(const void __iomem *addr)
{
	return dmasim_io_read32((uint64_t)(uintptr_t)addr);
}

static inline void writel(uint32_t value, void __iomem *addr)
{
	dmasim_io_write32(value, (uint64_t)(uintptr_t)addr);
}

static inline uint32_t ioread32(const void __iomem *addr)
{
	return readl(addr);
}

static inline void iowrite32(uint32_t value, void __iomem *addr)
{
	writel(value, addr);
}

static inline void init_completion(struct completion *x)
{
	x->done = 0;
}

static inline void reinit_completion(struct completion *x)
{
	x->done = 0;
}

static inline void wait_for_completion(struct completion *x)
{
	dmasim_completion_wait(x);
}

static inline void complete(struct completion *x)
{
	dmasim_completion_signal(x);
}

#ifdef __cplusplus
}
#endif

#endif /* DMASIM_DRIVER_IO_H */

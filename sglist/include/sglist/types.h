/* SPDX-License-Identifier: MIT */
/*
 * types.h - the kernel's fixed-width type names, so driver code written
 * against Linux headers compiles unchanged against sglist.
 */
#ifndef SGLIST_TYPES_H
#define SGLIST_TYPES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* Simulated RAM sits at bus address 0, so both are 64-bit byte addresses. */
typedef u64 phys_addr_t;
typedef u64 dma_addr_t;

typedef unsigned int gfp_t;

#endif /* SGLIST_TYPES_H */

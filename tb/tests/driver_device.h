// driver_device.h - what the driver tests that run no simulation set up in
// place of a probe: 64 MiB of scattered simulated memory and a device
// with the limits dmasim_probe() gives it.
#pragma once

#include <dmasim/workload/workload.h>
#include <gtest/gtest.h>

#include <cstdint>

/// Sets up simulated memory and `dev` with a DMA mask of `mask_bits`
/// bits, and makes `dd` use `dev` (call through ASSERT_NO_FATAL_FAILURE).
inline void init_driver_device(device* dev, dmasim_dev* dd, unsigned mask_bits) {
    ASSERT_EQ(sim_mem_init(uint64_t{64} << 20, SIM_MEM_SCATTERED, 3), 0);
    sim_device_init(dev, "dmasim");
    ASSERT_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(mask_bits)), 0);
    ASSERT_EQ(dma_set_max_seg_size(dev, UINT32_MAX), 0);
    dd->dev = dev;
}

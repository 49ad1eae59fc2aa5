// io_bind.h - connects the driver's MMIO and completion hooks to a CPU.
#pragma once

namespace dmasim::tb {

class Cpu;

/// Routes the driver's register accesses and completions through `cpu`
/// (null to unbind at teardown).
void bind_io(Cpu* cpu);

}  // namespace dmasim::tb

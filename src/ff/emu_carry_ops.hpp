// Host emulation of the PTX extended-precision instructions (mad.lo.cc, madc.hi.cc, add.cc, subc, …)
// with an explicit carry flag, PTX ISA §9.7.2 semantics. Instantiating Mont::mul_evenodd with it runs
// the device multiplier's exact instruction sequence on the CPU (the GPU tests; the CPU emulation of the
// NTT passes, src/cuda/ntt_pass.cuh).
#pragma once

#include <cstdint>

namespace cuzk {

/// Carry-flag machine for Mont<P>::mul_evenodd on the host.
struct EmuCarryOps {
  uint32_t cf = 0;  ///< CC.CF: carry after additions, borrow after subtractions

  uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return add3((uint32_t)((uint64_t)a * b), c, 0); }
  uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return add3((uint32_t)((uint64_t)a * b), c, cf); }
  uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    return add3((uint32_t)(((uint64_t)a * b) >> 32), c, cf);
  }
  uint32_t add_cc(uint32_t a, uint32_t b) { return add3(a, b, 0); }
  uint32_t addc_cc(uint32_t a, uint32_t b) { return add3(a, b, cf); }
  uint32_t addc(uint32_t a, uint32_t b) { return a + b + cf; }
  uint32_t sub_cc(uint32_t a, uint32_t b) { return sub3(a, b, 0); }
  uint32_t subc_cc(uint32_t a, uint32_t b) { return sub3(a, b, cf); }
  uint32_t subc(uint32_t a, uint32_t b) { return a - b - cf; }

 private:
  uint32_t add3(uint32_t a, uint32_t b, uint32_t c) {
    uint64_t s = (uint64_t)a + b + c;
    cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
  }
  uint32_t sub3(uint32_t a, uint32_t b, uint32_t c) {
    uint64_t d = (uint64_t)a - b - c;
    cf = (uint32_t)((d >> 32) & 1);
    return (uint32_t)d;
  }
};

}  // namespace cuzk

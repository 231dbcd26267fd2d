#pragma once
/// @file
/// The L2 flusher's kernel (l2_flusher.h), as PTX, with the mode each FlushPass launches it
/// in. A header of its own so that tools/probes/l2_flush_state.cu can run the very kernel
/// labbook runs. No CUDA calls here.
#include "flush_passes.h"

namespace labbook::profiler {

// One kernel, launched once per pass over a buffer twice the size of L2. Mode 0 writes the
// buffer (16-byte units): on the H100 a read alone leaves the program's dirty lines in L2
// (they are evicted last), while writes compete with them and push them out, written back
// now rather than during the kernel. Mode 1 invalidates the buffer's own lines (128-byte
// units) with discard.global.L2, which drops them without writing them back, so that the
// kernel finds no dirty line to evict: what `ncu --cache-control all` leaves, an L2 without
// the program's data. Mode 2 reads the buffer through L2 (ld.global.cg), leaving clean lines;
// a store that never happens keeps the reads. Mode 3 writes whole 128-byte lines, each from
// the thread that mode 1 gives it, for studies of L2's two partitions (flush_passes.h). PTX,
// so that the driver builds it for the GPU at hand (discard needs compute capability 8.0).
inline constexpr const char* kL2FlushPtx = R"(
.version 7.4
.target sm_80
.address_size 64

.visible .entry labbook_l2_flush(.param .u64 buffer, .param .u64 units, .param .u32 mode)
{
  .reg .pred %p<6>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<9>;
  ld.param.u64 %rd1, [buffer];
  ld.param.u64 %rd2, [units];
  ld.param.u32 %r6, [mode];
  setp.eq.u32 %p2, %r6, 1;
  setp.eq.u32 %p3, %r6, 2;
  setp.eq.u32 %p5, %r6, 3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd3, %r1, %r2;
  cvt.u64.u32 %rd4, %r3;
  add.u64 %rd3, %rd3, %rd4;
  mul.wide.u32 %rd5, %r4, %r2;
  mov.u32 %r5, 0;
  mov.u32 %r7, 0;
LOOP:
  setp.ge.u64 %p1, %rd3, %rd2;
  @%p1 bra DONE;
  @%p2 bra DISCARD;
  @%p3 bra READ;
  @%p5 bra LINE;
  shl.b64 %rd6, %rd3, 4;
  add.u64 %rd7, %rd1, %rd6;
  st.global.v4.u32 [%rd7], {%r5, %r5, %r5, %r5};
  bra NEXT;
READ:
  shl.b64 %rd6, %rd3, 4;
  add.u64 %rd7, %rd1, %rd6;
  ld.global.cg.v4.u32 {%r8, %r9, %r10, %r11}, [%rd7];
  xor.b32 %r7, %r7, %r8;
  xor.b32 %r7, %r7, %r9;
  xor.b32 %r7, %r7, %r10;
  xor.b32 %r7, %r7, %r11;
  bra NEXT;
LINE:
  shl.b64 %rd6, %rd3, 7;
  add.u64 %rd7, %rd1, %rd6;
  st.global.v4.u32 [%rd7], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+16], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+32], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+48], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+64], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+80], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+96], {%r5, %r5, %r5, %r5};
  st.global.v4.u32 [%rd7+112], {%r5, %r5, %r5, %r5};
  bra NEXT;
DISCARD:
  shl.b64 %rd6, %rd3, 7;
  add.u64 %rd7, %rd1, %rd6;
  discard.global.L2 [%rd7], 128;
NEXT:
  add.u64 %rd3, %rd3, %rd5;
  bra LOOP;
DONE:
  setp.eq.u32 %p4, %r7, 0x9E3779B9;
  @%p4 st.global.u32 [%rd1], %r7;
  ret;
}
)";

inline constexpr const char* kL2FlushKernel = "labbook_l2_flush";

/// The kernel's `mode` parameter for a pass.
constexpr unsigned l2_flush_mode(FlushPass pass) {
  return pass == FlushPass::Write ? 0 : pass == FlushPass::Discard ? 1 : pass == FlushPass::Read ? 2 : 3;
}

/// The bytes of one of a pass's `units`: Discard and WriteLines take a 128-byte line a thread
/// at a time, Write and Read 16 bytes.
constexpr unsigned l2_flush_unit_bytes(FlushPass pass) {
  return pass == FlushPass::Discard || pass == FlushPass::WriteLines ? 128 : 16;
}

}  // namespace labbook::profiler

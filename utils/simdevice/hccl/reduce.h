//===- reduce.h - HCCL's element types and reductions -----------*- C++ -*-===//
//
// Contract: the size of each HcclDataType's element, which types and
// operations the real library's checks accept (its op_common.cc), and the
// reduction of one rank's elements into an accumulator, as the collectives
// apply it: in rank order, each step rounded to the type (float16 and
// bfloat16 to nearest, ties to even; integers wrap).
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HCCL_REDUCE_H
#define MSSIM_HCCL_REDUCE_H

#include "hccl/hccl_types.h"

#include <cstddef>
#include <cstdint>

namespace mssim {
namespace hccl {

/// Bytes per element; 0 for a value that is no HcclDataType.
size_t elementSize(HcclDataType type);
/// What the real checks return for `type` in a collective that moves data
/// (`reduces` false) or reduces it, and for `op` on it: HCCL_SUCCESS,
/// HCCL_E_NOT_SUPPORT or HCCL_E_PARA (an operation that is none).
HcclResult checkType(HcclDataType type, bool reduces);
HcclResult checkOp(HcclDataType type, HcclReduceOp op);

/// acc[i] = acc[i] op in[i] for `count` elements of `type` (a type and op
/// that passed the checks).
void reduceInto(uint8_t *acc, const uint8_t *in, size_t count,
                HcclDataType type, HcclReduceOp op);

/// IEEE binary16 and bfloat16 to float and back (nearest, ties to even).
float halfToFloat(uint16_t half);
uint16_t floatToHalf(float value);
float bfloat16ToFloat(uint16_t value);
uint16_t floatToBfloat16(float value);

} // namespace hccl
} // namespace mssim

#endif

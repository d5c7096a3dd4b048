//===- Kernels.h - Tile-granular numeric kernels ----------------*- C++ -*-===//
//
// The arithmetic of the SIMD/SFU engine, the DPE, the reduction engine and
// the layout unit on dense tiles. The control core's scalar arithmetic calls
// the same kernels with one element, so scalar and tile semantics agree.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_KERNELS_H
#define MTIA_SIM_KERNELS_H

#include "mtia/Program.h"

#include <cstdint>

namespace mtia {

bool binaryFnSupports(BinaryFn fn, DType type);
bool unaryFnSupports(UnaryFn fn, DType type);
bool reduceFnSupports(ReduceFn fn, DType type);
/// Whether a unary function runs on the special-function tables.
bool isTranscendental(UnaryFn fn);

/// d[i] = fn(a[i], b[i]) for `count` elements of `type`.
void simdBinary(BinaryFn fn, DType type, uint8_t *d, const uint8_t *a,
                const uint8_t *b, int64_t count);
void simdUnary(UnaryFn fn, DType type, uint8_t *d, const uint8_t *a,
               int64_t count);
/// d[i] = pred(a[i], b[i]) as i1 (one byte, 0 or 1).
void simdCompare(Pred pred, DType type, uint8_t *d, const uint8_t *a,
                 const uint8_t *b, int64_t count);
/// d[i] = c[i] ? a[i] : b[i]; c is i1.
void simdSelect(DType type, uint8_t *d, const uint8_t *c, const uint8_t *a,
                const uint8_t *b, int64_t count);
/// d[i] = a[i] * b[i] + c[i] with a single rounding.
void simdFma(DType type, uint8_t *d, const uint8_t *a, const uint8_t *b,
             const uint8_t *c, int64_t count);

/// C (m x n, accType) = A (m x k) * B (k x n) + Acc (or 0 when acc is null),
/// all dense row-major, as a dot-product engine of depth `depth` (the DPE
/// tile's K) computes it: each f32 element of C takes the products of
/// `depth` consecutive k at a time, in increasing k, and adds them to itself
/// with one rounding to f32 (the sum is formed in f64, where the products
/// are exact). i32 accumulation wraps. Independent of the host's vector
/// width. C may overlap A or B: they are read before C is written.
void dpeMatmul(DType inType, DType accType, uint8_t *c, const uint8_t *a,
               const uint8_t *b, const uint8_t *acc, int64_t m, int64_t n,
               int64_t k, int64_t depth);

/// C (m x n) = A (m x k) * B (k x n) + Acc (or 0 when acc is null) in f64,
/// all dense row-major (acc may be c): every product and every sum is
/// rounded to f64, in increasing k, as the SIMD engine's passes over the
/// accumulator compute them.
void simdMatmulF64(uint8_t *c, const uint8_t *a, const uint8_t *b,
                   const uint8_t *acc, int64_t m, int64_t n, int64_t k);

/// Reduces src viewed as (outer, length, inner) along the middle axis into
/// dst (outer, inner); for argmax/argmin `index` receives i32 positions and
/// dst (optional) the values.
void reduceTile(ReduceFn fn, DType type, const uint8_t *src, uint8_t *dst,
                uint8_t *index, int64_t outer, int64_t length, int64_t inner);
/// Inclusive scan along the middle axis of (outer, length, inner).
void scanTile(ReduceFn fn, DType type, const uint8_t *src, uint8_t *dst,
              int64_t outer, int64_t length, int64_t inner, bool reverse);

/// Counts the `count` values of src (integers of `type`) into `bins` i32
/// counters starting at value 0, skipping elements whose mask byte is 0 (no
/// mask: none skipped) and values outside [0, bins), as Triton's
/// `tl.histogram` does.
void histogramTile(DType type, bool isSigned, const uint8_t *src,
                   const uint8_t *mask, uint8_t *counts, int64_t count,
                   int64_t bins);

/// dst[o, j, i] = src[o, index[o, j, i], i] with dst and index viewed as
/// (outer, length, inner) and src as (outer, srcLength, inner). Returns the
/// position in `index` of the first index outside [0, srcLength) before
/// writing anything, or -1.
int64_t gatherTile(unsigned elementBytes, uint8_t *dst, const uint8_t *src,
                   const uint8_t *index, DType indexType, int64_t outer,
                   int64_t srcLength, int64_t length, int64_t inner);

/// dst[dstOffset + sum(i_d * dstStrides_d)] = src[srcOffset + sum(i_d *
/// srcStrides_d)] for every index i of `shape` (offsets in elements).
void stridedCopy(unsigned elementBytes, uint8_t *dst, const uint8_t *src,
                 const int64_t *shape, const int64_t *srcStrides,
                 const int64_t *dstStrides, unsigned rank);

} // namespace mtia

#endif // MTIA_SIM_KERNELS_H

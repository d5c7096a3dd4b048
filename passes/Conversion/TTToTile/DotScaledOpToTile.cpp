//===- DotScaledOpToTile.cpp - tt.dot_scaled as decode, scale and dot -----===//
//
// Converts `tt.dot_scaled` to the operands decoded to f32 tiles on the SIMD
// engine (fp4 unpacked and decoded from its bits, fp8/bf16/fp16 widened),
// multiplied by their e8m0 scales, each repeated over its block of K
// elements by the memory-layout unit, and a dot of the results. Every value
// of these formats times every e8m0 scale is an f32 (bar overflow to
// infinity, and the subnormal products of scales near 2^-127), so the
// operands of the dot are the exact scaled values, as Triton's interpreter
// computes them.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mtia;

namespace {

/// Builds the decoding of one operand of a `tt.dot_scaled`.
class OperandDecoder {
public:
  OperandDecoder(OpBuilder &builder, Location loc, int64_t factor)
      : builder(builder), loc(loc), factor(factor) {}

  /// `operand` of `format` decoded to f32 and multiplied by its scales, for
  /// the left (MxK) or right (KxN) side; `kPack` tells whether fp4 packs
  /// along K.
  Value decode(Value operand, Value scale, tt::ScaleDotElemType format,
               bool kPack, bool isRhs) {
    Value values;
    if (format == tt::ScaleDotElemType::E2M1) {
      int64_t rank = cast<tile::TileType>(operand.getType()).getRank();
      int64_t packAxis = (kPack == isRhs) ? rank - 2 : rank - 1;
      values = decodeFp4(unpackNibbles(operand, packAxis));
    } else {
      values = widenTile(builder, loc, operand, builder.getF32Type());
    }
    if (!scale)
      return values;
    // The scale bytes are repeated (and transposed) by the MLU before they
    // are decoded: a quarter of the bytes of f32 scales to move and hold.
    return binary(tile::BinaryKind::MulF, values,
                  decodeE8M0(expandScale(scale, isRhs)));
  }

private:
  Value binary(tile::BinaryKind kind, Value lhs, Value rhs) {
    return tile::BinaryOp::create(builder, loc, lhs.getType(), kind, lhs, rhs);
  }

  Value convert(tile::CastKind kind, tile::TileType type, Value source) {
    return tile::CastOp::create(
        builder, loc, type, tile::CastKindAttr::get(builder.getContext(), kind),
        source, tile::RoundingModeAttr());
  }

  Value splat(Value like, int64_t value) {
    return createIntegerSplat(builder, loc,
                              cast<tile::TileType>(like.getType()), value);
  }

  Value reshape(Value source, ArrayRef<int64_t> shape) {
    auto type = cast<tile::TileType>(source.getType());
    return tile::ReshapeOp::create(builder, loc, type.withShape(shape), source);
  }

  /// The nibbles of the i8 tile `packed` as an i8 tile twice as long along
  /// `axis`, the low nibble of each byte first.
  Value unpackNibbles(Value packed, int64_t axis) {
    Value low = binary(tile::BinaryKind::AndI, packed, splat(packed, 0x0F));
    Value high = binary(tile::BinaryKind::ShRUI, packed, splat(packed, 4));
    auto type = cast<tile::TileType>(packed.getType());
    SmallVector<int64_t> pairShape(type.getShape());
    pairShape.insert(pairShape.begin() + axis + 1, 1);
    SmallVector<Value> halves = {reshape(low, pairShape),
                                 reshape(high, pairShape)};
    pairShape[axis + 1] = 2;
    Value pairs = tile::ConcatOp::create(
        builder, loc, type.withShape(pairShape), halves, axis + 1);
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] *= 2;
    return reshape(pairs, shape);
  }

  /// fp4 (e2m1) codes in i8 elements decoded to f32. The sign, exponent and
  /// mantissa bits placed in an f16 give the value times 2^-14 for every
  /// code (the subnormal 0.5 included), which is exact to scale back.
  Value decodeFp4(Value codes) {
    auto type = cast<tile::TileType>(codes.getType());
    tile::TileType bitsType = type.withElementType(builder.getI16Type());
    Value bits = convert(tile::CastKind::ExtUI, bitsType, codes);
    Value magnitude = binary(
        tile::BinaryKind::ShLI,
        binary(tile::BinaryKind::AndI, bits, splat(bits, 0x7)), splat(bits, 9));
    Value sign = binary(tile::BinaryKind::ShLI,
                        binary(tile::BinaryKind::AndI, bits, splat(bits, 0x8)),
                        splat(bits, 12));
    Value half = convert(tile::CastKind::Bitcast,
                         type.withElementType(builder.getF16Type()),
                         binary(tile::BinaryKind::OrI, magnitude, sign));
    Value value = widenTile(builder, loc, half, builder.getF32Type());
    Value scale = tile::SplatOp::create(
        builder, loc, cast<tile::TileType>(value.getType()),
        arith::ConstantOp::create(builder, loc,
                                  builder.getF32FloatAttr(16384)));
    return binary(tile::BinaryKind::MulF, value, scale);
  }

  /// e8m0 scales (i8) as f32: 2^(s - 127), the f32 subnormal 2^-127 for
  /// s = 0 and NaN for s = 255.
  Value decodeE8M0(Value scale) {
    auto type = cast<tile::TileType>(scale.getType());
    tile::TileType bitsType = type.withElementType(builder.getI32Type());
    Value bits = convert(tile::CastKind::ExtUI, bitsType, scale);
    bits = binary(tile::BinaryKind::ShLI, bits, splat(bits, 23));
    bits = binary(tile::BinaryKind::MaxUI, bits, splat(bits, 0x00400000));
    Value infinite = tile::CmpIOp::create(
        builder, loc, bitsType.withElementType(builder.getI1Type()),
        tile::CmpIPredicate::EQ, bits, splat(bits, 0x7F800000));
    bits = tile::SelectOp::create(builder, loc, bitsType, infinite,
                                  splat(bits, 0x7FC00000), bits);
    return convert(tile::CastKind::Bitcast,
                   type.withElementType(builder.getF32Type()), bits);
  }

  /// Scales of shape [B×]R×(K/f) repeated f times along K, and transposed
  /// to K×N for the right operand.
  Value expandScale(Value scale, bool isRhs) {
    auto type = cast<tile::TileType>(scale.getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> blocks(type.getShape());
    blocks.push_back(1);
    Value expanded = reshape(scale, blocks);
    blocks.back() = factor;
    expanded = tile::BroadcastOp::create(builder, loc, type.withShape(blocks),
                                         expanded, DenseI64ArrayAttr());
    SmallVector<int64_t> shape(type.getShape());
    shape.back() *= factor;
    expanded = reshape(expanded, shape);
    if (!isRhs)
      return expanded;
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(permutation[rank - 2], permutation[rank - 1]);
    std::swap(shape[rank - 2], shape[rank - 1]);
    return tile::TransposeOp::create(builder, loc, type.withShape(shape),
                                     expanded,
                                     builder.getDenseI64ArrayAttr(permutation));
  }

  OpBuilder &builder;
  Location loc;
  /// The number of K elements per scale.
  int64_t factor;
};

/// `tt.dot_scaled` as its decoded operands' dot. The scale factor comes from
/// the op; which variants are refused is checked before the conversion
/// (ConvertTTToTile.cpp).
struct DotScaledPattern : public OpConversionPattern<tt::DotScaledOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::DotScaledOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    OperandDecoder decoder(rewriter, op.getLoc(), op.getScaleFactor());
    Value lhs = decoder.decode(adaptor.getA(), adaptor.getAScale(),
                               op.getAElemType(), op.getLhsKPack(),
                               /*isRhs=*/false);
    Value rhs = decoder.decode(adaptor.getB(), adaptor.getBScale(),
                               op.getBElemType(), op.getRhsKPack(),
                               /*isRhs=*/true);
    rewriter.replaceOp(
        op, createDot(rewriter, op.getLoc(), lhs, rhs, adaptor.getC()));
    return success();
  }
};

} // namespace

void mtia::populateDotScaledPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<DotScaledPattern>(converter, patterns.getContext());
}

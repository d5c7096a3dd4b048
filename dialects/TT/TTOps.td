//===- TTOps.td - Operations of the `tt` dialect ------------*- tablegen -*-===//
//
// Assembly formats follow what Triton 3.9 prints, so that TTIR produced by
// the Triton frontend parses unchanged. Verifiers check the rules the Triton
// frontend guarantees; violating IR is rejected with a located error.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TT_TTOPS_TD
#define MTIA_DIALECT_TT_TTOPS_TD

include "dialects/TT/TTDialect.td"
include "dialects/TT/TTAttrs.td"
include "dialects/TT/TTTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TT_GlobalMemory : Resource<"::mtia::tt::GlobalMemory">;

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<TT_Dialect, mnemonic, traits>;

// The type of `value` is the pointee type of `ptr`, elementwise.
class TT_PointeeOf<string ptr, string value>
    : TypesMatchWith<value # " type matches the pointee of " # ptr, ptr, value,
                     "::mtia::tt::getPointeeType($_self)">;

// Lets the parser infer the type of the optional operand `operand` from
// `source`. The comparison is disabled (an absent optional operand has no
// type); the op's verifier checks the operand when it is present.
class TT_OptionalOperandTypeFrom<string source, string operand, string transform>
    : TypesMatchWith<operand # " type is inferred from " # source, source, operand,
                     transform, "true || std::equal_to<>()">;

//===----------------------------------------------------------------------===//
// Casts.
//===----------------------------------------------------------------------===//

def TT_IntToPtrOp : TT_Op<"int_to_ptr", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "cast a 64-bit integer to a pointer";
  let arguments = (ins TT_I64Like:$src);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_PtrToIntOp : TT_Op<"ptr_to_int", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "cast a pointer to a 64-bit integer";
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs TT_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_BitcastOp : TT_Op<"bitcast", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "reinterpret the bits of a value as another type of the same width";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_FpToFpOp : TT_Op<"fp_to_fp", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "convert between floating-point types, including fp8";
  let description = [{
    Converts between floating-point types with an explicit rounding mode for
    narrowing conversions (`rtne` or `rtz`); widening conversions are exact and
    carry no rounding mode.
  }];
  let arguments = (ins TT_FloatLike:$src, OptionalAttr<TT_RoundingMode>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat =
      "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Arithmetic.
//===----------------------------------------------------------------------===//

def TT_ClampFOp : TT_Op<"clampf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "clamp a floating-point value to [min, max]";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNan:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat =
      "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)";
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "correctly rounded square root";
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "correctly rounded division";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "high half of the unsigned double-width product";
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [Elementwise, SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call of an external elementwise library function";
  let description = [{
    Applies `symbol` from the library `libpath`/`libname` elementwise. CUDA
    TTIR names libdevice functions (`__nv_tanhf`, ...) with empty library
    names; a backend maps the symbols to its own implementations. A `pure`
    call has no memory effects; another may read and write global memory,
    as Triton takes it.
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname, StrAttr:$libpath,
                       StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
}

def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [Elementwise]> {
  let summary = "inline assembly applied elementwise";
  let description = [{
    `tl.inline_asm_elementwise` runs `asm_string`, assembly of the GPU the
    kernel was written for (PTX or AMDGCN), on `packed_element` elements at a
    time, with LLVM inline-assembly `constraints`. The dialect parses it so
    that the tile stage can report, at its location, that the MTIA cannot run
    another machine's assembly.
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element, Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Pointer arithmetic, loads and stores.
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_Op<"addptr", [Pure, Elementwise, SameOperandsAndResultShape,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `%r = tt.addptr %p, %off` computes `p + off * sizeof(pointee)` elementwise.
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
}

def TT_AdvanceOp : TT_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance a block pointer by per-dimension offsets";
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure, SameVariadicOperandSize,
    TypesMatchWith<"base points to the block's elements", "result", "base",
                   "::mtia::tt::getBlockPointerBaseType($_self)">]> {
  let summary = "make a block pointer into a strided tensor";
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def TT_LoadOp : TT_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TT_PointeeOf<"ptr", "result">,
    TT_OptionalOperandTypeFrom<"ptr", "mask",
        "::mtia::tt::getI1SameShape(::mtia::tt::getPointeeType($_self))">,
    TT_OptionalOperandTypeFrom<"ptr", "other", "::mtia::tt::getPointeeType($_self)">]> {
  let summary = "load from a tensor of pointers, a pointer or a block pointer";
  let description = [{
    Loads the elements `ptr` points to. Where the optional `mask` is false
    nothing is read and the result holds `other` (undefined when `other` is
    absent). For block pointers, `boundaryCheck` lists the dimensions checked
    against the tensor's bounds and `padding` gives the value read out of
    bounds.
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    OptionalAttr<TT_PaddingOption>:$padding,
    OptionalAttr<TT_CachePolicyAttr>:$cachePolicy,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile
  );
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def TT_StoreOp : TT_Op<"store", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>,
    TT_PointeeOf<"ptr", "value">,
    TT_OptionalOperandTypeFrom<"ptr", "mask",
        "::mtia::tt::getI1SameShape(::mtia::tt::getPointeeType($_self))">]> {
  let summary = "store to a tensor of pointers, a pointer or a block pointer";
  let description = [{
    Stores `value` where `ptr` points; elements whose `mask` is false are not
    written.
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    OptionalAttr<TT_CachePolicyAttr>:$cachePolicy
  );
  let assemblyFormat = "$ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Atomics.
//===----------------------------------------------------------------------===//

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [SameOperandsAndResultShape,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>,
    TT_PointeeOf<"ptr", "val">, AllTypesMatch<["val", "result"]>]> {
  let summary = "atomic read-modify-write of global memory";
  let description = [{
    For each element whose `mask` is true: reads the value at `ptr`, combines
    it with `val` by the RMW operation, writes the result back atomically and
    returns the value read.
  }];
  let arguments = (ins TT_RMWOp:$atomic_rmw_op, TT_PtrLike:$ptr, TT_Type:$val,
                       Optional<TT_BoolLike>:$mask, TT_MemSemantic:$sem,
                       TT_MemSyncScope:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [SameOperandsAndResultShape,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>,
    TT_PointeeOf<"ptr", "cmp">, AllTypesMatch<["cmp", "val", "result"]>]> {
  let summary = "atomic compare-and-swap of global memory";
  let description = [{
    Reads the value at `ptr`; if it equals `cmp`, writes `val`. Returns the
    value read.
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val,
                       TT_MemSemantic:$sem, TT_MemSyncScope:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)
  }];
}

//===----------------------------------------------------------------------===//
// Shape manipulation.
//===----------------------------------------------------------------------===//

def TT_SplatOp : TT_Op<"splat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "broadcast a scalar to a tensor";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_UnsplatOp : TT_Op<"unsplat", [Pure,
    TypesMatchWith<"the result is the element type of the tensor", "src", "result",
                   "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "the one element of a tensor of one element";
  let description = [{
    `%s = tt.unsplat %t : tensor<1x1xf32>` reads the only element of `%t`
    (`x.item()` in Triton).
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "insert a dimension of size one";
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "reinterpret a tensor with another shape of the same size";
  let description = [{
    Row-major reshape. With `allow_reorder` the compiler may reorder the
    elements; `efficient_layout` is a layout hint. A reshape to its
    operand's own type (the frontend's `tl.max(x)` of a 1-D `x`) folds to
    the operand, as in Triton.
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder, UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "broadcast dimensions of size one";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_CatOp : TT_Op<"cat", [NoMemoryEffect, SameTypeOperands, SameOperandsAndResultElementType]> {
  let summary = "concatenate two tensors (element order unspecified)";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_JoinOp : TT_Op<"join", [NoMemoryEffect, SameTypeOperands, SameOperandsAndResultElementType]> {
  let summary = "join two tensors along a new minor dimension of size two";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [NoMemoryEffect, AllTypesMatch<["outLHS", "outRHS"]>]> {
  let summary = "split a tensor along its last dimension, of size two";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

def TT_TransOp : TT_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "permute the dimensions of a tensor";
  let description = [{
    Result dimension `i` is source dimension `order[i]`.
  }];
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "gather elements of a tensor along one axis";
  let description = [{
    `result[i0..i(axis)..] = src[i0..indices[i0..i(axis)..]..]`: the result has
    the shape of `indices`.
  }];
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TT_HistogramOp : TT_Op<"histogram", [Pure,
    TT_OptionalOperandTypeFrom<"src", "mask", "::mtia::tt::getI1SameShape($_self)">]> {
  let summary = "histogram of integer values into unit-width bins starting at zero";
  let arguments = (ins TT_IntTensor:$src, Optional<TT_BoolTensor>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "the 1-d tensor [start, end) of int32";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Program ids.
//===----------------------------------------------------------------------===//

def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "index of this program along a grid axis";
  let arguments = (ins TT_ProgramIDDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "number of programs along a grid axis";
  let arguments = (ins TT_ProgramIDDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Dot, reductions and scans.
//===----------------------------------------------------------------------===//

def TT_DotOp : TT_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "matrix product with accumulation: d = a * b + c";
  let description = [{
    `a` is MxK (or BxMxK), `b` KxN (or BxKxN), `c` and `d` MxN (or BxMxN).
    `inputPrecision` selects how f32 inputs are multiplied (tf32, tf32x3,
    ieee, ...); it has no effect for other input types.
  }];
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
                       DefaultValuedAttr<TT_InputPrecision,
                                         "::mtia::tt::InputPrecision::IEEE">:$inputPrecision,
                       DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
    AllTypesMatch<["c", "d"]>]> {
  let summary = "matrix product of microscaled operands: d = scale(a) * scale(b) + c";
  let description = [{
    `a` is MxK (or BxMxK), `b` KxN, `c` and `d` MxN, in the formats
    `a_elem_type` and `b_elem_type`: `e4m3` (f8E4M3FN), `e5m2` (f8E5M2),
    `bf16`, `fp16`, or `e2m1` (fp4, two values per i8: the low nibble is the
    even element, packed along K, or along M/N when `lhs_k_pack`/`rhs_k_pack`
    is false). `e2m3` and `e3m2` (fp6) are named by the enum but never made
    by the frontend. An optional scale holds one factor per block of 16 or
    32 consecutive K elements, MxK/f for `a` and NxK/f for `b` (i8 holds
    e8m0, 2^(s - 127)); one factor `f` for both.
  }];
  let arguments = (ins RankedTensorOf<[TT_Float, I8]>:$a,
                       RankedTensorOf<[TT_Float, I8]>:$b, TT_FloatTensor:$c,
                       Optional<RankedTensorOf<[TT_Float, I8]>>:$a_scale,
                       Optional<RankedTensorOf<[TT_Float, I8]>>:$b_scale,
                       TT_ScaleDotElemType:$a_elem_type,
                       TT_ScaleDotElemType:$b_elem_type, BoolAttr:$fastMath,
                       DefaultValuedAttr<BoolAttr, "true">:$lhs_k_pack,
                       DefaultValuedAttr<BoolAttr, "true">:$rhs_k_pack);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
  }];
  let extraClassDeclaration = [{
    /// The number of K elements that one scale factor covers (16 or 32;
    /// 32 when neither operand has a scale). Valid once verified.
    int64_t getScaleFactor();
  }];
  let hasVerifier = 1;
}

def TT_ReduceOp : TT_Op<"reduce", [Pure, SameOperandsShape, SingleBlock]> {
  let summary = "reduce tensors along an axis with a combine region";
  let description = [{
    Reduces N tensors of the same shape along `axis`. The combine region takes
    2N scalars (the N accumulated values, then the N new values) and yields N
    scalars with `tt.reduce.return`. Reducing a 1-d tensor gives scalars;
    otherwise the results are tensors without the reduced dimension.
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return",
    [HasParent<"ReduceOp">, Pure, Terminator, ReturnLike]> {
  let summary = "terminator of a tt.reduce combine region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SameOperandsAndResultShape, SingleBlock]> {
  let summary = "inclusive associative scan along an axis with a combine region";
  let description = [{
    Scans N tensors of the same shape along `axis` (from the end when
    `reverse` is set) with the combine region, which takes 2N scalars and
    yields N with `tt.scan.return`. Results have the operands' types.
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return",
    [HasParent<"ScanOp">, Pure, Terminator, ReturnLike]> {
  let summary = "terminator of a tt.scan combine region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_MapElementwiseOp : TT_Op<"map_elementwise",
    [SameOperandsAndResultShape, RecursiveMemoryEffects]> {
  let summary = "apply a scalar function elementwise (tl.map_elementwise)";
  let description = [{
    Applies the region to the elements of N tensors of one shape, `pack`
    consecutive elements (in row-major order) at a time: the region takes
    N * pack scalars (the pack elements of the first operand, then of the
    second, ...) and returns, with `tt.map_elementwise.return`, M * pack
    scalars (the pack elements of the first result, then of the second, ...).
    The region is a control-flow graph (`cf` branches, `scf.if`), so every
    element may take its own path. Triton 3.9 prints the op in generic form:

    ```mlir
    %z = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %0 = arith.subi %a, %b : i32
      tt.map_elementwise.return %0 : i32
    }) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs,
                       ConfinedAttr<I32Attr, [IntPositive]>:$pack);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region AnyRegion:$scalarOp);
  let hasRegionVerifier = 1;
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return",
    [HasParent<"MapElementwiseOp">, Pure, Terminator, ReturnLike]> {
  let summary = "terminator of a tt.map_elementwise region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// Debugging.
//===----------------------------------------------------------------------===//

def TT_PrintOp : TT_Op<"print", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "device-side print";
  let description = [{
    Prints `prefix` followed by the arguments; `isSigned` holds one flag per
    argument telling whether integers print as signed.
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
  let hasVerifier = 1;
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "device-side assert";
  let description = [{
    Aborts the kernel with `message` if any element of `condition` is false.
  }];
  let arguments = (ins AnyTypeOf<[I1, TT_BoolTensor]>:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

//===----------------------------------------------------------------------===//
// Tensor descriptors.
//===----------------------------------------------------------------------===//

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "make a tensor descriptor from a base pointer, shape and strides";
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "load the block of a tensor descriptor at the given indices";
  let arguments = (ins TT_TensorDescType:$desc, Variadic<I32>:$indices,
                       OptionalAttr<TT_CachePolicyAttr>:$cachePolicy);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store",
    [MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "store a block through a tensor descriptor at the given indices";
  let arguments = (ins TT_TensorDescType:$desc, TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Functions.
//===----------------------------------------------------------------------===//

def TT_FuncOp : TT_Op<"func", [AffineScope, AutomaticAllocationScope,
    CallableOpInterface, FunctionOpInterface, IsolatedFromAbove, OpAsmOpInterface,
    HasParent<"::mlir::ModuleOp">]> {
  let summary = "a Triton function";
  let description = [{
    A kernel (public) or a helper function (private, called with `tt.call`).
    Argument attributes carry the frontend's specialisation facts such as
    `tt.divisibility`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return isExternal() ? nullptr : &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return isExternal(); }
  }];
  let hasCustomAssemblyFormat = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "direct call of a tt.func";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
  }];
  let assemblyFormat = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "return from a tt.func";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange{}); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

#endif // MTIA_DIALECT_TT_TTOPS_TD

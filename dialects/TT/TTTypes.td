//===- TTTypes.td - Types of the `tt` dialect ---------------*- tablegen -*-===//

#ifndef MTIA_DIALECT_TT_TTTYPES_TD
#define MTIA_DIALECT_TT_TTTYPES_TD

include "dialects/TT/TTDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TT_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PointerType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer into global memory";
  let description = [{
    `!tt.ptr<f32>` points to an element of global memory; `!tt.ptr<f32, 3>`
    carries an explicit address space (1, the global address space, is the
    default and is not printed; `tl.const` parameters are in the constant
    address space 4, printed `!tt.ptr<f32, "constant">`). A pointer to a tensor (`!tt.ptr<tensor<..>>`)
    is a block pointer made by `tt.make_tensor_ptr`.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a tensor in global memory and of its blocks";
  let description = [{
    `!tt.tensordesc<64x32xf16>` describes a tensor in global memory (base,
    shape and strides held at run time) that is read and written in blocks of
    the static block shape. Reads out of bounds give zero, writes out of bounds
    are dropped.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::RankedTensorType":$blockType), [{
      return $_get(blockType.getContext(), blockType);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The block type with signless integer elements. Triton's frontend
    /// writes the signedness of integer blocks into the descriptor
    /// (`!tt.tensordesc<16x16xsi32>`), while the tensors that descriptor
    /// loads and stores, and the pointers it is made from, are signless.
    ::mlir::RankedTensorType getSignlessBlockType() const;
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints.
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[F8E4M3FNUZ, F8E4M3FN, F8E4M3B11FNUZ, F8E5M2,
                          F8E5M2FNUZ, F16, BF16, F32, F64], "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

def TT_Ptr : DialectType<TT_Dialect,
    And<[CPred<"::llvm::isa<::mtia::tt::PointerType>($_self)">,
         CPred<"!::llvm::isa<::mlir::RankedTensorType>("
               "::llvm::cast<::mtia::tt::PointerType>($_self).getPointeeType())">]>,
    "pointer", "::mtia::tt::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_FpIntTensor : AnyTypeOf<[TT_FloatTensor, TT_IntTensor]>;
def TT_Tensor : AnyTypeOf<[TT_FpIntTensor, TT_PtrTensor]>;

def TT_TensorPtr : DialectType<TT_Dialect,
    And<[CPred<"::llvm::isa<::mtia::tt::PointerType>($_self)">,
         CPred<"::llvm::isa<::mlir::RankedTensorType>("
               "::llvm::cast<::mtia::tt::PointerType>($_self).getPointeeType())">]>,
    "block pointer", "::mtia::tt::PointerType">;

def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

#endif // MTIA_DIALECT_TT_TTTYPES_TD

//===- TTAttrs.td - Enums and attributes of the `tt` dialect -*- tablegen -*-===//

#ifndef MTIA_DIALECT_TT_TTATTRS_TD
#define MTIA_DIALECT_TT_TTATTRS_TD

include "dialects/TT/TTDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class TT_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mtia::tt";
}

def TT_CacheModifier : TT_I32Enum<"CacheModifier", "cache modifier of a memory access", [
  I32EnumAttrCase<"NONE", 1, "none">,
  I32EnumAttrCase<"CA", 2, "ca">,
  I32EnumAttrCase<"CG", 3, "cg">,
  I32EnumAttrCase<"WB", 4, "wb">,
  I32EnumAttrCase<"CS", 5, "cs">,
  I32EnumAttrCase<"WT", 6, "wt">,
  I32EnumAttrCase<"CV", 7, "cv">,
]>;

def TT_EvictionPolicy : TT_I32Enum<"EvictionPolicy", "cache eviction policy", [
  I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
  I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
  I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">,
]>;

def TT_PaddingOption : TT_I32Enum<"PaddingOption", "value read out of bounds", [
  I32EnumAttrCase<"PAD_ZERO", 1, "zero">,
  I32EnumAttrCase<"PAD_NAN", 2, "nan">,
]>;

def TT_MemSemantic : TT_I32Enum<"MemSemantic", "memory ordering of an atomic", [
  I32EnumAttrCase<"RELAXED", 1, "relaxed">,
  I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
  I32EnumAttrCase<"RELEASE", 3, "release">,
  I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">,
]>;

def TT_MemSyncScope : TT_I32Enum<"MemSyncScope", "scope of an atomic", [
  I32EnumAttrCase<"GPU", 1, "gpu">,
  I32EnumAttrCase<"CTA", 2, "cta">,
  I32EnumAttrCase<"SYSTEM", 3, "sys">,
]>;

def TT_RMWOp : TT_I32Enum<"RMWOp", "read-modify-write operation of an atomic", [
  I32EnumAttrCase<"AND", 1, "and">,
  I32EnumAttrCase<"OR", 2, "or">,
  I32EnumAttrCase<"XOR", 3, "xor">,
  I32EnumAttrCase<"ADD", 4, "add">,
  I32EnumAttrCase<"FADD", 5, "fadd">,
  I32EnumAttrCase<"MAX", 6, "max">,
  I32EnumAttrCase<"MIN", 7, "min">,
  I32EnumAttrCase<"UMAX", 8, "umax">,
  I32EnumAttrCase<"UMIN", 9, "umin">,
  I32EnumAttrCase<"XCHG", 10, "exch">,
]>;

def TT_ProgramIDDim : TT_I32Enum<"ProgramIDDim", "axis of the launch grid", [
  I32EnumAttrCase<"X", 0, "x">,
  I32EnumAttrCase<"Y", 1, "y">,
  I32EnumAttrCase<"Z", 2, "z">,
]>;

def TT_RoundingMode : TT_I32Enum<"RoundingMode", "floating-point rounding mode", [
  I32EnumAttrCase<"RTZ", 0, "rtz">,
  I32EnumAttrCase<"RTNE", 1, "rtne">,
]>;

def TT_PropagateNan : TT_I32Enum<"PropagateNan", "NaN propagation of a clamp", [
  I32EnumAttrCase<"NONE", 0, "none">,
  I32EnumAttrCase<"ALL", 0xFFFF, "all">,
]>;

def TT_InputPrecision : TT_I32Enum<"InputPrecision", "precision of dot inputs", [
  I32EnumAttrCase<"TF32", 0, "tf32">,
  I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">,
  I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
  I32EnumAttrCase<"BF16x6", 4, "bf16x6">,
]>;

def TT_ScaleDotElemType : TT_I32Enum<"ScaleDotElemType",
    "element format of a tt.dot_scaled operand", [
  I32EnumAttrCase<"E4M3", 0, "e4m3">,
  I32EnumAttrCase<"E5M2", 1, "e5m2">,
  I32EnumAttrCase<"E2M3", 2, "e2m3">,
  I32EnumAttrCase<"E3M2", 3, "e3m2">,
  I32EnumAttrCase<"E2M1", 4, "e2m1">,
  I32EnumAttrCase<"BF16", 5, "bf16">,
  I32EnumAttrCase<"FP16", 6, "fp16">,
]>;

class TT_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TT_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TT_CachePolicyAttr : TT_Attr<"CachePolicy", "cache_policy"> {
  let summary = "cache modifier and eviction policy of a load or store";
  let description = [{
    `#tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>`
    carries the `cache_modifier` and `eviction_policy` hints of `tl.load` and
    `tl.store`. Both are performance hints only; they never change results.
  }];
  let parameters = (ins
    EnumParameter<TT_CacheModifier>:$cache_modifier,
    EnumParameter<TT_EvictionPolicy>:$eviction_policy
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // MTIA_DIALECT_TT_TTATTRS_TD

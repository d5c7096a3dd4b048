//===- TileAttrs.td - Enums of the `tile` dialect ----------*- tablegen -*-===//

#ifndef MTIA_DIALECT_TILE_TILEATTRS_TD
#define MTIA_DIALECT_TILE_TILEATTRS_TD

include "dialects/Tile/TileDialect.td"
include "mlir/IR/EnumAttr.td"

class Tile_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mtia::tile";
}

def Tile_Unit : Tile_I32Enum<"Unit", "unit of a PE that executes an operation", [
  I32EnumAttrCase<"DPE", 0, "dpe">,
  I32EnumAttrCase<"SIMD", 1, "simd">,
  I32EnumAttrCase<"Reduce", 2, "reduce">,
  I32EnumAttrCase<"MLU", 3, "mlu">,
  I32EnumAttrCase<"DMA", 4, "dma">,
  I32EnumAttrCase<"Core", 5, "core">,
]>;

def Tile_BinaryKind : Tile_I32Enum<"BinaryKind", "elementwise binary operation of the SIMD engine", [
  // Floating point.
  I32EnumAttrCase<"AddF", 0, "addf">,
  I32EnumAttrCase<"SubF", 1, "subf">,
  I32EnumAttrCase<"MulF", 2, "mulf">,
  I32EnumAttrCase<"DivF", 3, "divf">,
  I32EnumAttrCase<"RemF", 4, "remf">,
  I32EnumAttrCase<"MaximumF", 5, "maximumf">,
  I32EnumAttrCase<"MinimumF", 6, "minimumf">,
  I32EnumAttrCase<"MaxNumF", 7, "maxnumf">,
  I32EnumAttrCase<"MinNumF", 8, "minnumf">,
  I32EnumAttrCase<"PowF", 9, "powf">,
  I32EnumAttrCase<"Atan2F", 10, "atan2f">,
  I32EnumAttrCase<"CopySignF", 11, "copysignf">,
  // Integer.
  I32EnumAttrCase<"AddI", 20, "addi">,
  I32EnumAttrCase<"SubI", 21, "subi">,
  I32EnumAttrCase<"MulI", 22, "muli">,
  I32EnumAttrCase<"DivSI", 23, "divsi">,
  I32EnumAttrCase<"DivUI", 24, "divui">,
  I32EnumAttrCase<"RemSI", 25, "remsi">,
  I32EnumAttrCase<"RemUI", 26, "remui">,
  I32EnumAttrCase<"MaxSI", 27, "maxsi">,
  I32EnumAttrCase<"MinSI", 28, "minsi">,
  I32EnumAttrCase<"MaxUI", 29, "maxui">,
  I32EnumAttrCase<"MinUI", 30, "minui">,
  I32EnumAttrCase<"AndI", 31, "andi">,
  I32EnumAttrCase<"OrI", 32, "ori">,
  I32EnumAttrCase<"XOrI", 33, "xori">,
  I32EnumAttrCase<"ShLI", 34, "shli">,
  I32EnumAttrCase<"ShRSI", 35, "shrsi">,
  I32EnumAttrCase<"ShRUI", 36, "shrui">,
  I32EnumAttrCase<"MulHiUI", 37, "mulhiui">,
]>;

def Tile_UnaryKind : Tile_I32Enum<"UnaryKind", "elementwise unary operation of the SIMD engine", [
  I32EnumAttrCase<"NegF", 0, "negf">,
  I32EnumAttrCase<"AbsF", 1, "absf">,
  I32EnumAttrCase<"Floor", 2, "floor">,
  I32EnumAttrCase<"Ceil", 3, "ceil">,
  I32EnumAttrCase<"RoundEven", 4, "roundeven">,
  I32EnumAttrCase<"Round", 5, "round">,
  I32EnumAttrCase<"Trunc", 6, "trunc">,
  I32EnumAttrCase<"Sqrt", 7, "sqrt">,
  I32EnumAttrCase<"AbsI", 20, "absi">,
  I32EnumAttrCase<"CtPop", 21, "ctpop">,
]>;

def Tile_SpecialFunction : Tile_I32Enum<"SpecialFunction",
    "function evaluated by the special-function tables of the SIMD engine", [
  I32EnumAttrCase<"Exp", 0, "exp">,
  I32EnumAttrCase<"Exp2", 1, "exp2">,
  I32EnumAttrCase<"Log", 2, "log">,
  I32EnumAttrCase<"Log2", 3, "log2">,
  I32EnumAttrCase<"Sqrt", 4, "sqrt">,
  I32EnumAttrCase<"Rsqrt", 5, "rsqrt">,
  I32EnumAttrCase<"Recip", 6, "recip">,
  I32EnumAttrCase<"Sin", 7, "sin">,
  I32EnumAttrCase<"Cos", 8, "cos">,
  I32EnumAttrCase<"Tanh", 9, "tanh">,
  I32EnumAttrCase<"Erf", 10, "erf">,
  I32EnumAttrCase<"Sigmoid", 11, "sigmoid">,
  I32EnumAttrCase<"Expm1", 12, "expm1">,
  I32EnumAttrCase<"Log10", 13, "log10">,
  I32EnumAttrCase<"Log1p", 14, "log1p">,
  I32EnumAttrCase<"Tan", 15, "tan">,
  I32EnumAttrCase<"Asin", 16, "asin">,
  I32EnumAttrCase<"Acos", 17, "acos">,
  I32EnumAttrCase<"Atan", 18, "atan">,
  I32EnumAttrCase<"Sinh", 19, "sinh">,
  I32EnumAttrCase<"Cosh", 20, "cosh">,
  I32EnumAttrCase<"Asinh", 21, "asinh">,
  I32EnumAttrCase<"Acosh", 22, "acosh">,
  I32EnumAttrCase<"Atanh", 23, "atanh">,
  I32EnumAttrCase<"Erfc", 24, "erfc">,
  I32EnumAttrCase<"Cbrt", 25, "cbrt">,
  I32EnumAttrCase<"Erfinv", 26, "erfinv">,
]>;

def Tile_CmpIPredicate : Tile_I32Enum<"CmpIPredicate", "integer comparison", [
  I32EnumAttrCase<"EQ", 0, "eq">,
  I32EnumAttrCase<"NE", 1, "ne">,
  I32EnumAttrCase<"SLT", 2, "slt">,
  I32EnumAttrCase<"SLE", 3, "sle">,
  I32EnumAttrCase<"SGT", 4, "sgt">,
  I32EnumAttrCase<"SGE", 5, "sge">,
  I32EnumAttrCase<"ULT", 6, "ult">,
  I32EnumAttrCase<"ULE", 7, "ule">,
  I32EnumAttrCase<"UGT", 8, "ugt">,
  I32EnumAttrCase<"UGE", 9, "uge">,
]>;

def Tile_CmpFPredicate : Tile_I32Enum<"CmpFPredicate", "floating-point comparison", [
  I32EnumAttrCase<"OEQ", 0, "oeq">,
  I32EnumAttrCase<"ONE", 1, "one">,
  I32EnumAttrCase<"OLT", 2, "olt">,
  I32EnumAttrCase<"OLE", 3, "ole">,
  I32EnumAttrCase<"OGT", 4, "ogt">,
  I32EnumAttrCase<"OGE", 5, "oge">,
  I32EnumAttrCase<"UEQ", 6, "ueq">,
  I32EnumAttrCase<"UNE", 7, "une">,
  I32EnumAttrCase<"ULT", 8, "ult">,
  I32EnumAttrCase<"ULE", 9, "ule">,
  I32EnumAttrCase<"UGT", 10, "ugt">,
  I32EnumAttrCase<"UGE", 11, "uge">,
  I32EnumAttrCase<"ORD", 12, "ord">,
  I32EnumAttrCase<"UNO", 13, "uno">,
]>;

def Tile_CastKind : Tile_I32Enum<"CastKind", "element type conversion", [
  I32EnumAttrCase<"ExtF", 0, "extf">,
  I32EnumAttrCase<"TruncF", 1, "truncf">,
  I32EnumAttrCase<"FPToSI", 2, "fptosi">,
  I32EnumAttrCase<"FPToUI", 3, "fptoui">,
  I32EnumAttrCase<"SIToFP", 4, "sitofp">,
  I32EnumAttrCase<"UIToFP", 5, "uitofp">,
  I32EnumAttrCase<"ExtSI", 6, "extsi">,
  I32EnumAttrCase<"ExtUI", 7, "extui">,
  I32EnumAttrCase<"TruncI", 8, "trunci">,
  I32EnumAttrCase<"Bitcast", 9, "bitcast">,
]>;

def Tile_RoundingMode : Tile_I32Enum<"RoundingMode", "floating-point rounding mode", [
  I32EnumAttrCase<"RTNE", 0, "rtne">,
  I32EnumAttrCase<"RTZ", 1, "rtz">,
]>;

// Each combine kind is named after the arith operation it applies, which is
// how getSingleCombineKind (TileOps.cpp) recognises it in a combine region.
def Tile_CombineKind : Tile_I32Enum<"CombineKind", "combine operation of a reduction", [
  I32EnumAttrCase<"AddF", 0, "addf">,
  I32EnumAttrCase<"MulF", 1, "mulf">,
  I32EnumAttrCase<"MaximumF", 2, "maximumf">,
  I32EnumAttrCase<"MinimumF", 3, "minimumf">,
  I32EnumAttrCase<"MaxNumF", 4, "maxnumf">,
  I32EnumAttrCase<"MinNumF", 5, "minnumf">,
  I32EnumAttrCase<"AddI", 20, "addi">,
  I32EnumAttrCase<"MulI", 21, "muli">,
  I32EnumAttrCase<"MaxSI", 22, "maxsi">,
  I32EnumAttrCase<"MinSI", 23, "minsi">,
  I32EnumAttrCase<"MaxUI", 24, "maxui">,
  I32EnumAttrCase<"MinUI", 25, "minui">,
  I32EnumAttrCase<"AndI", 26, "andi">,
  I32EnumAttrCase<"OrI", 27, "ori">,
  I32EnumAttrCase<"XOrI", 28, "xori">,
]>;

def Tile_ArgReduceKind : Tile_I32Enum<"ArgReduceKind", "index-returning reduction", [
  I32EnumAttrCase<"ArgMax", 0, "argmax">,
  I32EnumAttrCase<"ArgMin", 1, "argmin">,
]>;

// A group of the programs of a launch that run at once on distinct PEs and
// take part in one collective operation: those that differ only in their
// program id along grid axis 0 (`row`: with a grid of 8 x 8, a row of PEs),
// along axis 1 (`column`), or all programs (`grid`).
def Tile_PEGroup : Tile_I32Enum<"PEGroup", "programs that take part in a collective operation", [
  I32EnumAttrCase<"Row", 0, "row">,
  I32EnumAttrCase<"Column", 1, "column">,
  I32EnumAttrCase<"Grid", 2, "grid">,
]>;

// The neighbour a program exchanges tiles with: `east` and `west` along
// grid axis 0 (program id + 1 and - 1; with a grid of 8 x 8, the next and
// previous column of PEs), `south` and `north` along axis 1.
def Tile_PEDirection : Tile_I32Enum<"PEDirection", "neighbour of a program in the grid", [
  I32EnumAttrCase<"East", 0, "east">,
  I32EnumAttrCase<"West", 1, "west">,
  I32EnumAttrCase<"South", 2, "south">,
  I32EnumAttrCase<"North", 3, "north">,
]>;

def Tile_PEQuery : Tile_I32Enum<"PEQuery", "what the control core reads of the PE it runs on", [
  I32EnumAttrCase<"Row", 0, "row">,
  I32EnumAttrCase<"Column", 1, "column">,
  I32EnumAttrCase<"Rows", 2, "rows">,
  I32EnumAttrCase<"Columns", 3, "columns">,
  I32EnumAttrCase<"Index", 4, "index">,
]>;

#endif // MTIA_DIALECT_TILE_TILEATTRS_TD

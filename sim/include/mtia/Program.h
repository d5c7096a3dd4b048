//===- Program.h - The MTIA program format ----------------------*- C++ -*-===//
//
// The in-memory form of a program file (docs/program-format.md): kernel
// parameters, the local-memory plan, the control code and its unit
// instructions, and the source-location table. `parseProgram` validates
// untrusted bytes completely, so that the simulator can trust the result.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PROGRAM_H
#define MTIA_PROGRAM_H

#include "mtia/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mtia {

constexpr uint32_t kProgramFormatVersion = 2;
constexpr char kProgramMagic[8] = {'M', 'T', 'I', 'A', 'P', 'R', 'O', 'G'};
/// The container's header: magic, version (u32), flags (u32), body length
/// (u64) and the body's CRC-32 (u32, that of zlib), little-endian.
constexpr size_t kProgramHeaderBytes = 8 + 4 + 4 + 8 + 4;
constexpr unsigned kMaxTileRank = 4;
constexpr unsigned kMaxCommandInts = 1 + 3 * kMaxTileRank;
/// Tiles start at offsets into their page that are multiples of this many
/// bytes, so that every element of up to 8 bytes is naturally aligned.
constexpr int64_t kSlotAlignmentBytes = 8;
constexpr unsigned kMaxCommandScalars = 4;

/// The agents of a PE: the control core and the units it issues to. The
/// fabric interface has a read queue (loads, gathers) and a write queue
/// (stores, scatters, atomics) that run independently.
enum class Unit : uint8_t { Ctl, DmaIn, DmaOut, Dpe, Simd, Re, Mlu };
constexpr unsigned kNumUnits = 7;
const char *unitName(Unit unit);

#define MTIA_OPS(X)                                                            \
  X(Li, "li", Ctl)                                                             \
  X(Lf, "lf", Ctl)                                                             \
  X(Mov, "mov", Ctl)                                                           \
  X(FMov, "fmov", Ctl)                                                         \
  X(IOp, "iop", Ctl)                                                           \
  X(FOp, "fop", Ctl)                                                           \
  X(FUn, "fun", Ctl)                                                           \
  X(FFma, "ffma", Ctl)                                                         \
  X(ICmp, "icmp", Ctl)                                                         \
  X(FCmp, "fcmp", Ctl)                                                         \
  X(IToF, "itof", Ctl)                                                         \
  X(FToI, "ftoi", Ctl)                                                         \
  X(FMvX, "fmvx", Ctl)                                                         \
  X(FMvF, "fmvf", Ctl)                                                         \
  X(ISel, "isel", Ctl)                                                         \
  X(FSel, "fsel", Ctl)                                                         \
  X(Pid, "pid", Ctl)                                                           \
  X(PE, "pe", Ctl)                                                             \
  X(Scratch, "scratch", Ctl)                                                   \
  X(NProg, "nprog", Ctl)                                                       \
  X(Param, "param", Ctl)                                                       \
  X(FParam, "fparam", Ctl)                                                     \
  X(Ld, "ld", Ctl)                                                             \
  X(St, "st", Ctl)                                                             \
  X(Ldl, "ldl", Ctl)                                                           \
  X(Jmp, "jmp", Ctl)                                                           \
  X(Bz, "bz", Ctl)                                                             \
  X(Bnz, "bnz", Ctl)                                                           \
  X(Fence, "fence", Ctl)                                                       \
  X(Barrier, "barrier", Ctl)                                                   \
  X(Amo, "amo", Ctl)                                                           \
  X(Print, "print", Ctl)                                                       \
  X(Assert, "assert", Ctl)                                                     \
  X(End, "end", Ctl)                                                           \
  X(CbReserve, "cb.reserve", Ctl)                                              \
  X(CbPush, "cb.push", Ctl)                                                    \
  X(CbWait, "cb.wait", Ctl)                                                    \
  X(CbPop, "cb.pop", Ctl)                                                      \
  X(DmaLoad, "dma.load", DmaIn)                                                \
  X(DmaStore, "dma.store", DmaOut)                                             \
  X(DmaGather, "dma.gather", DmaIn)                                            \
  X(DmaScatter, "dma.scatter", DmaOut)                                         \
  X(DmaAtomic, "dma.atomic", DmaOut)                                           \
  X(DpeMma, "dpe.mma", Dpe)                                                    \
  X(SimdBinary, "simd.binary", Simd)                                           \
  X(SimdUnary, "simd.unary", Simd)                                             \
  X(SimdSelect, "simd.select", Simd)                                           \
  X(SimdFma, "simd.fma", Simd)                                                 \
  X(SimdMma, "simd.mma", Simd)                                                 \
  X(SimdCmp, "simd.cmp", Simd)                                                 \
  X(SimdCast, "simd.cast", Simd)                                               \
  X(SimdFill, "simd.fill", Simd)                                               \
  X(SimdIota, "simd.iota", Simd)                                               \
  X(SimdPrint, "simd.print", Simd)                                             \
  X(SimdAssert, "simd.assert", Simd)                                           \
  X(ReReduce, "re.reduce", Re)                                                 \
  X(ReScan, "re.scan", Re)                                                     \
  X(ReHistogram, "re.histogram", Re)                                           \
  X(ReXReduce, "re.xreduce", Re)                                               \
  X(ReXBroadcast, "re.xbroadcast", Re)                                         \
  X(ReXShift, "re.xshift", Re)                                                 \
  X(MluCopy, "mlu.copy", Mlu)                                                  \
  X(MluGather, "mlu.gather", Mlu)

enum class Op : uint8_t {
#define MTIA_OP_ENUM(id, name, unit) id,
  MTIA_OPS(MTIA_OP_ENUM)
#undef MTIA_OP_ENUM
};
const char *opName(Op op);

/// Elementwise binary functions (SIMD and the control core's scalar ops).
#define MTIA_BINARY_FNS(X)                                                     \
  X(Add, "add")                                                                \
  X(Sub, "sub")                                                                \
  X(Mul, "mul") X(Div, "div") X(Rem, "rem") X(Min, "min") X(Max, "max")        \
      X(MinNum, "minnum") X(MaxNum, "maxnum") X(Pow, "pow") X(Atan2, "atan2")  \
          X(CopySign, "copysign") X(And, "and") X(Or, "or") X(Xor, "xor")      \
              X(Shl, "shl") X(ShrS, "shrs") X(ShrU, "shru") X(DivU, "divu")    \
                  X(RemU, "remu") X(MinU, "minu") X(MaxU, "maxu")              \
                      X(MulHiU, "mulhiu") X(MulHiS, "mulhis")

/// Elementwise unary functions; the transcendental ones run on the SFU.
#define MTIA_UNARY_FNS(X)                                                      \
  X(Neg, "neg")                                                                \
  X(Abs, "abs")                                                                \
  X(Not, "not") X(Floor, "floor") X(Ceil, "ceil") X(Trunc, "trunc")            \
      X(Round, "round") X(Rint, "rint") X(Sqrt, "sqrt") X(Rsqrt, "rsqrt")      \
          X(Exp, "exp") X(Exp2, "exp2") X(Expm1, "expm1") X(Log, "log")        \
              X(Log2, "log2") X(Log10, "log10") X(Log1p, "log1p")              \
                  X(Sin, "sin") X(Cos, "cos") X(Tan, "tan") X(Asin, "asin")    \
                      X(Acos, "acos") X(Atan, "atan") X(Sinh, "sinh")          \
                          X(Cosh, "cosh") X(Tanh, "tanh") X(Asinh, "asinh")    \
                              X(Acosh, "acosh") X(Atanh, "atanh")              \
                                  X(Erf, "erf") X(Erfc, "erfc")                \
                                      X(Cbrt, "cbrt") X(Sigmoid, "sigmoid")    \
                                          X(Popcount, "popcount")              \
                                              X(Erfinv, "erfinv")

#define MTIA_PREDICATES(X)                                                     \
  X(Eq, "eq")                                                                  \
  X(Ne, "ne")                                                                  \
  X(Slt, "slt") X(Sle, "sle") X(Sgt, "sgt") X(Sge, "sge") X(Ult, "ult")        \
      X(Ule, "ule") X(Ugt, "ugt") X(Uge, "uge") X(Oeq, "oeq") X(One, "one")    \
          X(Olt, "olt") X(Ole, "ole") X(Ogt, "ogt") X(Oge, "oge")              \
              X(Ord, "ord") X(Ueq, "ueq") X(Une, "une") X(FUlt, "fult")        \
                  X(FUle, "fule") X(FUgt, "fugt") X(FUge, "fuge")              \
                      X(Uno, "uno")

/// Reduction and scan combiners.
#define MTIA_REDUCE_FNS(X)                                                     \
  X(Sum, "sum")                                                                \
  X(Prod, "prod")                                                              \
  X(RMax, "max") X(RMin, "min") X(RMaxNum, "maxnum") X(RMinNum, "minnum")      \
      X(RMaxU, "maxu") X(RMinU, "minu") X(RAnd, "and") X(ROr, "or")            \
          X(RXor, "xor") X(ArgMax, "argmax") X(ArgMin, "argmin")

#define MTIA_ATOMIC_FNS(X)                                                     \
  X(AAdd, "add")                                                               \
  X(AMax, "max")                                                               \
  X(AMin, "min") X(AMaxU, "maxu") X(AMinU, "minu") X(AAnd, "and") X(AOr, "or") \
      X(AXor, "xor") X(AXchg, "xchg") X(ACas, "cas")

/// What the `pe` instruction reads of the PE that runs it: its row and
/// column in the PE grid, the grid's row and column counts, its linear index.
#define MTIA_PE_QUERIES(X)                                                     \
  X(Row, "row")                                                                \
  X(Col, "col") X(Rows, "rows") X(Cols, "cols") X(Index, "index")

#define MTIA_FN_ENUM(id, name) id,
enum class BinaryFn : uint8_t { MTIA_BINARY_FNS(MTIA_FN_ENUM) };
enum class UnaryFn : uint8_t { MTIA_UNARY_FNS(MTIA_FN_ENUM) };
enum class Pred : uint8_t { MTIA_PREDICATES(MTIA_FN_ENUM) };
enum class ReduceFn : uint8_t { MTIA_REDUCE_FNS(MTIA_FN_ENUM) };
enum class AtomicFn : uint8_t { MTIA_ATOMIC_FNS(MTIA_FN_ENUM) };
enum class PEQuery : uint8_t { MTIA_PE_QUERIES(MTIA_FN_ENUM) };
#undef MTIA_FN_ENUM

/// An integer operand of a unit instruction: an immediate or an integer
/// register read when the control core issues the instruction.
struct IntOperand {
  bool isReg = false;
  int64_t value = 0;
};

/// A scalar operand: an immediate, an integer register or a float register.
struct ScalarOperand {
  enum Kind : uint8_t { Imm, IReg, FReg };
  Kind kind = Imm;
  int32_t reg = 0;
  int64_t intImm = 0;
  double floatImm = 0;
};

/// The pages of a CB a slot counts in: those its unit has waited for as
/// the consumer (front), reserved as the producer (back), or pushed as the
/// producer and not reserved again (pushed, counted back from the last).
enum class SlotSide : uint8_t { Front, Back, Pushed };

/// A place in local memory: page `page` of the pages of `side` in a CB,
/// plus a byte offset.
struct SlotRef {
  int32_t cb = -1;
  SlotSide side = SlotSide::Front;
  int32_t page = 0;
  int64_t offset = 0;
  bool present() const { return cb >= 0; }
};

/// An input of a SIMD instruction: a tile or a broadcast scalar.
struct SimdInput {
  bool isTile = false;
  // A tile input of one element, broadcast to every element (`splat`).
  bool splat = false;
  // A tile input read through a broadcast (`broadcast`): element i of the
  // operation reads the tile's element at sum_d index_d * strides[d], with
  // index the position of i in the row-major `broadcastShape`; empty
  // otherwise.
  std::vector<int64_t> broadcastShape, broadcastStrides;
  SlotRef slot;
  int32_t scalar = -1; // Index into Inst::scalars.
};

struct Inst {
  Op op = Op::End;
  Unit unit = Unit::Ctl;
  int32_t loc = -1;

  // Control core: destination and source registers, branch target.
  int32_t dst = -1, srcA = -1, srcB = -1, srcC = -1;
  int32_t target = -1;
  IntOperand operandB; // Second operand of iop/icmp (immediate or register).
  int64_t intImm = 0;
  double floatImm = 0;
  unsigned width = 64; // Integer width of iop/icmp/ftoi.
  // amo: the integer register of the mask (-1: unmasked) and whether the
  // atomic has release semantics (it waits for the PE's units to drain).
  int32_t maskReg = -1;
  bool release = false;

  // Selectors.
  uint8_t fn = 0; // BinaryFn, UnaryFn, Pred, ReduceFn, AtomicFn or PEQuery.
  DType type = DType::I64;
  DType type2 = DType::I64;
  bool isSigned = true;
  bool flag = false; // accumulate (dpe), reverse (scan), hex (print),
                     // elementwise (strided dma).
  int32_t cb = -1;   // CB operations.
  int64_t count = 0; // Pages (CB ops), elements (SIMD, gathers, atomics,
                     // histogram, xreduce), element bytes (mlu).
  int32_t axis = 0;
  int64_t bins = 0; // Histogram bins.

  // Collectives (barrier, re.xreduce, re.xbroadcast, re.xshift): the grid
  // axes spanned by the group (bit a set for axis a), the root rank: the one
  // that receives a reduction (-1: every member) or sends a broadcast, and
  // the rank offset (+1 or -1) from a member of a shift to the member it
  // sends to (0 for the others).
  uint8_t groupAxes = 0;
  int32_t root = -1;
  int32_t direction = 0;

  // Unit operands.
  std::vector<IntOperand> ints;       // Resolved at issue (see Command); the
                                      // element index of ldl when it runs.
  std::vector<ScalarOperand> scalars; // Resolved at issue.
  std::vector<SlotRef> slots;
  std::vector<SimdInput> inputs;
  std::vector<int64_t> shape;
  std::vector<int64_t> srcShape; // Gather source.
  std::vector<int64_t> srcStrides, dstStrides;
  int64_t srcOffset = 0, dstOffset = 0;
  unsigned rank = 0;
  bool hasBounds = false;
  std::string text; // print prefix/format, assert message.
};

enum class ParamKind : uint8_t { Ptr, Int, Float };
enum class MemorySpace : uint8_t { Dram, Sram };

struct Param {
  std::string name;
  ParamKind kind = ParamKind::Int;
  DType elementType = DType::I8; // Pointee type, informational.
  MemorySpace space = MemorySpace::Dram;
};

struct CBDesc {
  std::string name;
  int64_t pageBytes = 0;
  int32_t pages = 0;
};

/// The order in which the PEs take a launch's programs, round by round: in
/// round r the PEs run programs r*P .. r*P+P-1 (P PEs). Round-robin gives
/// program r*P+s to PE s in every round; serpentine does so in even rounds
/// and gives it to PE P-1-s in odd ones, so that a PE whose program of one
/// round is among the longest (a causal attention's last query block) gets
/// one of the shortest in the next. Staggered gives the rounds out as pairs
/// of complements, each pair's second round two rounds after its first:
/// A0, A1, D0, A2, D1, ..., A(K-1), D(K-2), D(K-1). In Aj every PE p takes
/// the program of slot (p + s) mod P, in Dj that of slot P-1-((p + s) mod P),
/// where s is 0 for even j and half the period along the order axis for odd
/// j. Each PE's programs of a pair are complements, as in serpentine, but no
/// round before the last completes every open pair, so the PEs do not all
/// end a round together, and the longest programs of the rounds start at
/// different times. A last round without a partner is given out
/// round-robin.
enum class ProgramOrder { RoundRobin, Serpentine, Staggered };

struct Program {
  std::string kernel;
  ProgramOrder order = ProgramOrder::RoundRobin;
  /// The grid axis along which a staggered order's programs differ in work:
  /// its period in linear program indices is the product of the grid's
  /// sizes up to and including it.
  unsigned orderAxis = 0;
  std::vector<Param> params;
  /// The bytes of global memory the program on each PE owns while it runs
  /// (`scratch` reads their address); 0 when it needs none.
  uint64_t scratchBytes = 0;
  std::vector<CBDesc> cbs;
  std::vector<std::string> locs;
  unsigned numIntRegs = 0, numFloatRegs = 0;
  std::vector<Inst> code;
  /// The distinct group axes (bit a for axis a) that the program's
  /// collectives name, in the order of their first appearance in the code;
  /// empty when the program has none.
  std::vector<uint8_t> collectiveAxes;
};

/// Parses and validates program bytes. Returns an empty string on success,
/// otherwise a description of the first problem found.
std::string parseProgram(const uint8_t *data, size_t size, Program &program);

/// Lookup of function names, for diagnostics.
const char *binaryFnName(BinaryFn fn);
const char *unaryFnName(UnaryFn fn);
const char *reduceFnName(ReduceFn fn);

} // namespace mtia

#endif // MTIA_PROGRAM_H

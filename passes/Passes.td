//===- Passes.td - Passes of mtia-compiler -----------------*- tablegen -*-===//
//
// Every C++ pass of the compiler. Each is registered by name for `mtia-opt
// --pass-pipeline` and for the Python pipelines, and has its own lit test in
// test/lit/passes/ named after it.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_PASSES_TD
#define MTIA_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTTToTile : Pass<"mtia-convert-tt-to-tile", "::mlir::ModuleOp"> {
  let summary = "The tile stage: compute on tensors becomes tile ops by unit";
  let description = [{
    Converts elementwise arithmetic, casts and math on value tensors to SIMD
    and special-function tile ops, `tt.dot` to the dot-product engine,
    `tt.reduce`/`tt.scan` to the reduction engine and shape operations to the
    memory-layout unit. Loads, stores and atomics keep their tensor operands
    (joined to the tiles by `builtin.unrealized_conversion_cast`), and the
    tensor computations that only address memory are left for the
    data-movement stage's pointer analysis. Unsupported operations are
    reported at their location.
  }];
  let dependentDialects = ["::mtia::tile::TileDialect"];
}

def LiftFunctionControlFlow : Pass<"mtia-lift-function-control-flow", "::mlir::ModuleOp"> {
  let summary = "A function of several blocks becomes one block with scf.if and scf.while";
  let description = [{
    A `@triton.jit` function that returns from inside an `if` reaches TTIR as
    a `tt.func` of several blocks (`cf.cond_br`, a `tt.return` per branch).
    The inliner cannot put such a body into the single block of an `scf.if`,
    and the later passes work on structured control flow. For each function
    of several blocks, the kernel included, this pass drops the unreachable
    blocks and lifts the remaining control flow to `scf` (MLIR's
    `transformCFGToSCF`), so that it ends in one `tt.return`; a path that
    never returns returns poison, and the `scf.index_switch` that chooses
    among several returning paths becomes a chain of `scf.if`s. A function
    whose branches cannot be structured is reported at the function. The
    TTIR stage runs it before the inliner.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
                           "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect"];
}

def MaterializePoison : Pass<"mtia-materialize-poison", "::mlir::ModuleOp"> {
  let summary = "ub.poison becomes a zero of its type";
  let description = [{
    Triton's frontend emits `ub.poison` for values that are undefined on some
    path (a variable only one branch of an `if` assigns, a loop-carried
    variable first assigned in the loop). Any value refines poison: each
    `ub.poison` of an integer or float (or a tensor of them) becomes an
    `arith.constant` zero, one of a pointer (or a tensor of them) a null
    pointer (`tt.int_to_ptr` of 0). Poison of any other type is reported at
    the op. The tile stage runs this pass first.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mtia::tt::TTDialect"];
}

def OrderPrograms : Pass<"mtia-order-programs", "::mlir::ModuleOp"> {
  let summary = "Kernels whose programs differ in work ask for a staggered or serpentine program order";
  let description = [{
    The PEs of a launch take its programs round by round, one per PE in a
    round (`docs/program-format.md`, `program_order`). A kernel with an
    `scf.for` whose lower bound, upper bound or step is computed from
    `tt.get_program_id` along one grid axis (a causal attention's loop over
    the key blocks up to its query block) gets the attributes
    `mtia.program_order = "staggered"` and `mtia.program_order_axis` (the
    axis) on its `tt.func`: rounds go in pairs of complements (a round and
    its reverse), every other pair shifted by half the axis's period, each
    pair's second round two rounds after its first. Like the serpentine
    order, this pairs each PE's long
    programs with short ones; it also keeps the PEs from all finishing a
    round at the same time and spreads out when they start their longest
    programs (which in an attention read a head's keys and values from DRAM
    first). Bounds that depend on the ids along several axes get
    `mtia.program_order = "serpentine"`: odd rounds go from the last PE to
    the first. The program stage writes the attributes into the program;
    other kernels keep the round-robin order.

    This is one launch policy, not an option: on the suite's causal
    attention the serpentine order for one axis would win by up to 3% at
    some sizes and lose at others.
  }];
}

def ContiguousAccesses : Pass<"mtia-contiguous-accesses", "::mlir::ModuleOp"> {
  let summary = "Loads and stores move their blocks along a dimension of stride one";
  let description = [{
    A `tt.load` or `tt.store` of a tensor of pointers whose last dimension
    has a stride other than one, while another dimension has stride one
    (the transposed key block of attention, a column-major operand), is
    permuted with `tt.trans` so that the stride-one dimension is last: the
    data-movement stage then transfers contiguous runs instead of one
    transaction per element, and the memory-layout unit transposes the block
    in local memory (after a load, before a store). Pointer, mask and
    padding are permuted alike.
  }];
}

def SplitMaskedLoops : Pass<"mtia-split-masked-loops", "::mlir::ModuleOp"> {
  let summary = "Loop iterations in which a select's mask holds everywhere run without it";
  let description = [{
    In an `scf.for` with a positive constant step, an `arith.cmpi` of
    tensors (`slt`, `sle`, `sgt`, `sge`) that decides an `arith.select`
    (directly, or through `arith.andi` and changes of shape) and compares
    tensors affine in their indices (`PointerAnalysis`: ranges, splats,
    expand_dims, broadcasts, sums and products by invariants) holds for the
    whole block when the extreme element of `lhs - rhs` does: a condition
    `a * iv + rest >= 0`. When `a` is negative and `rest` is invariant in
    the loop, it holds for every iteration whose induction variable is at
    most `floor(rest / -a)`: the keys of a block below the sequence length
    (`keys < seq_len`) in all blocks but the last, below a causal
    attention's queries (`keys <= rows`) in all blocks before the diagonal.
    The loop is split, at the first iteration where one of these
    comparisons may fail, into two loops over consecutive iterations that
    thread the carried values: a copy whose comparisons are replaced by
    true (canonicalization drops the selects and `and`s), then the loop
    itself from that iteration on. Values are the same in every iteration;
    the SIMD engine no longer computes and applies masks that keep
    everything. The second loop needs buffers of its own, so a loop is split
    only when the masks bound it: when it has no loop inside and its
    estimated initiation interval without them is shorter
    (passes/Analysis/LoopSchedule.h). The module needs a target description
    (`mtia-attach-target`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CombineArithmetic : Pass<"mtia-combine-arithmetic", "::mlir::ModuleOp"> {
  let summary = "The same numbers in fewer passes over tiles: fused multiply-adds, factored scales";
  let description = [{
    Patterns applied once to the operations of the module:

    - Contraction, with `fp-fusion` (Triton's `enable_fp_fusion`, its
      default): an `arith.addf` or `arith.subf` of an `arith.mulf` that has
      no other use becomes one `math.fma`, rounded once, which the SIMD
      engine computes in one pass. A subtraction negates its subtrahend, or
      for `c - x * y` a factor, only when that costs less than a pass over
      the tile: a constant, a scalar, or the tensor at the root of the
      splats, broadcasts and dimension insertions that spread it, which are
      applied to the negation as they were (`x * s - max[:, None]` negates
      the row maximum, and the tile stage still folds `(-max)[:, None]` into
      one broadcast). The combine regions of reductions and scans are left
      alone.
    - Factoring: a `tt.reduce` whose combine region is one float extremum
      (`maxnumf`, `maximumf`, `minnumf`, `minimumf`) of a product `x * s`
      that nothing else uses, with `s` a scalar splat, becomes the extremum
      of `x` times `s`: the same one when `s > 0`, the opposite one when
      `s < 0`, which is exact for a finite `s` because rounding a product by
      a positive (negative) scalar keeps (reverses) the order. A constant
      scale picks the reduction at compile time; any other picks it at run
      time in an `scf.if` whose other branch (a negative, zero, infinite or
      NaN scale) reduces the product. The SIMD engine then scales a row
      instead of the whole tile. A product with other uses stays: its other
      factor would have to reach the reduction engine as well, which costs
      the DPE a copy when it computed it.
  }];
  let options = [
    Option<"fpFusion", "fp-fusion", "bool", /*default=*/"true",
           "Contract multiplications and the additions that use them into "
           "fused multiply-adds (Triton's enable_fp_fusion)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

def SubstituteInductionVariables
    : Pass<"mtia-substitute-induction-variables", "::mlir::ModuleOp"> {
  let summary = "Values a loop advances by invariant steps become functions of its induction variable";
  let description = [{
    A loop-carried pointer or integer (or tensor of them) that each iteration
    advances by a value defined outside the loop (`ptrs += BLOCK * stride`)
    is, in the body, its initial value plus `(iv - lower) / step` steps, and
    after the loop its initial value plus the loop's trip count of steps
    (pointer offsets in 64 bits); the loop then yields the argument
    unchanged, which the loop's canonicalization patterns (applied by the
    pass) drop. Iterations no longer depend on
    one another through it, so software pipelining can compute them ahead.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mtia::tt::TTDialect"];
}

def NarrowMaskedDimensions
    : Pass<"mtia-narrow-masked-dimensions", "::mlir::ModuleOp"> {
  let summary = "Dimensions padded to a power of two, cut to the bound their masks compare with";
  let description = [{
    An axis of the kernel's tensors whose every load and store is masked by
    a comparison of the axis's range with a constant (`offs_d < 80` on a
    `tl.arange(0, 128)`), which nothing scans over, which reductions combine
    only where the padding holds their neutral element, and over which dots
    contract only operands loaded with zeros past the bound, is
    narrowed to the bound: every tensor on it gets that length there (dots
    that contract two axes narrow both). The units then skip the padding.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mtia::tt::TTDialect"];
}

def PipelineDots : Pass<"mtia-pipeline-dots", "::mlir::ModuleOp"> {
  let summary = "Loops of two or more stages compute their independent dots ahead";
  let description = [{
    Software-pipelines `scf.for` loops of two or more stages (`num_stages`,
    passes/Analysis/PipelineStages.h) that do not write memory: a `tt.dot`
    of the body whose operands depend only on the induction variable and on
    values defined outside the loop (attention's `Q·K^T` of the next block
    of keys), with the loads and index arithmetic it needs and what the body
    computes from such products alone (the scores' scaling, mask and row
    maximum), is computed for the first iteration before the loop and for
    the next iteration in the body, and the values the rest of the body uses
    are carried by the loop. The loads and dots go at the start of the body,
    the rest at its end: a PE's units run their instructions in program
    order, so the DPE then multiplies the next iteration's operands while
    the other units still work on this iteration's chain. The pipelined loop
    stops before the last iteration, which runs after it in a loop of its
    own (one iteration, or none) on the values computed ahead for it, so
    nothing is read or multiplied past the end, and the first iteration's
    values (before the loop) are computed in an `scf.if` on `lower < upper`
    that yields zeros otherwise, so that a loop that runs no iteration
    neither reads nor multiplies anything (which also means carried values
    must be integers or floats); loops whose dots read through block
    pointers are left alone. In the pipelined body and that of the last
    iteration, elementwise updates of carried values that nothing else in
    the iteration uses (attention's running sum) move to the end, so that
    the unit running them does not wait for their operands ahead of this
    iteration's other work. A loop may carry a product itself (the scores,
    when the SIMD engine shifts them unscaled as Triton's tutorial writes
    attention): the DPE computes the next one into a page of the buffer it
    is carried in, or the reduction engine relays it
    (`mtia-relay-shared-products`), so the DPE does not copy it.

    With three stages or more, the dots of a pipelined loop are pipelined
    once more, two iterations ahead, in
    the loop the first round made: the loop carries their products (which
    `mtia-carry-in-buffers` keeps in the buffer to the unit that reads them),
    the DPE multiplies the operands of the iteration after the next, and
    what follows from the product carried for the next iteration moves up to
    right after this iteration's last use of the values it replaces, so that
    the reduction engine takes the next row maximum while the SIMD engine
    works on this iteration; what uses that row maximum (its scaling, as the
    tutorial writes it) stays after this iteration's work, where the SIMD
    engine does not wait for the reduction engine. It pays when the SIMD engine, not the DPE,
    bounds the loop (attention with 64-wide heads); otherwise it costs a
    page of local memory and the longer fill of the pipeline: a loop takes
    as many rounds as its estimated modulo schedule needs (the stages of its
    initiation interval that its critical path spans, less one;
    passes/Analysis/LoopSchedule.h), within its stages. The module needs a
    target description (`mtia-attach-target`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def ExpandCombineRegions : Pass<"mtia-expand-combine-regions", "::mlir::ModuleOp"> {
  let summary = "Reductions and scans with general combine regions become tile steps";
  let description = [{
    The reduction engine combines with add, mul, max, min, and, or and xor.
    Every `tile.reduce_region`, and every `tile.scan` that is not one of
    those over one tile, is expanded into log2(n) steps that apply the
    combine region elementwise to whole tiles (its scalar operations become
    SIMD tile operations) on operands the memory-layout unit slices: a
    reduction combines adjacent pairs of elements until one is left, a scan
    doubles the distance it combines over (Hillis-Steele). Element order is
    kept, so regions need only be associative. Regions with operations that
    have no tile form, and reductions over axes whose length is not a power
    of two, are reported at the op.
  }];
  let dependentDialects = ["::mtia::tile::TileDialect"];
}

def AttachTarget : Pass<"mtia-attach-target", "::mlir::ModuleOp"> {
  let summary = "Stamp the target description and the launch's num_stages on the module";
  let description = [{
    Loads the target description `target` once (a name from targets/ or a
    path to a .json file) and stamps its figures on the module as the
    `mtia.target` dictionary, which the passes that need the machine
    (`mtia-strip-mine-blocks`, the data-movement stage) read, so that every
    pass of a compilation sees the same machine. A description the loader
    rejects is an error at the module. It also stamps the launch's
    `num-stages` (Triton's `num_stages`) as `mtia.num_stages`: the stages of
    every loop without a `tt.num_stages` of its own
    (passes/Analysis/PipelineStages.h); and, unless `max-stages` is 0, that
    bound of every loop's stages, its own included, as `mtia.max_stages`.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"mtia-2i\"",
           "target description: a name from targets/ or a path to a .json file">,
    Option<"numStages", "num-stages", "int64_t", /*default=*/"3",
           "the launch's num_stages: the pipeline stages of a loop without its own">,
    Option<"maxStages", "max-stages", "int64_t", /*default=*/"0",
           "the most stages of any loop, its own tl.range(num_stages=) included (0: no bound)">,
  ];
}

def LowerDataMovement : Pass<"mtia-lower-data-movement", "::mlir::ModuleOp"> {
  let summary = "The data-movement stage: loads and stores become DMA through circular buffers";
  let description = [{
    The stage's entry: runs, in order, `mtia-lower-memory-accesses`,
    `mtia-share-buffers`, `mtia-reserve-where-produced`,
    `mtia-order-memory-accesses` and `mtia-release-loop-carried-pointers`,
    with its `reserved-buffers` and `cb-multiplier`, on the target stamped on
    the module (`mtia-attach-target`).
  }];
  let options = [
    Option<"reservedBuffers", "reserved-buffers", "int64_t", /*default=*/"0",
           "circular buffers of the target's command processor that later "
           "stages add, which the data-movement stage leaves free">,
      Option<"cbMultiplier", "cb-multiplier", "int64_t", /*default=*/"1",
           "multiplies the pages of the buffers of loads and stores, and the "
           "prefetch depth of loads in loops (the circular-buffer depth)">,
  ];
  let dependentDialects = ["::mtia::cb::CBDialect", "::mtia::dma::DMADialect",
                           "::mtia::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def LowerMemoryAccesses : Pass<"mtia-lower-memory-accesses", "::mlir::ModuleOp"> {
  let summary = "Loads, stores and atomics become DMA transfers through circular buffers";
  let description = [{
    Lowers the `tt.load`/`tt.store`, tensor-descriptor accesses and atomics
    left by the tile stage to DMA transfers into and out of circular-buffer
    pages, using the pointer and mask analysis: strided `dma.load`/`dma.store`
    for structured pointers (in bursts when every row is aligned to the
    target's `dma.alignment_bytes`, versioned at run time when that is known
    only then, element by element otherwise), `dma.gather`/`dma.scatter` with
    an index tile for the others, and indexed `dma.atomic_rmw`/
    `dma.atomic_cas`. Buffers of loads and stores have two pages, loads in
    loops up to eight (within 64 KB) and at least the loop's stages
    (`num_stages`), so that loads overlap compute, all times
    `cb-multiplier`; each names the DMA
    queue it serves (`dma_in` for loads and gathers, `dma_out` for stores,
    scatters and atomics). What only one branch of an `scf.if` uses (the
    index tile of a versioned access's fallback) moves into that branch.
    Then it inserts a circular buffer wherever a tile computed by
    one unit is used by another (the `UnitAssignment` analysis says which
    unit holds each tile; the DPE clears a zero accumulator itself instead),
    and frees every page read after the last use of its tile. The connection
    of units is a phase of this pass, not a pass of its own, since until it
    has run a page may be read by several units, which the `cb` dialect
    rejects.
  }];
  let options = [
      Option<"cbMultiplier", "cb-multiplier", "int64_t", /*default=*/"1",
           "multiplies the pages of the buffers of loads and stores, and the "
           "prefetch depth of loads in loops (the circular-buffer depth)">,
  ];
  let dependentDialects = ["::mtia::cb::CBDialect", "::mtia::dma::DMADialect",
                           "::mtia::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def StripMineBlocks : Pass<"mtia-strip-mine-blocks", "::mlir::ModuleOp"> {
  let summary = "Compute blocks larger than local memory in strips of an axis";
  let description = [{
    A kernel whose block of data (the loaded and computed tensors, not
    indices, masks or pointers) does not fit the target's local memory
    computes it in strips along one axis of the block. An axis is a class
    of tensor dimensions the kernel's operations keep in step: elementwise
    operations (arithmetic, pointer arithmetic, loads and stores through
    tensors of pointers, conversions, pure library calls, mapped regions),
    `tt.expand_dims`, `tt.broadcast` and `tt.trans` tie the dimensions they
    carry, `tt.join` and `tt.split` all but the last dimension, of size 2,
    that they add or remove; `tt.dot` ties the rows of `a`, `c` and the result, and the
    columns of `b`, `c` and the result; loops and conditionals tie what they
    carry and yield; an assertion runs on strips of its condition. An axis
    can be split when nothing mixes its elements: no reshape,
    concatenation, gather or print touches it, it is not a join's or
    split's last dimension nor a dot's K nor a histogram's source, no
    non-splat constant and no access through a block pointer or descriptor
    has it, and no tensor has two dimensions on it. A histogram's bins run
    in strips: each strip counts the values shifted to its first bin. Axes
    of one length on which accesses to the same memory lie, one of them
    writing, are not split together, and a split that would run an access
    past another to its memory (its strips run at its last effect) is not
    made. Before the analysis, a reshape of a range (the
    offsets `tl.arange(0, n).reshape(shape)`) becomes one range per
    dimension, broadcast and scaled by its row-major stride, and every use
    of an index (a
    tensor computed from ranges, splats and constants alone) gets its own
    copy, so that a range common-subexpression elimination shared between
    the rows of one tile and the columns of another ties neither; axes of
    one length that no tensor has two of (independent parts of the block)
    are split together; a CSE at the end shares the copies again.

    On the chosen axis, element i of every tensor depends only on element i
    of the others, so the tensor work runs on strips of it: each
    `tt.make_range` on the axis becomes the strip's slice of the range,
    splat constants take the strip's shape, and every other operation,
    loops included, is the same on strips. A reduction over the axis (in
    the kernel's body, not in a loop) becomes a loop over strips at its
    place: the loop takes the first strip's partial results as they are
    (the carried values start as zeros no strip combines with) and combines
    every later strip's with them through the reduction's combine region
    (element by element, with `tt.map_elementwise`, when the partial
    results are tensors), so argmax and other multi-value combines need no
    identity; reductions that need nothing of each other share a loop. A
    scan over the axis (in the kernel's body) carries its results from strip
    to strip: each strip's scan is combined element by element with the
    carried results (except in the first strip), and the strip's last
    results are carried on; strips run from the end of the axis for reverse
    scans (all scans over the axis go one way). The
    stores and other effects on the axis run in a last loop over strips at
    the place of the last of them, which computes again, from the loads,
    what they need. Only the reductions' results leave the strips; effects
    must follow the last reduction, unless they are stores in what a
    reduction reads (a loop over a row's blocks that stores each block as
    it sums it), which run in the reduction's strips; an effect inside a
    loop that the strips repeat must be on the axis.

    The strips run in the innermost block that holds every reduction, scan
    and effect on the axis: the kernel's body, or the body of the loop over
    rows of a persistent kernel (`for row in tl.range(pid, n, programs)`),
    where the last effect is in the loop's body. What the
    strips need from outside that block on the axis (the range and its mask
    computed before the loop) must be computed without memory effects from
    ranges, splats and constants; each strip computes its slice again. A
    tensor loaded outside the block (weights loaded once before the loop)
    keeps the kernel whole.

    When the kernel does not fit, two rewrites open blocks that nothing
    could split, for blocks larger than a quarter of local memory, or, in
    the compiler's last attempts (one pipeline stage, `mtia.max_stages` 1),
    larger than the strips' budget. A descriptor addresses its block whole:
    a `tt.descriptor_load` or `tt.descriptor_store` of such a block becomes
    an access
    through a tensor of pointers masked by the tensor's shape (zeros read
    past it) from the tensor's base (`dma.descriptor_base` of a descriptor
    the host passes), whose strips are slices of the block. A reshape or a
    concatenation mixes the axes of its operands and result, so neither side
    would run in strips: one of such a block goes through global memory
    instead. Its operands are stored in row-major order, one after another,
    to a `dma.scratch` region (the program's slot of the launch's scratch
    buffer, in SRAM when it fits) and its result loaded from there in the
    same order, so that each side runs in strips of its own axes, one loop
    after the other. In a loop, each iteration reuses the region
    (`mtia-order-memory-accesses` orders its stores after the last
    iteration's loads). A gather (`tl.gather`) may read any element of its
    source: a source that large is stored to scratch the same way, and the
    gather becomes a load from there through pointers built from its
    indices, after a `tt.assert` that they lie in the source (outside it,
    the launch fails, as for a gather in local memory).

    The pass estimates the peak of data live at once (from each value's
    definition to its last use, nested blocks at their operation); a kernel
    within the budget is left as it is. By
    default, a kernel whose peak exceeds local memory runs in strips whose
    peak takes at most a quarter of it, so that the buffers of the
    transfers fit beside them; `budget-divisor=d` splits any kernel whose
    peak exceeds 1/d of local memory, into strips that take at most 1/d
    (the compiler retries with growing divisors when the program stage's
    plan of a kernel does not fit). Of the axes that can be split, the one
    whose strips fit is taken, preferring one without reductions over it (its
    strips run the kernel once, in one loop), then the largest strip; a
    strip is a power of two dividing the axis. With `joint-axes`, the two
    best axes that have no reductions or scans over them are split together
    into tiles, in a nest of loops (the rows and the columns of a dot's
    result, when the plan cannot hold a whole operand of either), the
    larger strip halved until the tiles fit; every effect must then be on
    both axes.

    The strips reorder memory accesses the kernel's program order does not
    oblige: as on a GPU, where the threads of a program load and store their
    parts of a block without ordering among them, a strip's loads are not
    ordered after other strips' stores, and the loads a later loop repeats
    come after the scalar stores between them. A kernel whose stores reach,
    through aliasing arguments, what it loads elsewhere in the block is not
    a well-defined Triton program.
  }];
  let options = [
    Option<"budgetDivisor", "budget-divisor", "int64_t", /*default=*/"0",
           "split when the data's peak exceeds 1/d of local memory, into "
           "strips within it (0: exceeds local memory, strips within a quarter)">,
    Option<"jointAxes", "joint-axes", "bool", /*default=*/"false",
           "split the two best axes without reductions or scans together, "
           "into tiles">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def ShareBuffers : Pass<"mtia-share-buffers", "::mlir::ModuleOp"> {
  let summary = "Circular buffers of one producer and consumer share";
  let description = [{
    The tiles one unit passes to another in a block share one first-in
    first-out buffer with as many pages as they need at once; buffers the
    DMA engine fills or drains share with buffers of their page type when
    one transfer ends before the next begins. Buffers share when that costs
    no local memory; when the buffers (those used in several blocks, which
    do not share, included) would exceed the target's circular buffers less
    `reserved-buffers` they share at a growing cost in memory.
    Then the buffers of blocks that run one after the other (the two loops
    `mtia-split-masked-loops` makes of one) are one buffer when they have
    one producer, consumer and page type: a block pops every tile it
    pushes, so the next finds the buffer empty. It gets the most pages any
    block needs, plus the most run-ahead pages of any.
  }];
  let options = [
    Option<"reservedBuffers", "reserved-buffers", "int64_t", /*default=*/"0",
           "circular buffers of the target's command processor that later "
           "stages add, which the data-movement stage leaves free">,
  ];
}

def CarryInPushedPages : Pass<"mtia-carry-in-pushed-pages", "::mlir::ModuleOp"> {
  let summary = "Read a tile a loop carries for its producer in the page it pushed";
  let description = [{
    A tile that a loop carries for the unit that computes it, which that
    unit also passes to another unit in the iteration that computes it
    (attention's scaled scores, which the reduction engine takes the row
    maximum of), is kept by the producer besides the page it pushes: a copy,
    or a second computation, per iteration. When the body uses this
    iteration's tile before it pushes the next, the loop's initial tile is
    pushed last before the loop on every path (a path that computes it
    without passing it on pushes it, and the consumer drops the page), and
    the loop's result is used on the producer before a later loop of the
    chain pushes again, the producer reads the tile in its last pushed page
    (`cb.read_pushed`) instead, and the loop no longer carries it. The pages
    of the chain get one buffer of their own, which nothing else pushes to;
    the pass runs before buffers share. A chain is made only while the
    buffers, shared as far as `mtia-share-buffers` can at any cost of local
    memory, still fit the target's command processor less
    `reserved-buffers`.
  }];
  let options = [
    Option<"reservedBuffers", "reserved-buffers", "int64_t", /*default=*/"0",
           "circular buffers of the target's command processor that later "
           "stages add, which the data-movement stage leaves free">,
  ];
  let dependentDialects = ["::mtia::cb::CBDialect"];
}

def CarryInBuffers : Pass<"mtia-carry-in-buffers", "::mlir::ModuleOp"> {
  let summary = "Keep tiles a loop carries to another unit in their buffers";
  let description = [{
    A tile that a loop carries from one unit to another is written into a
    page of the buffer between them at the start of each iteration, from
    storage of the producing unit. When that write is the only use of the
    iteration argument, its page is pushed instead where the body computes
    the tile for the next iteration, and for the first iteration before the
    loop, or in both branches of an `scf.if` right before it that yields
    the tile (the first product of a pipelined loop), so
    that the producer computes the tile straight into the page rather than
    copying it later, behind the rest of its queue. This is done when the
    buffer's pages keep their order and, in program order, a page is free
    there; pages the buffer had for running ahead that this needs become
    pages the program stage keeps. After the loop, the page of the iteration
    that did not run holds the loop's result: when the producer only copies
    the result into another buffer to the same consumer, the consumer reads
    this page instead; otherwise the consumer pops it, and the producer reads
    the result in it (`cb.read_pushed`). The loop no longer carries the
    tile.
  }];
  let dependentDialects = ["::mtia::cb::CBDialect"];
}

def ReserveWhereProduced : Pass<"mtia-reserve-where-produced", "::mlir::ModuleOp"> {
  let summary = "Reserve a one-tile buffer's page where its tile is computed";
  let description = [{
    Moves the `cb.reserve_back` of a buffer that takes one tile from its
    `cb.write_back` up to the tile op computing that tile, when the tile has
    no other use, so that the unit computes it straight into the page, and
    the write and its push up to right after the op when nothing on the
    buffer lies between, so that the consumer can take the tile as soon as
    it is computed. When
    the tile has other uses (the users of a splat or broadcast of it
    included), all on the producing unit and before the buffer's next
    reserve or push, the tile is computed into the page and
    pushed at once, and those uses read it there (`cb.read_pushed`).
    Otherwise, when the SIMD engine computes it in one elementwise pass
    (which costs it what the copy would), the op is cloned to compute the
    tile straight into the page, which is pushed before the op computes the
    tile again for the other uses: the buffer's consumer gets it a pass
    earlier. No reserve moves above a read of its buffer's pushed page. A
    write of DPE zeros or a SIMD splat that is used elsewhere too, or
    computed in another block, gets a tile of its own right before it,
    which the unit fills the page with instead of keeping the tile in its
    scratch to copy from.
  }];
}

def OrderMemoryAccesses : Pass<"mtia-order-memory-accesses", "::mlir::ModuleOp"> {
  let summary = "Reads of global memory wait for earlier DMA writes";
  let description = [{
    The DMA engine's inbound and outbound queues and the control core's
    scalar accesses run independently. A DMA read or a scalar access that
    may follow a DMA write of the same kernel argument or `dma.scratch`
    region (or of a pointer of unknown origin) gets a `dma.wait` before it,
    hoisted out of the loops and branches that contain none of those writes;
    a scalar write, and a DMA write to a scratch region (which a loop's next
    iteration writes again), also wait for earlier DMA reads.
  }];
  let dependentDialects = ["::mtia::dma::DMADialect"];
}

def ReleaseLoopCarriedPointers : Pass<"mtia-release-loop-carried-pointers", "::mlir::ModuleOp"> {
  let summary = "Loops stop advancing pointers nothing reads any more";
  let description = [{
    An `scf.for` argument that is a (tensor of) pointer(s), whose result is
    unused and which each iteration only advances by pure operations, yields
    itself, so that canonicalization drops it and the advance.
  }];
}

def RelaySharedProducts : Pass<"mtia-relay-shared-products", "::mlir::ModuleOp"> {
  let summary = "Let the reduction engine copy a DPE product that another unit also reads";
  let description = [{
    Every page of a circular buffer has one consumer unit, so a product of the
    DPE that the reduction engine and another unit both read would be written
    twice by the DPE, the second time as a copy that takes a pass of the DPE
    (attention written as Triton's tutorial writes it: the reduction engine
    takes the row maximum of the scores `qk`, the SIMD engine computes
    `exp2(qk * scale - m)`). The DPE is what such kernels are bound by, and
    the reduction engine reads the product anyway: this pass makes it copy
    the product (`tile.reduce_copy`, right before its first reduction-engine
    reader in the product's block) for the readers of other units, also where
    a loop or conditional carries the product to them (the scores
    `mtia-pipeline-dots` computes an iteration ahead). Readers of the
    reduction engine and the DPE keep the product.
  }];
  let dependentDialects = ["::mtia::tile::TileDialect"];
}

def SubtileEpilogues : Pass<"mtia-subtile-epilogues", "::mlir::ModuleOp"> {
  let summary = "Run the epilogues of loops and dots in strips of rows";
  let description = [{
    The epilogue of a rank-2 value a dot computes (its result, or that of a
    loop whose dot accumulates into what the loop carries: the accumulator
    the DPE holds and hands over) is what the block after it computes from it element by
    element up to its stores (`tt.store` through tensors of pointers, or
    `tt.descriptor_store` of a descriptor the kernel makes), with the loads
    of whole blocks that only it reads. When nothing else uses its values,
    each store becomes one store per strip of `dpe.tile_m` rows (the
    target's DPE output tile) of its operands, in order: values of the
    epilogue are computed again on strips, index computations (ranges,
    splats, broadcasts, integer and pointer arithmetic) on the strip's rows,
    and anything else is sliced with `tensor.extract_slice` (a
    `tile.subview` once converted: the rows of the accumulator read in
    place). Each hand-off between units then takes a strip rather than the
    block, in pages of a strip, and the units work on successive strips at
    once (Triton's `EPILOGUE_SUBTILE`, along the rows).
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def RematerializeTiles : Pass<"mtia-rematerialize-tiles", "::mlir::ModuleOp"> {
  let summary = "Compute index and mask tiles again where keeping them costs more";
  let description = [{
    A tile the SIMD engine computes from nothing but `tile.iota`,
    `tile.splat` and `tile.constant` through elementwise operations (the
    coordinates, offsets and bound masks of index and mask computations)
    costs one SIMD pass per operation to compute again, and is computed
    again where keeping it costs more:

    - read through a `tile.reshape` (`tt.expand_dims`, `tt.reshape`), a copy
      on the memory-layout unit and two trips through circular buffers: the
      reshaped tile is computed anew in its new shape (a reshape keeps the
      row-major order, which is all such a computation depends on; rank-0
      reshapes, which hand an element to the control core, stay);
    - read in a loop that does not contain it (CSE merges computations
      across regions), where it would hold local memory for the whole loop:
      the computation is cloned into the loop's block that reads it.

    Tiles that carry anything else (data read from memory, results of other
    units) are left alone. The tile stage runs it after the conversion, the
    data-movement stage again after its CSE, which merges computations
    across regions.
  }];
  let dependentDialects = ["::mtia::tile::TileDialect"];
}

#endif // MTIA_PASSES_PASSES_TD

//===- Target.cpp - MTIA target description loader ------------------------===//

#include "mtia/Target.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <utility>

using namespace mtia;

namespace {

/// Reads typed fields out of nested JSON objects, remembering the first
/// missing or ill-typed field by its dotted path.
class FieldReader {
public:
  explicit FieldReader(const llvm::json::Object &root) : root(root) {}

  const std::string &error() const { return firstError; }

  void number(const char *section, const char *key, double &out,
              bool allowZero = false) {
    const llvm::json::Value *value = lookup(section, key);
    if (!value)
      return;
    std::optional<double> number = value->getAsNumber();
    if (!number || !std::isfinite(*number) || *number < 0 ||
        (*number == 0 && !allowZero)) {
      fail(section, key,
           allowZero ? "must be a non-negative number"
                     : "must be a positive number");
      return;
    }
    out = *number;
  }

  template <typename IntT>
  void integer(const char *section, const char *key, IntT &out,
               bool allowZero = false) {
    const llvm::json::Value *value = lookup(section, key);
    if (!value)
      return;
    std::optional<int64_t> number = value->getAsInteger();
    if (!number || *number < (allowZero ? 0 : 1)) {
      fail(section, key,
           allowZero ? "must be a non-negative integer"
                     : "must be a positive integer");
      return;
    }
    out = static_cast<IntT>(*number);
  }

  void string(const char *key, std::string &out) {
    const llvm::json::Value *value = lookup(nullptr, key);
    if (!value)
      return;
    std::optional<llvm::StringRef> text = value->getAsString();
    if (!text) {
      fail(nullptr, key, "must be a string");
      return;
    }
    out = text->str();
  }

private:
  const llvm::json::Value *lookup(const char *section, const char *key) {
    if (!firstError.empty())
      return nullptr;
    const llvm::json::Object *object = &root;
    if (section) {
      object = root.getObject(section);
      if (!object) {
        firstError = std::string("missing object field '") + section + "'";
        return nullptr;
      }
    }
    const llvm::json::Value *value = object->get(key);
    if (!value)
      fail(section, key, "is missing");
    return value;
  }

  void fail(const char *section, const char *key, const char *what) {
    if (!firstError.empty())
      return;
    firstError = "field '";
    if (section)
      firstError += std::string(section) + ".";
    firstError += std::string(key) + "' " + what;
  }

  const llvm::json::Object &root;
  std::string firstError;
};

/// Checks that the cache part of the SRAM fits in it and divides into sets
/// of whole lines of whole DMA transactions.
std::string checkSramCache(const TargetDesc &target) {
  const SramCacheDesc &cache = target.sramCache;
  // The simulator numbers a set's ways with one byte.
  if (cache.ways > 255)
    return "field 'sram.cache_ways' must be at most 255";
  if (cache.lineBytes % target.dmaTransactionBytes != 0)
    return "field 'sram.cache_line_bytes' must be a multiple of "
           "'dma.transaction_bytes' (" +
           std::to_string(target.dmaTransactionBytes) + ")";
  if (cache.bytes > target.sram.bytes)
    return "field 'sram.cache_bytes' must be at most 'sram.bytes' (" +
           std::to_string(target.sram.bytes) + ")";
  const uint64_t setBytes = uint64_t(cache.lineBytes) * cache.ways;
  if (cache.bytes % setBytes != 0)
    return "field 'sram.cache_bytes' must be a multiple of "
           "'sram.cache_line_bytes' x 'sram.cache_ways' (" +
           std::to_string(setBytes) + ")";
  return "";
}

/// Checks that DRAM rows divide into interleave chunks of whole DMA
/// transactions, that refresh leaves the channels some time and that the
/// reorder window is at most a second.
std::string checkDramStructure(const TargetDesc &target) {
  const DramStructureDesc &dram = target.dramStructure;
  // The address mapping selects channels, banks and columns by bit fields.
  const std::pair<const char *, uint64_t> powersOfTwo[] = {
      {"channels", dram.channels},
      {"banks_per_channel", dram.banksPerChannel},
      {"row_bytes", dram.rowBytes},
      {"interleave_bytes", dram.interleaveBytes}};
  for (const auto &[field, value] : powersOfTwo)
    if ((value & (value - 1)) != 0)
      return std::string("field 'dram.") + field +
             "' must be a power of two";
  if (dram.interleaveBytes % target.dmaTransactionBytes != 0)
    return "field 'dram.interleave_bytes' must be a multiple of "
           "'dma.transaction_bytes' (" +
           std::to_string(target.dmaTransactionBytes) + ")";
  if (dram.rowBytes % dram.interleaveBytes != 0)
    return "field 'dram.row_bytes' must be a multiple of "
           "'dram.interleave_bytes' (" +
           std::to_string(dram.interleaveBytes) + ")";
  if (dram.tRfcNs >= dram.tRefiNs)
    return "field 'dram.trfc_ns' must be less than 'dram.trefi_ns'";
  if (dram.reorderWindowNs > 1e9)
    return "field 'dram.reorder_window_ns' must be at most 1e9 (a second)";
  return "";
}

} // namespace

std::string mtia::parseTarget(std::string_view json, TargetDesc &target) {
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(llvm::StringRef(json.data(), json.size()));
  if (!parsed)
    return "invalid JSON: " + llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return "the target description must be a JSON object";

  FieldReader reader(*root);
  reader.string("name", target.name);
  reader.number(nullptr, "clock_ghz", target.clockGHz);
  reader.integer("pe_grid", "rows", target.peRows);
  reader.integer("pe_grid", "cols", target.peCols);
  reader.integer("local_memory", "bytes_per_pe", target.localMemoryBytes);
  reader.number("local_memory", "bandwidth_gbps", target.localBandwidthGBps);
  reader.integer("local_memory", "cb_alignment_bytes",
                 target.cbAlignmentBytes);
  reader.integer("sram", "bytes", target.sram.bytes);
  reader.number("sram", "bandwidth_gbps", target.sram.bandwidthGBps);
  reader.integer("sram", "latency_cycles", target.sram.latencyCycles, true);
  reader.integer("sram", "cache_bytes", target.sramCache.bytes, true);
  reader.integer("sram", "cache_line_bytes", target.sramCache.lineBytes);
  reader.integer("sram", "cache_ways", target.sramCache.ways);
  reader.integer("dram", "bytes", target.dram.bytes);
  reader.number("dram", "bandwidth_gbps", target.dram.bandwidthGBps);
  reader.integer("dram", "latency_cycles", target.dram.latencyCycles, true);
  DramStructureDesc &dramStructure = target.dramStructure;
  reader.integer("dram", "channels", dramStructure.channels);
  reader.integer("dram", "banks_per_channel", dramStructure.banksPerChannel);
  reader.integer("dram", "row_bytes", dramStructure.rowBytes);
  reader.integer("dram", "interleave_bytes", dramStructure.interleaveBytes);
  reader.number("dram", "trcd_ns", dramStructure.tRcdNs);
  reader.number("dram", "trp_ns", dramStructure.tRpNs);
  reader.number("dram", "tfaw_ns", dramStructure.tFawNs);
  reader.number("dram", "trefi_ns", dramStructure.tRefiNs);
  reader.number("dram", "trfc_ns", dramStructure.tRfcNs);
  reader.number("dram", "turnaround_ns", dramStructure.turnaroundNs);
  reader.integer("dram", "write_batch_bytes", dramStructure.writeBatchBytes);
  reader.number("dram", "reorder_window_ns", dramStructure.reorderWindowNs);
  reader.integer("dma", "alignment_bytes", target.dmaAlignmentBytes);
  reader.integer("dma", "transaction_bytes", target.dmaTransactionBytes);
  reader.integer("dma", "max_rank", target.dmaMaxRank);
  reader.integer("dma", "latency_cycles", target.dmaLatencyCycles, true);
  reader.integer("dma", "max_outstanding", target.dmaMaxOutstanding);
  reader.number("noc", "pe_bytes_per_cycle", target.nocPeBytesPerCycle);
  reader.integer("noc", "hop_cycles", target.nocHopCycles, true);
  reader.integer("dpe", "tile_m", target.dpeTileM);
  reader.integer("dpe", "tile_n", target.dpeTileN);
  reader.integer("dpe", "tile_k", target.dpeTileK);
  reader.number("dpe", "tops_f16", target.dpeTopsF16);
  reader.number("dpe", "tops_bf16", target.dpeTopsBF16);
  reader.number("dpe", "tops_f32", target.dpeTopsF32);
  reader.number("dpe", "tops_i8", target.dpeTopsI8);
  reader.integer("dpe", "latency_cycles", target.dpeLatencyCycles, true);
  reader.number("simd", "tops_i8", target.simdTopsI8);
  reader.number("simd", "tops_f16", target.simdTopsF16);
  reader.number("simd", "tops_bf16", target.simdTopsBF16);
  reader.number("simd", "tops_f32", target.simdTopsF32);
  reader.number("simd", "tops_f64", target.simdTopsF64);
  reader.number("simd", "sfu_fraction", target.sfuFraction);
  reader.integer("simd", "latency_cycles", target.simdLatencyCycles, true);
  reader.number("reduce", "elements_per_cycle", target.reduceElementsPerCycle);
  reader.integer("reduce", "latency_cycles", target.reduceLatencyCycles, true);
  reader.number("reduce", "network_bytes_per_cycle",
                target.reduceNetworkBytesPerCycle);
  reader.integer("reduce", "network_hop_cycles", target.reduceNetworkHopCycles,
                 true);
  reader.number("mlu", "bytes_per_cycle", target.mluBytesPerCycle);
  reader.number("mlu", "transpose_bytes_per_cycle",
                target.mluTransposeBytesPerCycle);
  reader.integer("mlu", "latency_cycles", target.mluLatencyCycles, true);
  reader.integer("control", "cycles_per_instruction",
                 target.controlCyclesPerInstruction);
  reader.integer("control", "issue_cycles", target.controlIssueCycles);
  reader.integer("control", "scalar_memory_latency_cycles",
                 target.scalarMemoryLatencyCycles, true);
  reader.integer("control", "local_memory_latency_cycles",
                 target.controlLocalMemoryLatencyCycles, true);
  reader.integer("command_processor", "circular_buffers",
                 target.numCircularBuffers);
  reader.integer("command_processor", "queue_depth", target.commandQueueDepth);
  reader.integer("command_processor", "handoff_cycles", target.cbHandoffCycles,
                 true);
  reader.number("launch", "launch_ns", target.launchNs, true);
  reader.integer("launch", "program_switch_cycles", target.programSwitchCycles,
                 true);
  if (!reader.error().empty())
    return reader.error();
  if (target.dmaMaxRank > 4)
    return "field 'dma.max_rank' must be at most 4";
  if (target.sfuFraction > 1)
    return "field 'simd.sfu_fraction' must be at most 1";
  std::string error = checkDramStructure(target);
  if (!error.empty())
    return error;
  return checkSramCache(target);
}

std::string mtia::loadTarget(const std::string &path, TargetDesc &target) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return "cannot read '" + path + "': " + buffer.getError().message();
  std::string error =
      parseTarget(std::string_view((*buffer)->getBufferStart(),
                                   (*buffer)->getBufferSize()),
                  target);
  if (!error.empty())
    return path + ": " + error;
  return "";
}

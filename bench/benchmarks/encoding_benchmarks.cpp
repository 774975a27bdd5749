// The workloads of `pecheck bench` under Google Benchmark, each at the
// issue's size ("full") and at a tiny size ("quick", what CI runs as a smoke
// test). Items are table entries or output elements; bytes are the bytes the
// workload moves, so the memory references and the fills can be compared in
// Google Benchmark's own bytes_per_second column. Every workload splits its
// rows across one thread per hardware thread, as `pecheck bench` does.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <thread>

#include "pecheck/bench/workloads.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/parallel_for.hpp"

namespace {

using namespace pecheck;
using namespace pecheck::bench;


Convention vaswani() { return *find_preset("vaswani"); }

struct Size {
  const char* name;
  TableRequest table;
  ForwardShape forward;
  TableRequest reference;
};

const Size sizes[] = {
    {"quick", {256, 128, 0}, {2, 64, 500, 128}, {16, 32, 0}},
    {"full", {8192, 1024, 0}, {8, 1024, 32000, 1024}, {64, 1024, 0}},
};

void streaming_store(benchmark::State& state, const Size& size) {
  StreamingStore store(static_cast<std::size_t>(size.table.rows * size.table.dim) * sizeof(float));
  for (auto _ : state) store.run(machine_threads());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(store.bytes()));
}

void triad(benchmark::State& state, const Size& size) {
  const ForwardShape& shape = size.forward;
  Triad work(static_cast<std::size_t>(shape.batch * shape.sequence * shape.dim));
  for (auto _ : state) work.run(machine_threads());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(work.bytes()));
}

void encoding_table(benchmark::State& state, const Size& size, FormatId format, std::int64_t bytes_per_entry) {
  EncodingTable table(vaswani(), size.table, format);
  for (auto _ : state) table.run(machine_threads());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * table.elements());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * table.elements() * bytes_per_entry);
}

void embed_forward(benchmark::State& state, const Size& size) {
  EmbedForward forward(vaswani(), size.forward, 1);
  for (auto _ : state) forward.run(machine_threads());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * forward.elements());
  // Reads a vocabulary row and an encoding row, writes an output row: the
  // triad's three arrays.
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * forward.elements() * 3 *
                          static_cast<std::int64_t>(sizeof(float)));
}

void reference_table(benchmark::State& state, const Size& size) {
  std::int64_t escalated = 0;
  for (auto _ : state) {
    const reference::ReferenceTable table =
        reference::reference_table(vaswani(), size.reference, FormatId::float32, machine_threads());
    escalated = table.escalations;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * size.reference.rows * size.reference.dim);
  state.counters["escalated"] = static_cast<double>(escalated);
}

void register_all() {
  for (const Size& size : sizes) {
    const std::string suffix = std::string("/") + size.name;
    const auto add = [&](const std::string& name, auto function) {
      benchmark::RegisterBenchmark((name + suffix).c_str(), function)->UseRealTime()->Unit(benchmark::kMillisecond);
    };
    add("memory_write_streaming_store", [&size](benchmark::State& s) { streaming_store(s, size); });
    add("memory_triad", [&size](benchmark::State& s) { triad(s, size); });
    add("pe_table_f32", [&size](benchmark::State& s) { encoding_table(s, size, FormatId::float32, 4); });
    add("pe_table_f16", [&size](benchmark::State& s) { encoding_table(s, size, FormatId::float16, 2); });
    add("pe_table_bf16", [&size](benchmark::State& s) { encoding_table(s, size, FormatId::bfloat16, 2); });
    add("embed_forward", [&size](benchmark::State& s) { embed_forward(s, size); });
    add("reference_f32_rows", [&size](benchmark::State& s) { reference_table(s, size); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

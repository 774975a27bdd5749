#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "pecheck/bench/figures.hpp"

namespace pecheck::bench {

namespace {

std::string printed(const char* format, auto... values) {
  char line[256];
  std::snprintf(line, sizeof line, format, values...);
  return line;
}

std::string shape(std::int64_t rows, std::int64_t dim) { return std::to_string(rows) + " x " + std::to_string(dim); }

std::string load_text(double load) { return load < 0.0 ? "unknown" : printed("%.2f", load); }

}  // namespace

std::string figures_text(const Figures& f) {
  std::string text;
  text += printed("pecheck bench: %s, %d threads, best of %d rounds%s; load average %s before, %s after\n",
                  f.convention.c_str(), f.threads, f.repetitions, f.quick ? " (quick: tiny sizes, not a measurement)" : "",
                  load_text(f.load_average_before).c_str(), load_text(f.load_average_after).c_str());
  const auto mib = [](double bytes) { return bytes / (1024.0 * 1024.0); };
  text += printed("%-14s %-40s %9.3f ms %9.2f GB/s\n", "memory write",
                  printed("streaming store, %.1f MiB", mib(f.write_bandwidth.bytes)).c_str(),
                  f.write_bandwidth.best_seconds * 1e3, f.write_bandwidth.gb_per_s());
  text += printed("%-14s %-40s %9.3f ms %9.2f GB/s\n", "memory triad",
                  printed("c = a + s b, 3 x %.1f MiB", mib(f.triad_bandwidth.bytes / 3)).c_str(),
                  f.triad_bandwidth.best_seconds * 1e3, f.triad_bandwidth.gb_per_s());
  const auto& t32 = f.pe_table_f32;
  text += printed("%-14s %-40s %9.3f ms %9.1f Melem/s  %.2f of write bandwidth (target >= 0.5); max %.4f ulp on %lld "
                  "entries (bound 1)\n",
                  "pe_table_f32", shape(t32.timing.rows, t32.timing.dim).c_str(), t32.timing.best_seconds * 1e3,
                  t32.timing.melem_per_s(), t32.fraction_of_write_bw, t32.max_ulp,
                  static_cast<long long>(t32.sampled_entries));
  for (const auto& [name, half] : {std::pair{"pe_table_f16", &f.pe_table_f16}, std::pair{"pe_table_bf16", &f.pe_table_bf16}}) {
    text += printed("%-14s %-40s %9.3f ms %9.1f Melem/s  %.2f x float32's time per element (target <= 1.5)\n", name,
                    shape(half->timing.rows, half->timing.dim).c_str(), half->timing.best_seconds * 1e3,
                    half->timing.melem_per_s(), half->time_per_element_vs_f32);
  }
  const auto& e = f.embed_forward;
  text += printed("%-14s %-40s %9.3f ms %9.1f Melem/s  %.2f of triad bandwidth (target >= 0.7)\n", "embed_forward",
                  (shape(e.batch, e.sequence) + " ids, " + shape(e.vocabulary, e.dim) + " vocabulary").c_str(),
                  e.best_seconds * 1e3, e.melem_per_s, e.fraction_of_triad_bw);
  const auto& r = f.reference_f32;
  if (r.measured) {
    text += printed("%-14s %-40s %9.3f s  %9.3f Melem/s  %lld entries escalated (target < 30 s)\n", "reference_f32",
                    (shape(r.rows, r.dim) + ", timed once").c_str(), r.seconds, r.melem_per_s,
                    static_cast<long long>(r.escalated));
  }
  return text;
}

std::string figures_json(const Figures& f) {
  using nlohmann::json;
  const auto table = [](const TableTiming& t) {
    return json{{"rows", t.rows}, {"dim", t.dim}, {"best_seconds", t.best_seconds}, {"melem_per_s", t.melem_per_s()}};
  };
  json out;
  out["conditions"] = {{"quick", f.quick},
                       {"threads", f.threads},
                       {"repetitions", f.repetitions},
                       {"taken_as", "best of the repetitions"},
                       {"convention", f.convention},
                       {"load_average_before", f.load_average_before},
                       {"load_average_after", f.load_average_after}};
  out["write_bandwidth"] = {{"bytes", f.write_bandwidth.bytes},
                            {"best_seconds", f.write_bandwidth.best_seconds},
                            {"gb_per_s", f.write_bandwidth.gb_per_s()}};
  out["triad_bandwidth"] = {{"bytes", f.triad_bandwidth.bytes},
                            {"best_seconds", f.triad_bandwidth.best_seconds},
                            {"gb_per_s", f.triad_bandwidth.gb_per_s()}};
  out["pe_table_f32"] = table(f.pe_table_f32.timing);
  out["pe_table_f32"]["fraction_of_write_bw"] = f.pe_table_f32.fraction_of_write_bw;
  out["pe_table_f32"]["max_ulp"] = f.pe_table_f32.max_ulp;
  out["pe_table_f32"]["sampled_entries"] = f.pe_table_f32.sampled_entries;
  out["pe_table_f16"] = table(f.pe_table_f16.timing);
  out["pe_table_f16"]["time_per_element_vs_f32"] = f.pe_table_f16.time_per_element_vs_f32;
  out["pe_table_bf16"] = table(f.pe_table_bf16.timing);
  out["pe_table_bf16"]["time_per_element_vs_f32"] = f.pe_table_bf16.time_per_element_vs_f32;
  const auto& e = f.embed_forward;
  out["embed_forward"] = {{"batch", e.batch},
                          {"sequence", e.sequence},
                          {"vocabulary", e.vocabulary},
                          {"dim", e.dim},
                          {"best_seconds", e.best_seconds},
                          {"melem_per_s", e.melem_per_s},
                          {"fraction_of_triad_bw", e.fraction_of_triad_bw}};
  const auto& r = f.reference_f32;
  if (r.measured) {
    out["reference_f32"] = {{"rows", r.rows},
                            {"dim", r.dim},
                            {"seconds", r.seconds},
                            {"melem_per_s", r.melem_per_s},
                            {"escalated", r.escalated}};
  } else {
    out["reference_f32"] = nullptr;
  }
  return out.dump(2);
}

}  // namespace pecheck::bench

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "pecheck/bench/build_variant.hpp"
#include "pecheck/bench/figures.hpp"
#include "pecheck/bench/targets.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::bench {

namespace {

std::string printed(const char* format, auto... values) {
  char line[256];
  std::snprintf(line, sizeof line, format, values...);
  return line;
}

std::string load_text(double load) { return load < 0.0 ? "unknown" : printed("%.2f", load); }

}  // namespace

bool machine_was_busy(const Figures& f) {
  return f.load_average_before > busy_load_per_thread * std::max(f.threads, 1);
}

std::string conditions_text(const Figures& f) {
  return printed("%s, %s, best of %s%s; load average %s before, %s after%s", f.convention.c_str(),
                 count_of(f.threads, "thread").c_str(), count_of(f.repetitions, "round").c_str(),
                 f.quick ? " (quick: tiny sizes, not a measurement)" : "", load_text(f.load_average_before).c_str(),
                 load_text(f.load_average_after).c_str(),
                 machine_was_busy(f) ? " (a busy machine: other work shares the memory bus, so the ratios may be low)"
                                     : "");
}

std::string figures_text(const Figures& f) {
  std::string text = "pecheck bench: " + conditions_text(f) + "\n";
  text += "kernels: " + build_variant() + "\n";
  const auto mib = [](double bytes) { return bytes / (1024.0 * 1024.0); };
  text += printed("%-14s %-48s %9.3f ms %9.2f GB/s\n", "memory write",
                  printed("streaming store, %.1f MiB", mib(f.write_bandwidth.bytes)).c_str(),
                  f.write_bandwidth.best_seconds * 1e3, f.write_bandwidth.gb_per_s());
  text += printed("%-14s %-48s %9.3f ms %9.2f GB/s\n", "memory triad",
                  printed("c = a + s b, 3 x %.1f MiB", mib(f.triad_bandwidth.bytes / 3)).c_str(),
                  f.triad_bandwidth.best_seconds * 1e3, f.triad_bandwidth.gb_per_s());
  for (const JudgedFigure& figure : judged_figures(f)) {
    const bool seconds = figure.seconds >= 1.0;
    text += printed("%-14s %-48s %9.3f %-2s %9.1f Melem/s  %s", figure.id.c_str(), figure.workload.c_str(),
                    seconds ? figure.seconds : figure.seconds * 1e3, seconds ? "s" : "ms", figure.melem_per_s,
                    f.quick ? "(quick)" : figure.met() ? "met:" : "MISSED:");
    for (std::size_t i = 0; i < figure.criteria.size(); ++i) {
      text += (i == 0 ? " " : "; ") + figure.criteria[i].text();
    }
    if (!figure.detail.empty()) text += "; " + figure.detail;
    text += "\n";
  }
  // A Python figure not measured says why (no module in this build, a failed import).
  const PythonFigures& python = f.python;
  if (python.attempted && !python.skipped.empty()) text += "python calls   not measured: " + python.skipped + "\n";
  for (const PythonCallFigure* call : {&python.validate, &python.validate_rope, &python.validate_rotated}) {
    if (python.attempted && python.skipped.empty() && !call->measured) {
      text += "python calls   " + call->call + " not measured: " + call->skipped + "\n";
    }
  }
  return text;
}

std::string figures_json(const Figures& f) {
  using nlohmann::json;
  const auto table = [](const TableTiming& t) {
    return json{{"rows", t.rows}, {"dim", t.dim}, {"best_seconds", t.best_seconds}, {"melem_per_s", t.melem_per_s()}};
  };
  json out;
  out["variant"] = build_variant();
  out["conditions"] = {{"quick", f.quick},
                       {"threads", f.threads},
                       {"repetitions", f.repetitions},
                       {"taken_as", "best of the repetitions"},
                       {"convention", f.convention},
                       {"load_average_before", f.load_average_before},
                       {"load_average_after", f.load_average_after},
                       {"busy", machine_was_busy(f)}};
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
  const auto& rope = f.rope_cache_f32;
  out["rope_cache_f32"] = {{"preset", rope.preset},
                           {"rows", rope.rows},
                           {"cols", rope.cols},
                           {"rounds", rope.rounds},
                           {"best_seconds", rope.best_seconds},
                           {"melem_per_s", rope.melem_per_s},
                           {"time_per_entry_vs_pe_f32", rope.time_per_entry_vs_pe_f32},
                           {"first_run_seconds", rope.first_run_seconds},
                           {"max_ulp", rope.max_ulp},
                           {"sampled_values", rope.sampled_values}};
  const auto& e = f.embed_forward;
  out["embed_forward"] = {{"batch", e.batch},
                          {"sequence", e.sequence},
                          {"vocabulary", e.vocabulary},
                          {"dim", e.dim},
                          {"best_seconds", e.best_seconds},
                          {"melem_per_s", e.melem_per_s},
                          {"fraction_of_triad_bw", e.fraction_of_triad_bw}};
  const auto reference = [](const ReferenceFigure& r) -> json {
    if (!r.measured) return nullptr;
    return {{"rows", r.rows}, {"dim", r.dim}, {"seconds", r.seconds}, {"melem_per_s", r.melem_per_s},
            {"escalated", r.escalated},
            {"double_word_fallbacks", r.fallbacks}};
  };
  out["reference_f32"] = reference(f.reference_f32);
  out["reference_f64"] = reference(f.reference_f64);
  const auto end_to_end = [](const EndToEndFigure& command) -> json {
    if (!command.measured) return nullptr;
    json figure{{"command", command.command},      {"rows", command.rows},
                {"dim", command.dim},              {"seconds", command.seconds},
                {"peak_rss_bytes", command.peak_rss_bytes}, {"file_bytes", command.file_bytes}};
    if (command.baseline_seconds > 0.0) figure["write_once_seconds"] = command.baseline_seconds;
    if (command.numpy_seconds >= 0.0) figure["numpy_seconds"] = command.numpy_seconds;
    if (command.startup_seconds > 0.0) figure["startup_seconds"] = command.startup_seconds;
    return figure;
  };
  out["table_cli"] = end_to_end(f.end_to_end.table_cli);
  out["validate_cli"] = end_to_end(f.end_to_end.validate_cli);
  if (f.rotary.measured) {
    const RotaryFigures& r = f.rotary;
    out["rope_model_f32"] = {{"rows", r.rows}, {"cols", r.cols}, {"rounds", r.rounds},
                             {"best_seconds", r.model_seconds},
                             {"melem_per_s", static_cast<double>(r.values()) / r.model_seconds / 1e6}};
    out["rope_reference_f32"] = {{"rows", r.rows}, {"cols", r.cols}, {"seconds", r.reference_seconds},
                                 {"melem_per_s", static_cast<double>(r.values()) / r.reference_seconds / 1e6},
                                 {"mpfr_values", r.reference_mpfr_values}};
    out["rope_validate_cli"] = end_to_end(r.validate_cli);
  }
  out["rotated_cli"] = json::parse(rotated_cli_json(f.rotated_cli));
  out["python"] = json::parse(python_figures_json(f.python));
  // Each figure judged against its target (targets.hpp), so a CI job reads
  // "met" without restating the bounds.
  out["targets"] = json::array();
  for (const JudgedFigure& figure : judged_figures(f)) {
    json criteria = json::array();
    for (const Criterion& c : figure.criteria) {
      criteria.push_back({{"quantity", c.quantity},
                          {"value", c.value},
                          {"comparison", std::string(symbol(c.comparison))},
                          {"bound", c.bound},
                          {"met", c.met()},
                          {"why", c.why}});
    }
    out["targets"].push_back({{"figure", figure.id},
                              {"workload", figure.workload},
                              {"met", figure.met()},
                              {"criteria", criteria},
                              {"detail", figure.detail}});
  }
  return out.dump(2);
}

}  // namespace pecheck::bench

#include "pecheck/bench/targets.hpp"

#include <algorithm>
#include <cstdio>

namespace pecheck::bench {

namespace {

std::string shape(std::int64_t rows, std::int64_t dim) { return std::to_string(rows) + " x " + std::to_string(dim); }

std::string number(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

std::string_view symbol(Comparison comparison) {
  switch (comparison) {
    case Comparison::at_least:
      return ">=";
    case Comparison::at_most:
      return "<=";
    case Comparison::below:
      return "<";
  }
  return "?";
}

bool Criterion::met() const {
  switch (comparison) {
    case Comparison::at_least:
      return value >= bound;
    case Comparison::at_most:
      return value <= bound;
    case Comparison::below:
      return value < bound;
  }
  return false;
}

std::string Criterion::text() const {
  return quantity + " " + number(value, "%.4g") + " (target " + std::string(symbol(comparison)) + " " +
         number(bound, "%g") + ")";
}

bool JudgedFigure::met() const {
  return std::all_of(criteria.begin(), criteria.end(), [](const Criterion& c) { return c.met(); });
}

std::vector<JudgedFigure> judged_figures(const Figures& f) {
  std::vector<JudgedFigure> figures;
  const auto& t32 = f.pe_table_f32;
  figures.push_back({"pe_table_f32",
                     shape(t32.timing.rows, t32.timing.dim) + " float32 table",
                     t32.timing.best_seconds,
                     t32.timing.melem_per_s(),
                     {{"fraction of write bandwidth", t32.fraction_of_write_bw, Comparison::at_least, 0.5,
                       "a streaming store of the same bytes, same run"},
                      {"max ULP on " + std::to_string(t32.sampled_entries) + " sampled entries", t32.max_ulp,
                       Comparison::at_most, 1.0, "the fast path's proven float32 bound is below 1 ULP"}},
                     ""});
  for (const auto& [id, name, half] : {std::tuple{"pe_table_f16", "float16", &f.pe_table_f16},
                                       std::tuple{"pe_table_bf16", "bfloat16", &f.pe_table_bf16}}) {
    figures.push_back({id,
                       shape(half->timing.rows, half->timing.dim) + " " + name + " table",
                       half->timing.best_seconds,
                       half->timing.melem_per_s(),
                       {{"time per element over float32's", half->time_per_element_vs_f32, Comparison::at_most, 1.5,
                         "the float32 table, same run"}},
                       ""});
  }
  const auto& rope = f.rope_cache_f32;
  figures.push_back({"rope_cache_f32",
                     shape(rope.rows, rope.cols) + " " + rope.preset + " rotary cos + sin, float32",
                     rope.best_seconds,
                     rope.melem_per_s,
                     {{"time per entry over pe_table_f32's", rope.time_per_entry_vs_pe_f32, Comparison::at_most,
                       rope_cache_max_time_per_entry_vs_pe_f32,
                       "a rotary entry (cos and sin) is one rotation, as a pair of additive entries is"},
                      {"max ULP on " + std::to_string(rope.sampled_values) + " sampled values", rope.max_ulp,
                       Comparison::at_most, 1.0, "rotary_fast.cpp: the additive tables' float32 bound, below 1 ULP"}},
                     "best of " + std::to_string(rope.rounds) + (rope.rounds == 1 ? " round" : " rounds") +
                         "; rows split across threads into tables reused run after run, as pe_table_f32's "
                         "buffer (fast_rotary_cache_into); the first run, allocating them, " +
                         number(rope.first_run_seconds * 1e3, "%.1f") + " ms"});
  const auto& e = f.embed_forward;
  figures.push_back({"embed_forward",
                     shape(e.batch, e.sequence) + " ids into a " + shape(e.vocabulary, e.dim) + " vocabulary",
                     e.best_seconds,
                     e.melem_per_s,
                     {{"fraction of triad bandwidth", e.fraction_of_triad_bw, Comparison::at_least, 0.7,
                       "c = a + s b over arrays of the output's size, same run"}},
                     ""});
  const auto reference = [&](const char* id, const char* format, const ReferenceFigure& r, double bound) {
    if (!r.measured) return;
    figures.push_back({id,
                       shape(r.rows, r.dim) + " correctly rounded " + format + " table (as pecheck table --impl reference)",
                       r.seconds,
                       r.melem_per_s,
                       {{"Melem/s", r.melem_per_s, Comparison::at_least, bound,
                         "issue 11: validate compares every entry, so the oracle must be cheap"}},
                       std::to_string(r.escalated) + " entries escalated to MPFR, " +
                           std::to_string(r.fallbacks) + " left by the double tier to the double-word tier"});
  };
  reference("reference_f32", "float32", f.reference_f32, reference_f32_min_melem_per_s);
  reference("reference_f64", "float64", f.reference_f64, reference_f64_min_melem_per_s);
  const EndToEndFigure& t = f.end_to_end.table_cli;
  if (t.measured) {
    char numpy[96] = "NumPy not measured";
    if (t.numpy_seconds >= 0.0) std::snprintf(numpy, sizeof numpy, "NumPy float64 angles + np.save %.4f s", t.numpy_seconds);
    figures.push_back({"table_cli",
                       "pecheck table " + shape(t.rows, t.dim) + " float32 to .npy, as a command",
                       t.seconds,
                       static_cast<double>(t.rows * t.dim) / t.seconds / 1e6,
                       {{"time over one write() of the file's bytes", t.seconds / t.baseline_seconds,
                         Comparison::at_most, 2.0, "issue 10: the command at the kernel's speed"}},
                       std::string(numpy) + "; the same command for a 1 x 2 table (process start-up) " +
                           number(t.startup_seconds * 1e3, "%.1f") + " ms; one write() " +
                           number(t.baseline_seconds * 1e3, "%.1f") + " ms; peak RSS " +
                           std::to_string(static_cast<long long>(t.peak_rss_bytes / 1048576)) + " MiB"});
  }
  const EndToEndFigure& v = f.end_to_end.validate_cli;
  if (v.measured) {
    figures.push_back({"validate_cli",
                       "pecheck validate " + shape(v.rows, v.dim) + " float32 .npy, every entry",
                       v.seconds,
                       static_cast<double>(v.rows * v.dim) / v.seconds / 1e6,
                       {{"time over reading the file and the fast path over it", v.seconds / v.baseline_seconds,
                         Comparison::at_most, 3.0, "issue 11: comparing every entry costs little more than reading"},
                        {"peak RSS over file size", v.peak_rss_bytes / v.file_bytes, Comparison::at_most, 1.5,
                         "issue 10: memory follows the payload"}},
                       "read + fast path " + number(v.baseline_seconds, "%.3f") + " s; peak RSS " +
                           std::to_string(static_cast<long long>(v.peak_rss_bytes / 1048576)) + " MiB, file " +
                           std::to_string(static_cast<long long>(v.file_bytes / 1048576)) + " MiB"});
  }
  append_rotary_figures(f.rotary, figures);
  add_rotated_cli(f.rotated_cli, figures);
  append_python_figures(f.python, figures);
  return figures;
}

}  // namespace pecheck::bench

#include "pecheck/sweep/result.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "part_checks.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/count_text.hpp"
#include "pecheck/json_input.hpp"
#include "pecheck/one_line_text.hpp"

namespace pecheck::sweep {

namespace {

using Json = nlohmann::ordered_json;  // fields in the order written: same result, same bytes

// About 18 significant digits of an exact value for people: hi + lo in long
// double (64-bit significand, relative error 2^-64 = 5e-20) printed with 18
// digits. The exact value itself is hi and lo, written as C99 hex floats.
std::string decimal_text(DoubleDouble x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17Le", static_cast<long double>(x.hi) + static_cast<long double>(x.lo));
  return buffer;
}

Json range_json(const InclusiveRange& range) { return Json{{"first", range.first}, {"last", range.last}}; }

Json entry_json(const std::optional<SweepEntry>& entry, const Format& format) {
  if (!entry) return nullptr;
  Json out = {{"dim", entry->key.dim},
              {"row", entry->key.row},
              {"position", entry->position},
              {"column", entry->key.column},
              {"value_bits", hex_bits(entry->value, format)},
              {"value", hex_float(entry->value)},
              {"exact", {{"hi", hex_float(entry->exact.hi)}, {"lo", hex_float(entry->exact.lo)},
                         {"decimal", decimal_text(entry->exact)}}},
              {"mismatch", std::string(to_string(entry->error.mismatch))}};
  if (entry->error.mismatch == Mismatch::none) {
    out["ulp"] = entry->error.ulps;
    out["abs_error"] = entry->abs_error;
  }
  return out;
}

// Reading: every field is looked up by its dotted path, and any problem is
// reported with the file and that path.
class Reader {
 public:
  Reader(const Json& root, const std::string& source) : root_(root), source_(source) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw SweepFileError(source_ + ": field '" + path + "': " + what);
  }

  const Json& at(const std::string& path) const {
    const Json* node = &root_;
    std::size_t start = 0;
    while (start <= path.size()) {
      const std::size_t end = std::min(path.find('.', start), path.size());
      const std::string name = path.substr(start, end - start);
      if (!node->is_object() || !node->contains(name)) fail(path, "missing");
      node = &(*node)[name];
      start = end + 1;
    }
    return *node;
  }

  std::int64_t integer(const std::string& path) const {
    const Json& node = at(path);
    // An unsigned value past INT64_MAX would wrap around to a negative one.
    if (!node.is_number_integer() || (node.is_number_unsigned() && node.get<std::uint64_t>() > INT64_MAX)) {
      fail(path, "expected a whole number below 2^63, got " + json_value_text(node));
    }
    return node.get<std::int64_t>();
  }
  double number(const std::string& path) const {
    const Json& node = at(path);
    if (!node.is_number()) fail(path, "expected a number, got " + json_value_text(node));
    return node.get<double>();
  }
  std::string text(const std::string& path) const {
    const Json& node = at(path);
    if (!node.is_string()) fail(path, "expected a string, got " + json_value_text(node));
    return node.get<std::string>();
  }
  // A C99 hex float as hex_float writes it, exactly.
  double hex_double(const std::string& path) const {
    const std::string s = text(path);
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) fail(path, "expected a C99 hex float such as 0x1.8p-3, got " + quoted_excerpt_of(s));
    return x;
  }
  InclusiveRange range(const std::string& path) const { return {integer(path + ".first"), integer(path + ".last")}; }

  std::optional<SweepEntry> entry(const std::string& path, const Format& format) const {
    if (at(path).is_null()) return std::nullopt;
    const std::string bits_text = text(path + ".value_bits");
    char* end = nullptr;
    errno = 0;
    const unsigned long long bits = std::strtoull(bits_text.c_str(), &end, 16);
    if (bits_text.size() < 3 || bits_text.substr(0, 2) != "0x" || end != bits_text.c_str() + bits_text.size() ||
        errno == ERANGE || (format.storage_bits < 64 && bits >> format.storage_bits != 0)) {
      fail(path + ".value_bits",
           "expected a " + std::string(format.name) + " bit pattern such as 0x3f800000, got " + quoted_excerpt_of(bits_text));
    }
    const EntryKey key{integer(path + ".dim"), integer(path + ".row"), integer(path + ".column")};
    const DoubleDouble exact{hex_double(path + ".exact.hi"), hex_double(path + ".exact.lo")};
    // The errors are recomputed from the value and the exact value, as the
    // sweep computed them: the file cannot carry an error that disagrees.
    return compare_entry(key, integer(path + ".position"), from_bits(bits, format), exact, format);
  }

 private:
  const Json& root_;
  const std::string& source_;
};

}  // namespace

std::string result_json(const SweepResult& result) {
  const SweepWork& work = result.work;
  const SweepStatistics& s = result.statistics;
  const Format& format = format_of(work.format);
  Json out;
  out["pecheck_sweep"] = sweep_schema_version;
  out["work"] = {{"convention", work.convention},
                 {"dims", {{"first", work.dims.first}, {"last", work.dims.last}, {"step", work.dims.step}}},
                 {"dtype", std::string(format.name)},
                 {"positions", range_json(work.positions)},
                 {"subject", work.subject},
                 {"budget_ulp", work.budget_ulp},
                 {"pecheck_version", work.version}};
  out["shard"] = {{"index", result.shard.index}, {"count", result.shard.count}, {"positions", range_json(result.rows)}};
  out["verdict"] = s.held() ? "held" : "failed";
  out["entries"] = s.entries;
  out["mismatches"] = s.mismatches;
  out["beyond_budget"] = s.beyond_budget;
  out["escalations"] = s.escalations;
  out["max_ulp"] = s.worst_ulp ? Json(s.worst_ulp->error.ulps) : Json(nullptr);
  out["rms_ulp"] = s.rms_ulp();
  out["max_abs_error"] = s.worst_abs_error ? Json(s.worst_abs_error->abs_error) : Json(nullptr);
  out["sum_squares_ulp"] = {{"integer", s.sum_squares_ulp.hex()},
                            {"scale", "2^-" + std::to_string(ExactSquareSum::fraction_bits)}};
  out["worst_ulp"] = entry_json(s.worst_ulp, format);
  out["worst_abs_error"] = entry_json(s.worst_abs_error, format);
  out["first_mismatch"] = entry_json(s.first_mismatch, format);
  return out.dump(2) + "\n";
}

SweepResult parse_result_json(std::string_view text, const std::string& source) {
  Json root;
  try {
    require_json_structure(text, source);
    root = Json::parse(text);
  } catch (const JsonInputError& e) {
    throw SweepFileError(e.what());
  } catch (const Json::exception& e) {
    // The parser's message quotes the token it read, which may be huge.
    throw SweepFileError(source + ": not JSON (" + excerpt(e.what(), 160) + ")");
  }
  const Reader read(root, source);
  if (read.integer("pecheck_sweep") != sweep_schema_version) {
    read.fail("pecheck_sweep", "schema version " + std::to_string(read.integer("pecheck_sweep")) +
                                   ", this pecheck reads version " + std::to_string(sweep_schema_version));
  }
  SweepResult result;
  SweepWork& work = result.work;
  work.convention = read.text("work.convention");
  work.dims = {read.integer("work.dims.first"), read.integer("work.dims.last"), read.integer("work.dims.step")};
  const std::string dtype = read.text("work.dtype");
  const std::optional<FormatId> format = parse_format(dtype);
  if (!format) read.fail("work.dtype", "expected float64, float32, float16 or bfloat16, got " + quoted_excerpt_of(dtype));
  work.format = *format;
  work.positions = read.range("work.positions");
  work.subject = read.text("work.subject");
  work.budget_ulp = read.number("work.budget_ulp");
  work.version = read.text("work.pecheck_version");
  if (work.dims.first < 1 || work.dims.last < work.dims.first || work.dims.step < 1) {
    read.fail("work.dims", "expected 1 <= first <= last and step >= 1");
  }
  if (work.positions.first < 0 || work.positions.last < work.positions.first) {
    read.fail("work.positions", "expected 0 <= first <= last");
  }
  // Bounded before anything walks the widths or counts the entries: a
  // tampered last width of 2^62 would loop for ever.
  if (work.dims.last > max_dim) read.fail("work.dims", "expected widths up to " + std::to_string(max_dim));
  if (work.positions.last >= max_exact_position) read.fail("work.positions", "expected rows below 2^24");
  // The work as `pecheck sweep` would describe it: a known convention and
  // subject, widths the convention accepts, and this build's budget.
  SweepWork expected;
  try {
    expected = make_work(work.convention, work.dims, work.format, work.positions, work.subject);
  } catch (const std::exception& e) {
    read.fail("work", excerpt(e.what(), 200));
  }
  if (!std::isfinite(work.budget_ulp) || work.budget_ulp < 0.0 ||
      (work.version == expected.version && work.budget_ulp != expected.budget_ulp)) {
    read.fail("work.budget_ulp", "expected the " + work.subject + " subject's budget for " + dtype + ", " +
                                     std::to_string(expected.budget_ulp) + " ULP");
  }

  result.shard = {read.integer("shard.index"), read.integer("shard.count")};
  result.rows = read.range("shard.positions");
  try {
    if (shard_positions(work.positions, result.shard) != result.rows) {
      read.fail("shard.positions", range_text(result.rows) + " are not the rows of shard " +
                                       shard_text(result.shard) + " of " + range_text(work.positions) + " (" +
                                       range_text(shard_positions(work.positions, result.shard)) + ")");
    }
  } catch (const SweepUsageError& e) {
    read.fail("shard", e.what());
  }

  const Format& f = format_of(work.format);
  SweepStatistics& s = result.statistics;
  s.entries = read.integer("entries");
  s.mismatches = read.integer("mismatches");
  s.beyond_budget = read.integer("beyond_budget");
  s.escalations = read.integer("escalations");
  const std::optional<ExactSquareSum> squares = ExactSquareSum::from_hex(read.text("sum_squares_ulp.integer"));
  if (!squares) read.fail("sum_squares_ulp.integer", "expected a hexadecimal integer such as 0x1f");
  s.sum_squares_ulp = *squares;
  s.worst_ulp = read.entry("worst_ulp", f);
  s.worst_abs_error = read.entry("worst_abs_error", f);
  s.first_mismatch = read.entry("first_mismatch", f);
  // A part that stopped early, or was edited, does not hold every entry of its rows.
  if (s.entries != entry_count(work, result.rows)) {
    read.fail("entries", std::to_string(s.entries) + ", but shard " + shard_text(result.shard) + " (rows " +
                             range_text(result.rows) + ", widths " + widths_text(work.dims) + ") has " +
                             std::to_string(entry_count(work, result.rows)) + " entries");
  }
  if (s.mismatches < 0 || s.mismatches > s.entries || s.beyond_budget < 0 || s.beyond_budget > s.measured() ||
      s.escalations < 0 || s.escalations > s.entries) {
    read.fail("mismatches", "the counts are inconsistent (each between 0 and entries; beyond_budget at most "
                            "entries - mismatches)");
  }
  check_part_figures(result, source);
  return result;
}

std::string result_summary(const SweepResult& result) {
  const SweepStatistics& s = result.statistics;
  char figures[256];
  std::snprintf(figures, sizeof figures, "max %.4g ULP (budget %.6g), RMS %.4g ULP, max abs error %.3g",
                s.worst_ulp ? s.worst_ulp->error.ulps : 0.0, result.work.budget_ulp, s.rms_ulp(),
                s.worst_abs_error ? s.worst_abs_error->abs_error : 0.0);
  std::string text = std::string(s.held() ? "held" : "failed") + ": " + count_of(s.entries, "entry", "entries") +
                     ", " + figures + ", " + count_of(s.beyond_budget, "entry", "entries") +
                     " beyond the budget, " + count_of(s.mismatches, "typed mismatch", "typed mismatches") +
                     ", " + count_of(s.escalations, "escalation", "escalations");
  if (s.worst_ulp) {
    const SweepEntry& w = *s.worst_ulp;
    text += "; worst: d " + std::to_string(w.key.dim) + ", row " + std::to_string(w.key.row) + " (position " +
            std::to_string(w.position) + "), column " + std::to_string(w.key.column) + ": " +
            hex_bits(w.value, format_of(result.work.format)) + " against exact " + decimal_text(w.exact);
  }
  return text;
}

}  // namespace pecheck::sweep

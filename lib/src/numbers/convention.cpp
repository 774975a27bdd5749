#include "pecheck/convention.hpp"
#include "pecheck/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace pecheck {

namespace {

std::string dim_error(const Convention& convention, std::int64_t d, std::string_view why) {
  std::ostringstream message;
  message << "--dim " << d << " is impossible for convention '" << convention.name << "': " << why;
  return message.str();
}

std::string format_number(double value) { return significant(value, 6); }

}  // namespace

void check_dim(const Convention& convention, std::int64_t d) {
  if (d < 1) throw ConventionError(dim_error(convention, d, "the width must be at least 1"));
  if (d > max_dim) {
    throw ConventionError(dim_error(convention, d, "the width must be at most " + std::to_string(max_dim)));
  }
  if (convention.frequency.kind == FrequencyRuleKind::timestep && d / 2 >= 1 &&
      d / 2 - convention.frequency.downscale_freq_shift < 1) {
    throw ConventionError(dim_error(
        convention, d,
        "this convention needs d >= " + std::to_string(2 * convention.frequency.downscale_freq_shift + 2) +
            " (get_timestep_embedding divides by d/2 - downscale_freq_shift, which must be at least 1)"));
  }
  if (d < convention.min_dim) {
    throw ConventionError(dim_error(convention, d,
                                    "this convention needs d >= " + std::to_string(convention.min_dim) +
                                        " (the original divides by d/2 - 1)"));
  }
  if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) {
    throw ConventionError(dim_error(convention, d, "this convention rejects odd widths"));
  }
}

std::int64_t frequency_count(const Convention& convention, std::int64_t d) {
  if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::extra_sin) return (d + 1) / 2;
  return d / 2;
}

FrequencyTerm frequency_term(const Convention& convention, std::int64_t d, std::int64_t i) {
  FrequencyTerm term;
  switch (convention.frequency.kind) {
    case FrequencyRuleKind::paper:
      // w_i = base^(-2i/d): the exponent's denominator is the full width,
      // odd or even, as in the paper and HF Marian.
      term.log_numerator = convention.frequency.base;
      term.log_denominator = 1.0;
      term.k = 2 * i;
      term.m = d;
      term.divisor = 1.0;
      break;
    case FrequencyRuleKind::timescale: {
      // w_i = (1/min_ts) exp(-i ln(max_ts/min_ts) / max(n - 1, 1)).
      const std::int64_t n = frequency_count(convention, d);
      term.log_numerator = convention.frequency.max_timescale;
      term.log_denominator = convention.frequency.min_timescale;
      term.k = i;
      term.m = std::max<std::int64_t>(n - 1, 1);
      term.divisor = convention.frequency.min_timescale;
      break;
    }
    case FrequencyRuleKind::timestep:
      // w_i = scale exp(-ln(max_period) i / (n - shift)), n = floor(d/2): the
      // odd width's last column is diffusers' zero pad, not a frequency.
      term.log_numerator = convention.frequency.max_period;
      term.log_denominator = 1.0;
      term.k = i;
      term.m = d / 2 - convention.frequency.downscale_freq_shift;
      term.divisor = 1.0;
      term.multiplier = convention.frequency.scale;
      break;
  }
  return term;
}

bool same_frequency(const FrequencyTerm& a, const FrequencyTerm& b) {
  // k/m and k'/m' as fractions: m, m' >= 1 and k, k' < 2^15 (d <= max_dim), so the products are exact.
  return a.log_numerator == b.log_numerator && a.log_denominator == b.log_denominator && a.divisor == b.divisor &&
         a.multiplier == b.multiplier && a.k * b.m == b.k * a.m;
}

double frequency_value(const Convention& convention, std::int64_t d, std::int64_t i) {
  const FrequencyTerm term = frequency_term(convention, d, i);
  const double exponent = -(static_cast<double>(term.k) / static_cast<double>(term.m)) *
                          std::log(term.log_numerator / term.log_denominator);
  return term.multiplier * std::exp(exponent) / term.divisor;
}

std::vector<ColumnSpec> column_layout(const Convention& convention, std::int64_t d) {
  check_dim(convention, d);
  const bool odd = d % 2 == 1;
  const std::int64_t pairs = d / 2;
  const bool extra_sin = odd && convention.odd_dim == OddDimPolicy::extra_sin;
  const std::int64_t sin_count = pairs + (extra_sin ? 1 : 0);
  const std::int64_t cos_count = pairs;

  std::vector<ColumnSpec> columns;
  columns.reserve(static_cast<std::size_t>(d));
  switch (convention.layout) {
    case Layout::interleaved:
      for (std::int64_t i = 0; i < pairs; ++i) {
        columns.push_back({ColumnKind::sin, i});
        columns.push_back({ColumnKind::cos, i});
      }
      if (extra_sin) columns.push_back({ColumnKind::sin, pairs});
      break;
    case Layout::sin_cos_halves:
      for (std::int64_t i = 0; i < sin_count; ++i) columns.push_back({ColumnKind::sin, i});
      for (std::int64_t i = 0; i < cos_count; ++i) columns.push_back({ColumnKind::cos, i});
      break;
    case Layout::cos_sin_halves:
      for (std::int64_t i = 0; i < cos_count; ++i) columns.push_back({ColumnKind::cos, i});
      for (std::int64_t i = 0; i < sin_count; ++i) columns.push_back({ColumnKind::sin, i});
      break;
  }
  while (static_cast<std::int64_t>(columns.size()) < d) columns.push_back({ColumnKind::zero, 0});
  return columns;
}

std::vector<FrequencyColumns> columns_by_frequency(const std::vector<ColumnSpec>& columns) {
  std::vector<FrequencyColumns> by_frequency;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const ColumnSpec& spec = columns[c];
    if (spec.kind == ColumnKind::zero) continue;
    const auto i = static_cast<std::size_t>(spec.frequency_index);
    if (by_frequency.size() <= i) {
      const std::size_t first_new = by_frequency.size();
      by_frequency.resize(i + 1);
      for (std::size_t k = first_new; k <= i; ++k) by_frequency[k].frequency_index = static_cast<std::int64_t>(k);
    }
    (spec.kind == ColumnKind::sin ? by_frequency[i].sin_column : by_frequency[i].cos_column) =
        static_cast<std::int64_t>(c);
  }
  return by_frequency;
}

std::vector<FrequencyColumns> paired_frequencies(const Convention& convention, std::int64_t d) {
  std::vector<FrequencyColumns> pairs = columns_by_frequency(column_layout(convention, d));
  std::erase_if(pairs, [](const FrequencyColumns& f) { return !f.paired(); });
  return pairs;
}

bool is_zero_row(const Convention& convention, std::int64_t row) {
  return std::find(convention.zero_rows.begin(), convention.zero_rows.end(), row) != convention.zero_rows.end();
}

namespace {

// A preset's required fields; the others keep Convention's defaults unless set after.
Convention preset(std::string name, Layout layout, FrequencyRule frequency, std::string source) {
  Convention convention;
  convention.name = std::move(name);
  convention.layout = layout;
  convention.frequency = frequency;
  convention.source = std::move(source);
  return convention;
}

const FrequencyRule paper_rule{FrequencyRuleKind::paper, 10000.0, 1.0, 1.0e4};
const FrequencyRule timescale_rule{FrequencyRuleKind::timescale, 10000.0, 1.0, 1.0e4};

// Relative: positions L-1 down; an odd width is a shape error in every
// original (d + 1 columns, or a failed slice assignment), so it is rejected.
Convention relative(std::string name, Layout layout, PositionSpan span, std::string source) {
  Convention convention = preset(std::move(name), layout, paper_rule, std::move(source));
  convention.position_step = -1;
  convention.span = span;
  convention.odd_dim = OddDimPolicy::reject;
  return convention;
}

}  // namespace

Convention timestep_convention(std::string name, const TimestepEmbedding& fields, std::string source) {
  if (fields.downscale_freq_shift < 0) {
    throw ConventionError("downscale_freq_shift is " + std::to_string(fields.downscale_freq_shift) +
                          ": expected a whole number >= 0");
  }
  if (!(std::isfinite(fields.scale) && fields.scale > 0.0)) {
    throw ConventionError("scale is " + format_number(fields.scale) + ": expected a positive finite number");
  }
  if (!(std::isfinite(fields.max_period) && fields.max_period > 1.0)) {
    throw ConventionError("max_period is " + format_number(fields.max_period) +
                          ": expected a finite number above 1");
  }
  Convention convention;
  convention.name = std::move(name);
  convention.layout = fields.flip_sin_to_cos ? Layout::cos_sin_halves : Layout::sin_cos_halves;
  convention.frequency.kind = FrequencyRuleKind::timestep;
  convention.frequency.max_period = fields.max_period;
  convention.frequency.downscale_freq_shift = fields.downscale_freq_shift;
  convention.frequency.scale = fields.scale;
  convention.odd_dim = OddDimPolicy::zero_column;  // torch.nn.functional.pad(emb, (0, 1, 0, 0))
  // n - shift >= 1 (check_dim says why when it is not).
  convention.min_dim = fields.downscale_freq_shift > 0 ? 2 * fields.downscale_freq_shift + 2 : 1;
  convention.source = std::move(source);
  return convention;
}

std::optional<TimestepEmbedding> timestep_fields(const Convention& convention) {
  if (convention.frequency.kind != FrequencyRuleKind::timestep || convention.layout == Layout::interleaved) {
    return std::nullopt;
  }
  TimestepEmbedding fields;
  fields.flip_sin_to_cos = convention.layout == Layout::cos_sin_halves;
  fields.downscale_freq_shift = convention.frequency.downscale_freq_shift;
  fields.scale = convention.frequency.scale;
  fields.max_period = convention.frequency.max_period;
  return fields;
}

const std::vector<Convention>& presets() {
  static const std::vector<Convention> all = [] {
    std::vector<Convention> list;
    list.push_back(preset("vaswani", Layout::interleaved, paper_rule, "Vaswani et al. 2017, section 3.5"));
    Convention tf = preset("tf-tutorial", Layout::sin_cos_halves, paper_rule,
                           "TensorFlow text tutorial 'Neural machine translation with a Transformer' (since 2022)");
    tf.odd_dim = OddDimPolicy::reject;
    list.push_back(tf);
    Convention t2t = preset("tensor2tensor", Layout::sin_cos_halves, timescale_rule,
                            "tensor2tensor common_attention.get_timing_signal_1d");
    t2t.odd_dim = OddDimPolicy::zero_column;
    list.push_back(t2t);
    // fairseq: row padding_idx (default 1) is zeroed; real tokens start at
    // padding_idx + 1. Its d/2 - 1 divisor makes d < 4 a division by zero.
    Convention fairseq = preset("fairseq", Layout::sin_cos_halves, timescale_rule,
                                "fairseq SinusoidalPositionalEmbedding.get_embedding");
    fairseq.zero_rows = {1};
    fairseq.odd_dim = OddDimPolicy::zero_column;
    fairseq.min_dim = 4;
    list.push_back(fairseq);
    // HF Musicgen copies fairseq's get_embedding with cos first: same divisor.
    Convention musicgen = preset("musicgen", Layout::cos_sin_halves, timescale_rule,
                                 "transformers MusicgenSinusoidalPositionalEmbedding.get_embedding");
    musicgen.odd_dim = OddDimPolicy::zero_column;
    musicgen.min_dim = 4;
    list.push_back(musicgen);
    list.push_back(
        preset("marian-hf", Layout::sin_cos_halves, paper_rule, "transformers MarianSinusoidalPositionalEmbedding"));
    return list;
  }();
  return all;
}

// CONVENTIONS.md, "Relative sinusoidal encodings". Their frequencies are the
// paper's, computed in float32 by the originals (inv_freq / div_term); the
// conventions are the exact values, as for every preset.
const std::vector<Convention>& relative_presets() {
  static const std::vector<Convention> all = [] {
    std::vector<Convention> list;
    list.push_back(relative("transformer-xl", Layout::sin_cos_halves, PositionSpan::down_to_zero,
                            "kimiyoung/transformer-xl pytorch/mem_transformer.py PositionalEmbedding: pos_seq = "
                            "arange(klen-1, -1, -1.0), inv_freq = 1 / 10000^(arange(0, d, 2) / d), cat([sin, cos], "
                            "-1); the TF version's positional_embedding is the same"));
    list.push_back(relative("espnet-rel", Layout::interleaved, PositionSpan::centred_on_zero,
                            "espnet espnet/nets/pytorch_backend/transformer/embedding.py RelPositionalEncoding (the "
                            "newer one, not LegacyRelPositionalEncoding): cat(flip(pe_positive), pe_negative[1:]), "
                            "div_term = exp(arange(0, d, 2) * -(ln 10000 / d)), sin at 0::2, cos at 1::2"));
    list.push_back(relative("nemo-rel", Layout::interleaved, PositionSpan::centred_on_zero,
                            "NVIDIA NeMo nemo/collections/asr/parts/submodules/multi_head_attention.py "
                            "RelPositionalEncoding.extend_pe: positions arange(L-1, -L, -1), PositionalEncoding's "
                            "create_pe (sin at 0::2, cos at 1::2, the paper's div_term); read from the public code "
                            "as remembered, not re-checked against a pinned release"));
    list.push_back(relative("speechbrain-rel", Layout::interleaved, PositionSpan::centred_on_zero,
                            "SpeechBrain speechbrain/nnet/attention.py RelPosEncXL.make_pe: cat(flip(pe_past), "
                            "pe_future[1:]) with pe_future's sin negated, sin at 0::2, cos at 1::2; read from the "
                            "public code as remembered, not re-checked against a pinned release"));
    return list;
  }();
  return all;
}

namespace {

// Kept out of presets(), the list the checks and the report sweep, whose
// figures are the six encodings' of CONVENTIONS.md; validate and the
// command line find these by name and detection names them.
std::vector<Convention> timestep_presets() {
  std::vector<Convention> list;
    // Diffusion timestep embeddings (CONVENTIONS.md): row r holds timestep r.
    TimestepEmbedding stable_diffusion;
    stable_diffusion.flip_sin_to_cos = true;
    stable_diffusion.downscale_freq_shift = 0;
    list.push_back(timestep_convention(
        "sd-timestep", stable_diffusion,
        "diffusers get_timestep_embedding with flip_sin_to_cos=True, downscale_freq_shift=0 (UNet2DConditionModel's "
        "time_proj; runwayml/stable-diffusion-v1-5 unet/config.json: flip_sin_to_cos true, freq_shift 0); CompVis "
        "ldm timestep_embedding"));
    list.push_back(timestep_convention(
        "ddpm-timestep", TimestepEmbedding{},
        "diffusers get_timestep_embedding's defaults (flip_sin_to_cos=False, downscale_freq_shift=1, scale=1, "
        "max_period=10000), as DDPM's get_timestep_embedding (Ho et al. 2020); tensor2tensor's table at every width from 4"));
  return list;
}

}  // namespace

const std::vector<Convention>& all_presets() {
  static const std::vector<Convention> all = [] {
    std::vector<Convention> list = presets();
    list.insert(list.end(), relative_presets().begin(), relative_presets().end());
    const std::vector<Convention> timesteps = timestep_presets();
    list.insert(list.end(), timesteps.begin(), timesteps.end());
    return list;
  }();
  return all;
}

Convention for_rows(const Convention& convention, std::int64_t rows) {
  Convention resolved = convention;
  switch (convention.span) {
    case PositionSpan::fixed:
      return resolved;
    case PositionSpan::down_to_zero:
      if (rows < 1) throw ConventionError("--rows " + std::to_string(rows) + ": expected at least one row");
      resolved.position_offset = rows - 1;  // L rows: L-1 down to 0
      break;
    case PositionSpan::centred_on_zero:
      if (rows < 1 || rows % 2 == 0) {
        throw ConventionError("--rows " + std::to_string(rows) + " is impossible for convention '" + convention.name +
                              "': its table for length L has 2L-1 rows (expected an odd row count)");
      }
      resolved.position_offset = (rows - 1) / 2;  // 2L-1 rows: L-1 down to -(L-1)
      break;
  }
  resolved.position_step = -1;
  resolved.span = PositionSpan::fixed;
  return resolved;
}

bool same_name(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

std::optional<Convention> find_preset(std::string_view name) {
  for (const Convention& preset : all_presets()) {
    if (same_name(preset.name, name)) return preset;
  }
  return std::nullopt;
}

Convention preset_by_name(std::string_view name) {
  std::optional<Convention> found = find_preset(name);
  if (!found) {
    throw ConventionError("unknown convention '" + std::string(name) + "' (expected one of " + preset_names() + ")");
  }
  return *std::move(found);
}

std::string preset_names() {
  std::string names;
  for (const Convention& preset : all_presets()) names += (names.empty() ? "" : ", ") + preset.name;
  return names;
}

std::string_view to_string(Layout layout) {
  switch (layout) {
    case Layout::interleaved: return "interleaved";
    case Layout::sin_cos_halves: return "sin-cos-halves";
    case Layout::cos_sin_halves: return "cos-sin-halves";
  }
  return "?";
}

std::string_view to_string(FrequencyRuleKind kind) {
  switch (kind) {
    case FrequencyRuleKind::paper: return "paper";
    case FrequencyRuleKind::timescale: return "timescale";
    case FrequencyRuleKind::timestep: return "timestep";
  }
  return "?";
}

std::string_view to_string(OddDimPolicy policy) {
  switch (policy) {
    case OddDimPolicy::reject: return "reject";
    case OddDimPolicy::extra_sin: return "extra-sin";
    case OddDimPolicy::zero_column: return "zero-column";
  }
  return "?";
}

std::string_view to_string(PositionSpan span) {
  switch (span) {
    case PositionSpan::fixed: return "fixed";
    case PositionSpan::down_to_zero: return "down-to-zero";
    case PositionSpan::centred_on_zero: return "centred-on-zero";
  }
  return "?";
}

std::string describe(const Convention& convention) {
  std::ostringstream out;
  switch (convention.layout) {
    case Layout::interleaved: out << "PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i)"; break;
    case Layout::sin_cos_halves: out << "PE[p, i] = sin(p w_i), PE[p, n+i] = cos(p w_i)"; break;
    case Layout::cos_sin_halves: out << "PE[p, i] = cos(p w_i), PE[p, n+i] = sin(p w_i)"; break;
  }
  out << "; ";
  const FrequencyRule& rule = convention.frequency;
  if (rule.kind == FrequencyRuleKind::paper) {
    out << "w_i = " << format_number(rule.base) << "^(-2i/d)";
  } else if (rule.kind == FrequencyRuleKind::timestep) {
    out << "w_i = ";
    if (rule.scale != 1.0) out << format_number(rule.scale) << " ";
    out << "exp(-ln(" << format_number(rule.max_period) << ") i / (n - " << rule.downscale_freq_shift
        << ")) (get_timestep_embedding: flip_sin_to_cos "
        << (convention.layout == Layout::cos_sin_halves ? "true" : "false") << ", downscale_freq_shift "
        << rule.downscale_freq_shift << ", scale " << format_number(rule.scale) << ", max_period "
        << format_number(rule.max_period) << ")";
  } else {
    out << "w_i = (1/" << format_number(rule.min_timescale) << ") exp(-i ln(" << format_number(rule.max_timescale)
        << "/" << format_number(rule.min_timescale) << ") / max(n-1, 1))";
  }
  out << "; n = d/2; ";
  switch (convention.span) {
    case PositionSpan::down_to_zero:
      out << "L rows: row r holds position L-1-r (L-1 down to 0)";
      break;
    case PositionSpan::centred_on_zero:
      out << "2L-1 rows: row r holds position L-1-r (L-1 down to -(L-1))";
      break;
    case PositionSpan::fixed:
      out << "row r holds position ";
      if (convention.position_step < 0) {
        out << convention.position_offset << " - r";
      } else {
        out << "r";
        if (convention.position_offset != 0) out << " + " << convention.position_offset;
      }
      break;
  }
  if (!convention.zero_rows.empty()) {
    out << "; zero rows:";
    for (std::int64_t row : convention.zero_rows) out << ' ' << row;
  }
  switch (convention.odd_dim) {
    case OddDimPolicy::reject: out << "; odd d rejected"; break;
    case OddDimPolicy::extra_sin: out << "; odd d: sin gets the extra column"; break;
    case OddDimPolicy::zero_column: out << "; odd d: one zero column appended"; break;
  }
  if (convention.min_dim > 1) out << "; d >= " << convention.min_dim;
  return out.str();
}

}  // namespace pecheck

#include "rotated_mrope.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace pecheck::validate {

namespace {

std::string sections_text(const RotaryConvention& c) {
  return std::to_string(c.mrope_section[0]) + "/" + std::to_string(c.mrope_section[1]) + "/" +
         std::to_string(c.mrope_section[2]) + (c.mrope_interleaved ? " interleaved" : "");
}

// Whether the output's first rows conform, under `request`, to the exact
// rotation or one of the computation models (as validate_rotated_output asks).
bool conforms_somewhere(const RotatedComparisonRequest& request, const ComputationModel& angle_model) {
  if (compare_rotated(request, std::nullopt, angle_model).conforms) return true;
  for (const reference::RotatedModel& model : reference::rotated_models()) {
    if (compare_rotated(request, model, angle_model).conforms) return true;
  }
  return false;
}

struct Misreading {
  HazardKind kind;
  std::string what;  // the evidence's opening, what the kernel did
  std::string source;
  std::function<void(RotaryConvention&, std::vector<std::vector<std::int64_t>>&)> apply;
};

}  // namespace

void check_mrope_positions(const RotatedSubject& subject, const RotatedTokens& tokens,
                           const std::optional<RotaryConvention>& convention) {
  const bool three_rows = !tokens.mrope_position.empty();
  const bool sectioned = convention && !convention->mrope_section.empty();
  if (three_rows && !sectioned) {
    throw ValidationInputError(subject.positions_name + ": shape " + shape_text(subject.positions.shape) +
                               " holds three rows of position ids (M-RoPE's temporal, height and width) but " +
                               (convention ? "the convention has no mrope_section" : "no convention is given") +
                               ": expected POS of shape (L,), or --config with rope_scaling.mrope_section");
  }
  if (!three_rows && sectioned) {
    throw ValidationInputError(subject.positions_name + ": shape " + shape_text(subject.positions.shape) +
                               " holds one row of positions but the convention is M-RoPE (mrope_section " +
                               sections_text(*convention) +
                               "): expected (3, L) or (3, B, L) temporal, height and width ids (for text, the same "
                               "ids in each row)");
  }
}

std::optional<Hazard> diagnose_mrope_ids(const RotatedComparisonRequest& request, const ComputationModel& angle_model) {
  if (request.mrope_position == nullptr || request.mrope_position->empty()) return std::nullopt;
  // The first rows only: a misreading of the ids shows on every token it touches.
  const RotatedValues& all = *request.values;
  const std::int64_t rows = std::min<std::int64_t>(all.rows, 256);
  const RotatedValues first{
      TableView(all.input.format(), rows, all.input.cols(), all.input.stride(), all.input.data()),
      TableView(all.output.format(), rows, all.output.cols(), all.output.stride(), all.output.data()), rows,
      all.head_dim};
  std::vector<std::vector<std::int64_t>> ids;
  for (const std::vector<std::int64_t>& section : *request.mrope_position) {
    ids.emplace_back(section.begin(), section.begin() + rows);
  }
  const std::vector<std::int64_t> temporal = ids[0];

  std::vector<Misreading> misreadings;
  static constexpr const char* names[] = {"temporal", "height", "width"};
  const std::string off_by_one = "M-RoPE position ids off by one: vllm 16878";
  for (const std::int64_t delta : {1, -1}) {
    const std::string by = delta > 0 ? "+ 1" : "- 1";
    const auto shift = [delta](std::vector<std::int64_t>& v) {
      for (std::int64_t& p : v) p += delta;
    };
    misreadings.push_back({HazardKind::position_offset, "the kernel rotates by all three ids " + by, off_by_one,
                           [shift](RotaryConvention&, auto& v) {
                             for (auto& s : v) shift(s);
                           }});
    misreadings.push_back({HazardKind::position_offset, "the kernel rotates by the height and width ids " + by,
                           off_by_one, [shift](RotaryConvention&, auto& v) {
                             shift(v[1]);
                             shift(v[2]);
                           }});
    for (std::size_t s = 0; s < 3; ++s) {
      misreadings.push_back({HazardKind::position_offset,
                             std::string("the kernel rotates by the ") + names[s] + " ids " + by, off_by_one,
                             [shift, s](RotaryConvention&, auto& v) { shift(v[s]); }});
    }
  }
  misreadings.push_back(
      {HazardKind::layout_mismatch,
       std::string("the kernel splits the pairs among the three ids ") +
           (request.convention.mrope_interleaved ? "in runs (Qwen2-VL) where the convention interleaves them (Qwen3-VL)"
                                                 : "interleaved (Qwen3-VL) where the convention has runs (Qwen2-VL)"),
       "Qwen2-VL's apply_multimodal_rotary_pos_emb against Qwen3-VL's apply_interleaved_mrope",
       [](RotaryConvention& c, auto&) { c.mrope_interleaved = !c.mrope_interleaved; }});
  misreadings.push_back({HazardKind::layout_mismatch,
                         "the kernel rotates every pair by the temporal id: the M-RoPE sections are ignored",
                         "a text-only rotary path given M-RoPE ids", [temporal](RotaryConvention&, auto& v) {
                           v[1] = temporal;
                           v[2] = temporal;
                         }});

  for (const Misreading& m : misreadings) {
    RotaryConvention convention = request.convention;
    std::vector<std::vector<std::int64_t>> shifted = ids;
    m.apply(convention, shifted);
    const bool negative = std::any_of(shifted.begin(), shifted.end(), [](const auto& v) {
      return std::any_of(v.begin(), v.end(), [](std::int64_t p) { return p < 0; });
    });
    if (negative) continue;
    RotatedComparisonRequest trial = request;
    trial.values = &first;
    trial.row_position = &shifted[0];
    trial.mrope_position = &shifted;
    trial.convention = convention;
    trial.threads = 1;
    if (!conforms_somewhere(trial, angle_model)) continue;
    return Hazard{m.kind, m.what + ": under that reading the first " + std::to_string(rows) +
                              " rows conform (M-RoPE sections " + sections_text(request.convention) + "; " + m.source +
                              ")."};
  }
  return std::nullopt;
}

}  // namespace pecheck::validate

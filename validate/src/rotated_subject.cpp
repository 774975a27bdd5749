// Reading a rotated-output subject and finding its tokens: which axis is the
// sequence, and the position of every row of head_dim values.
#include <cmath>
#include <string>

#include "pecheck/parallel_for.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/rotated_output.hpp"

namespace pecheck::validate {

namespace {

constexpr std::int64_t position_limit = std::int64_t{1} << 24;

std::string names_of_formats() { return "sbhd, bshd, bhsd or thd"; }

// The sequence axis of a rank-`rank` tensor in `format`, or -1 when the
// format names another rank. (L, d) tensors have one candidate, axis 0.
std::int64_t format_axis(QkvFormat format, std::size_t rank) {
  switch (format) {
    case QkvFormat::sbhd:
      return rank == 4 ? 0 : -1;
    case QkvFormat::bshd:
      return rank == 4 ? 1 : -1;
    case QkvFormat::bhsd:
      return rank == 4 ? 2 : -1;
    case QkvFormat::thd:
      return rank == 3 ? 0 : -1;
  }
  return -1;
}

// POS as (sections, batch, length): (L,) and (1, L) are (1, 1, L); M-RoPE's
// (3, L) is (3, 1, L), and (3, B, L) gives each batch entry its own ids.
struct PositionShape {
  std::int64_t sections = 1;
  std::int64_t batch = 1;
  std::int64_t length = 0;
};

PositionShape position_shape(const RotatedSubject& s) {
  const NpyArray& pos = s.positions;
  PositionShape shape;
  if (pos.shape.size() >= 2 && pos.shape.front() == 3) {
    if (pos.shape.size() > 3) {
      throw ValidationInputError(s.positions_name + ": shape " + shape_text(pos.shape) +
                                 ": expected M-RoPE's (3, L) or (3, B, L) position ids, or (L,)");
    }
    shape.sections = 3;
    shape.batch = pos.shape.size() == 3 ? pos.shape[1] : 1;
    shape.length = pos.shape.back();
    return shape;
  }
  std::int64_t length = 1;
  int long_axes = 0;
  for (std::int64_t n : pos.shape) {
    length *= n;
    long_axes += n != 1;
  }
  if (long_axes > 1) {
    throw ValidationInputError(s.positions_name + ": shape " + shape_text(pos.shape) +
                               ": expected one position per token along the sequence axis, shape (L,) "
                               "(or M-RoPE's (3, L) or (3, B, L))");
  }
  shape.length = length;
  return shape;
}

std::vector<std::int64_t> read_positions(const RotatedSubject& s) {
  const NpyArray& pos = s.positions;
  const std::int64_t length = pos.size();
  std::vector<std::int64_t> out(static_cast<std::size_t>(length));
  for (std::int64_t k = 0; k < length; ++k) {
    std::int64_t p = 0;
    if (pos.integer) {
      p = pos.integers[static_cast<std::size_t>(k)];
    } else {
      const double v = pos.values[static_cast<std::size_t>(k)];
      if (!(v == std::floor(v)) || !(std::fabs(v) < 0x1p62)) {
        throw ValidationInputError(s.positions_name + ": entry " + std::to_string(k) + " is " + std::to_string(v) +
                                   ": expected whole positions");
      }
      p = static_cast<std::int64_t>(v);
    }
    if (p < 0 || p >= position_limit) {
      throw ValidationInputError(s.positions_name + ": entry " + std::to_string(k) + " is " + std::to_string(p) +
                                 ": expected positions in [0, 2^24)");
    }
    out[static_cast<std::size_t>(k)] = p;
  }
  return out;
}

}  // namespace

std::optional<QkvFormat> parse_qkv_format(std::string_view name) {
  if (name == "sbhd") return QkvFormat::sbhd;
  if (name == "bshd") return QkvFormat::bshd;
  if (name == "bhsd") return QkvFormat::bhsd;
  if (name == "thd") return QkvFormat::thd;
  return std::nullopt;
}

std::string_view to_string(QkvFormat format) {
  switch (format) {
    case QkvFormat::sbhd:
      return "sbhd";
    case QkvFormat::bshd:
      return "bshd";
    case QkvFormat::bhsd:
      return "bhsd";
    case QkvFormat::thd:
      return "thd";
  }
  return "?";
}

RotatedSubject read_rotated_subject(const std::filesystem::path& output, const std::filesystem::path& input,
                                    const std::filesystem::path& positions) {
  RotatedSubject s;
  // OUT and IN are read at once, one thread each: most of a read is the
  // kernel copying the file into fresh pages it first zeroes, on the reading
  // thread (one after the other, the two reads were a fifth of the command's
  // time on a (1, 8192, 32, 128) output). Each read's error is kept and the
  // first in the order they were read before is thrown, so the message
  // for two bad files is the same as before.
  both_at_once([&] { s.output = read_held_tensor(output); }, [&] { s.input = read_held_tensor(input); });
  s.positions = read_npy_array(positions);
  s.output_name = output.string();
  s.input_name = input.string();
  s.positions_name = positions.string();
  return s;
}

RotatedTokens resolve_tokens(const RotatedSubject& s, std::optional<QkvFormat> qkv_format) {
  const std::vector<std::int64_t>& shape = s.output.shape;
  if (shape != s.input.shape) {
    throw ValidationInputError(s.output_name + " has shape " + shape_text(shape) + ", " + s.input_name + " " +
                               shape_text(s.input.shape) + ": expected the same shape (the output of the input)");
  }
  if (shape.size() < 2 || shape.size() > 4) {
    throw ValidationInputError(s.output_name + ": shape " + shape_text(shape) +
                               ": expected (L, d), (L, H, d), (T, H, d) or a 4-axis " + names_of_formats() + " shape");
  }
  if (shape.back() < 2)
    throw ValidationInputError(s.output_name + ": the last axis (head_dim) has fewer than 2 entries");
  const std::vector<std::int64_t> positions = read_positions(s);
  const PositionShape pos_shape = position_shape(s);
  const std::int64_t length = pos_shape.length;
  RotatedTokens tokens;
  tokens.shape = shape;
  tokens.head_dim = shape.back();
  const std::size_t rank = shape.size();
  std::int64_t axis = -1;
  if (qkv_format) {
    axis = format_axis(*qkv_format, rank);
    if (axis < 0 && rank == 2) axis = 0;
    if (axis < 0) {
      throw ValidationInputError("--qkv-format " + std::string(to_string(*qkv_format)) + " names " +
                                 std::to_string(*qkv_format == QkvFormat::thd ? 3 : 4) + " axes; " + s.output_name +
                                 " has shape " + shape_text(shape));
    }
    if (shape[static_cast<std::size_t>(axis)] != length) {
      throw ValidationInputError("--qkv-format " + std::string(to_string(*qkv_format)) + ": axis " +
                                 std::to_string(axis) + " of " + s.output_name + " " + shape_text(shape) + " has " +
                                 std::to_string(shape[static_cast<std::size_t>(axis)]) + " entries, " +
                                 s.positions_name + " " + std::to_string(length) + " positions: expected the same");
    }
    tokens.sequence_axis_note = "named by --qkv-format " + std::string(to_string(*qkv_format));
  } else {
    std::vector<std::int64_t> candidates;
    for (std::size_t a = 0; a + 1 < rank; ++a) {
      if (shape[a] == length) candidates.push_back(static_cast<std::int64_t>(a));
    }
    if (candidates.empty()) {
      throw ValidationInputError(s.positions_name + " has " + std::to_string(length) + " positions and no axis of " +
                                 s.output_name + " " + shape_text(shape) +
                                 " but the last has that length: expected one position per token");
    }
    if (candidates.size() > 1) {
      std::string listed;
      for (std::int64_t a : candidates) listed += (listed.empty() ? "" : " and ") + std::to_string(a);
      throw ValidationInputError(s.positions_name + " has " + std::to_string(length) + " positions and axes " + listed +
                                 " of " + s.output_name + " " + shape_text(shape) + " all have " +
                                 std::to_string(length) + " entries: name the sequence axis with --qkv-format " +
                                 names_of_formats());
    }
    axis = candidates.front();
    tokens.sequence_axis_note = "the only axis of POS's length (" + std::to_string(length) + ")";
  }
  tokens.sequence_axis = axis;
  tokens.rows = 1;
  for (std::size_t a = 0; a + 1 < rank; ++a) tokens.rows *= shape[a];
  for (const auto& [tensor, name] : {std::pair{&s.output, &s.output_name}, std::pair{&s.input, &s.input_name}}) {
    if (tensor->values.rows() != tokens.rows || tensor->values.cols() != tokens.head_dim) {
      throw ValidationInputError(*name + ": " + std::to_string(tensor->values.rows()) + " rows of " +
                                 std::to_string(tensor->values.cols()) + " values for shape " + shape_text(shape) +
                                 ": expected its rows of the last axis");
    }
  }
  const auto inner_of = [&](std::int64_t a) {  // rows per step along axis a
    std::int64_t inner = 1;
    for (auto b = static_cast<std::size_t>(a) + 1; b + 1 < rank; ++b) inner *= shape[b];
    return inner;
  };
  const std::int64_t inner = inner_of(axis);
  // (3, B, L): the batch axis is the first other than the sequence axis
  // (bshd and bhsd: 0; sbhd: 1), and only a 4-axis tensor has one.
  std::int64_t batch_inner = 1;
  if (pos_shape.batch > 1) {
    const std::int64_t batch_axis = axis == 0 ? 1 : 0;
    if (rank != 4 || shape[static_cast<std::size_t>(batch_axis)] != pos_shape.batch) {
      throw ValidationInputError(s.positions_name + " has shape " + shape_text(s.positions.shape) +
                                 " (3, B = " + std::to_string(pos_shape.batch) + ", L) and " + s.output_name + " " +
                                 shape_text(shape) + ": expected a 4-axis output whose batch axis has B entries");
    }
    batch_inner = inner_of(batch_axis);
  }
  const auto id = [&](std::int64_t section, std::int64_t r) {
    const std::int64_t l = (r / inner) % length;
    const std::int64_t b = pos_shape.batch > 1 ? (r / batch_inner) % pos_shape.batch : 0;
    return positions[static_cast<std::size_t>((section * pos_shape.batch + b) * length + l)];
  };
  tokens.row_position.resize(static_cast<std::size_t>(tokens.rows));
  for (std::int64_t r = 0; r < tokens.rows; ++r) tokens.row_position[static_cast<std::size_t>(r)] = id(0, r);
  if (pos_shape.sections == 3) {
    tokens.mrope_position.assign(3, tokens.row_position);
    for (std::int64_t section = 1; section < 3; ++section) {
      for (std::int64_t r = 0; r < tokens.rows; ++r) {
        const std::int64_t p = id(section, r);
        tokens.mrope_position[static_cast<std::size_t>(section)][static_cast<std::size_t>(r)] = p;
        tokens.mrope_ids_differ = tokens.mrope_ids_differ || p != tokens.row_position[static_cast<std::size_t>(r)];
      }
    }
  }
  return tokens;
}

}  // namespace pecheck::validate

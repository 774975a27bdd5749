#include "pecheck/reports/file_validation.hpp"

#include <unistd.h>

#include <cstdio>
#include <functional>
#include <thread>

#include "pecheck/npy_array.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/reports/report_directory.hpp"
#include "pecheck/reports/validation_report.hpp"
#include "pecheck/rotary_cache_file.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "pecheck/validate/vocabulary.hpp"

namespace pecheck::reports {

namespace {

// What reading and validating a subject gives the common end of every kind.
struct Validated {
  validate::Validation validation;
  std::string name;  // the subject as the text and JSON name it
  Table values, sin;  // as compared (empty when the kind keeps its own, as an input layer)
  // A rotated output: its files as read (the views below point into them) and each row's position.
  std::optional<validate::RotatedSubject> rotated;
  std::vector<std::int64_t> row_position;
  std::vector<std::vector<std::int64_t>> mrope_position;
  ValidatedValues handles() const {
    ValidatedValues v;
    if (values.rows > 0) v.table = &values;
    if (sin.rows > 0) v.sin = &sin;
    if (rotated) {
      v.rotated_input = rotated->input.values;
      v.rotated_output = rotated->output.values;
      v.row_position = row_position;
      v.mrope_position = mrope_position;
    }
    return v;
  }
};

// The one way every kind ends: the report directory (locked, cleaned and
// proven writable before the subject is read, so a long comparison never
// ends in an unwritable directory), the text or JSON, the exit status.
int finish(const ValidationOutput& output, std::ostream& out, const std::function<Validated()>& validate_subject,
           const std::string& model = "") {
  std::optional<ReportDirectory> directory;
  if (!output.output_dir.empty()) directory.emplace(output.output_dir);
  const Validated done = validate_subject();
  if (directory) {
    ValidatedValues values = done.handles();
    values.model = model;
    write_validation_report(directory->staging(), done.validation, done.name, values, output.reproduce);
    directory->commit();
  }
  out << (output.json ? validate::validation_json(done.validation, done.name)
                      : validate::validation_text(done.validation, done.name));
  return done.validation.verdict == validate::ValidationVerdict::conforms ? 0 : 1;
}

// "\r... n/N rows" on stderr while the reference runs, only on a terminal.
std::function<void(std::int64_t, std::int64_t)> terminal_progress() {
  if (::isatty(STDERR_FILENO) == 0) return {};
  return [](std::int64_t done, std::int64_t total) {
    std::fprintf(stderr, "\rpecheck validate: reference %lld/%lld rows", static_cast<long long>(done),
                 static_cast<long long>(total));
    if (done == total) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  };
}

}  // namespace

int validate_table_file(const TableFileRequest& request, const ValidationOutput& output, std::ostream& out) {
  if (request.tensor && table_file_kind(request.file) == TableFileKind::npy) {
    throw ConventionError("validate: --tensor applies only to a .safetensors file; " + request.file +
                          " is .npy (one array)");
  }
  return finish(output, out, [&] {
    // The oracle's constants are built on a second thread while this one
    // reads the file, a core that would otherwise wait (3 ms of a 100 ms run
    // on a 128 MiB table). A failure there is left for the comparison to meet.
    std::jthread constants([] {
      try {
        reference::prepare_constants();
      } catch (...) {
      }
    });
    // validate compares at most 2^24 rows: a longer table is refused from its
    // header, before its payload is read.
    TableFile file = read_table_file(request.file, request.tensor, position_table_rows);
    validate::ValidationOptions options = request.options;
    if (!options.progress) options.progress = terminal_progress();
    options.histograms = !output.output_dir.empty();  // the report's alone
    Validated done;
    try {
      done.validation = validate::validate_table(file.table, options);
    } catch (const validate::ValidationInputError& e) {
      throw ConventionError(request.file + ": " + e.what());
    }
    // A (N, 1, d), (1, N, d) or (1, 1, N, d) buffer: say what was read.
    if (!file.info.shape_note.empty()) done.validation.notes.insert(done.validation.notes.begin(), file.info.shape_note);
    done.name = request.file;
    done.values = std::move(file.table);
    done.values.format = done.validation.table().compared_format;  // the values are those of the format compared
    return done;
  });
}

int validate_rotary_files(const RotaryFileRequest& request, const ValidationOutput& output, std::ostream& out) {
  return finish(
      output, out,
      [&] {
        Table cos, sin;
        validate::RotaryReadPass read_pass;
        if (request.sin.empty()) {
          try {
            RotaryCache cache = read_combined_rotary_cache(request.cos);
            cos = std::move(cache.cos);
            sin = std::move(cache.sin);
          } catch (const TableFileError& e) {
            throw ConventionError(std::string(e.what()) + " (or give the sin table with --sin)");
          }
        } else {
          // Both files at once, as the rotated subject's (most of a read is
          // the kernel zeroing fresh pages and copying the file into them),
          // each scanned as it is read.
          both_at_once(
              [&] {
                cos = read_table_file(request.cos, std::nullopt, position_table_rows, read_pass.cos_rows()).table;
              },
              [&] {
                sin = read_table_file(request.sin, std::nullopt, position_table_rows, read_pass.sin_rows()).table;
              });
        }
        Validated done;
        // The histograms are the report's alone: without one, not counted.
        validate::RotaryValidationOptions options = request.options;
        options.histograms = !output.output_dir.empty();
        try {
          done.validation = validate::validate_rotary_cache(cos, sin, options, &read_pass);
        } catch (const validate::ValidationInputError& e) {
          throw ConventionError(request.cos + (request.sin.empty() ? "" : " and " + request.sin) + ": " + e.what());
        }
        done.name = request.cos + (request.sin.empty() ? "" : " + " + request.sin);
        // The values as compared (a float32 file of bfloat16 values is a bfloat16 cache).
        // Moved when already in that format: a copy would double the peak memory.
        const FormatId format = done.validation.rotary().format;
        done.values = cos.format == format ? std::move(cos) : convert_table(cos.view(), format);
        done.sin = sin.format == format ? std::move(sin) : convert_table(sin.view(), format);
        return done;
      },
      request.options.model);
}

int validate_input_layer_files(const InputLayerRequest& request, const ValidationOutput& output, std::ostream& out) {
  return finish(output, out, [&] {
    // OUTPUT and VOCAB read into storage of their own format, then validated in place.
    const validate::InputLayerFiles files =
        validate::read_input_layer_files(request.output, request.vocabulary, request.ids, request.positions);
    Validated done;
    done.validation = validate::validate_input_layer(files, request.options);
    done.name = request.output;
    return done;
  });
}

int validate_rotated_files(const RotatedFileRequest& request, const ValidationOutput& output, std::ostream& out) {
  const bool report = !output.output_dir.empty();
  return finish(output, out, [&] {
    validate::RotatedSubject subject = validate::read_rotated_subject(request.output, request.input, request.positions);
    Validated done;
    try {
      done.validation = validate::validate_rotated_output(subject, request.options);
      // The report's checks ask the files for their rows at their positions
      // (the tables are shared, not copied).
      if (report) {
        validate::RotatedTokens tokens = validate::resolve_tokens(subject, request.options.qkv_format);
        done.row_position = std::move(tokens.row_position);
        if (tokens.mrope_ids_differ) done.mrope_position = std::move(tokens.mrope_position);
      }
    } catch (const validate::ValidationInputError& e) {
      throw ConventionError(request.output + ": " + e.what());
    }
    done.name = request.output;
    if (report) done.rotated = std::move(subject);
    return done;
  });
}

int measure_vocabulary_file(const VocabularyRequest& request, bool json, std::ostream& out) {
  validate::VocabularyResult result;
  try {
    result = validate::measure_vocabulary(read_npy_array(request.vocabulary), request.vocabulary, request.convention,
                                          request.scale, request.context);
  } catch (const validate::ValidationInputError& e) {
    throw ConventionError(e.what());
  }
  out << (json ? validate::vocabulary_json(result, request.vocabulary)
               : validate::vocabulary_text(result, request.vocabulary));
  return 0;
}

}  // namespace pecheck::reports

// A RoPE kernel as an external command (any language, any framework):
// pecheck writes its input IN.npy and the positions POS.npy, the command
// writes the rotated output OUT.npy, over the two protocols of the table
// commands (external_subjects.hpp).
//
// one-shot (the default): each call runs /bin/sh -c COMMAND with {input},
// {positions}, {output} and {dtype} replaced (shell-quoted, as for tables),
// in a fresh temporary directory holding in.npy and pos.npy; the command
// writes {output} (out.npy) there. The call ends when the shell exits.
//
// lines: COMMAND starts once and answers one request line each,
//   DTYPE INPUT POSITIONS OUTPUT
// (absolute paths in a fresh temporary directory, separated by single
// spaces: a directory whose path holds a space or a newline is refused) with
// one line on stdout, "ok" once OUTPUT is written, or "error MESSAGE".
//
// IN is (L, H, d) or (B, L, H, d) in the call's dtype (bfloat16 written as
// float32 holding bfloat16 values, as NumPy has no bfloat16), POS (L,)
// int64: the position of each token along L. OUT must have IN's shape and
// values of the dtype (as stored, or float32 holding them for bfloat16).
// A call that fails, times out, writes no file, or a file of another shape
// or format is a CommandFailedError or SubjectError naming the call and what
// it printed; after one timeout the command is not called again.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pecheck/external_subjects.hpp"
#include "pecheck/npy_tensor.hpp"

namespace pecheck {

struct RotatedCommandOptions {
  std::string command_template;
  CommandProtocol protocol = CommandProtocol::one_shot;
  std::chrono::milliseconds timeout{60'000};
};

class RotatedCommand {
 public:
  explicit RotatedCommand(RotatedCommandOptions options);
  ~RotatedCommand();
  RotatedCommand(const RotatedCommand&) = delete;
  RotatedCommand& operator=(const RotatedCommand&) = delete;

  // One call: `input` (rows of the last axis of `shape`) in `format`, and
  // `positions`; returns OUT as read (typed, npy_tensor.hpp).
  NpyTensor rotate(const TableView& input, const std::vector<std::int64_t>& shape,
                   std::span<const std::int64_t> positions, FormatId format);
  // The command line of the last call, as a user can repeat it (the files
  // named as in.npy, pos.npy and out.npy).
  const std::string& last_call() const { return last_call_; }

 private:
  struct Process;
  RotatedCommandOptions options_;
  std::unique_ptr<Process> process_;
  std::string timed_out_;  // "did not finish within N ms" once a call has
  std::string last_call_;
};

}  // namespace pecheck

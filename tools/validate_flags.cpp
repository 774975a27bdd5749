#include "validate_flags.hpp"

#include "cli_options.hpp"

namespace pecheck::tools {

void add_validate_flags(CLI::App& command, reports::ValidateArguments& flags) {
  command.add_option("--input", flags.input,
                     "Rotated outputs: FILE is a RoPE kernel's output (queries or keys, .npy), this its input of the\n"
                     "same shape, --positions POS.npy the position of each token (M-RoPE: the temporal, height and\n"
                     "width ids, (3, L) or (3, B, L)); --rope/--config name the convention (or it is read from the\n"
                     "data), --layout the pairing expected");
  command.add_option("--qkv-format", flags.qkv_format,
                     "Rotated outputs: the axes of OUT and IN when POS's length fits several (sbhd, bshd, bhsd, thd)")
      ->check(CLI::IsMember({"sbhd", "bshd", "bhsd", "thd"}));
  command.add_option("FILE", flags.file, "The table: .npy or .safetensors");
  command.add_option("--tensor", flags.tensor, "The tensor to read from a .safetensors file with several");
  command.add_option("--convention", flags.convention, "A preset name, or auto (detect)")->capture_default_str();
  command.add_option("--offset", flags.offset, "File row 0 holds the convention's row K, or auto (detect)")
      ->capture_default_str();
  command.add_option("--max-ulp", flags.max_ulp,
                      "Largest ULP error allowed (default: pecheck's third-party budget for the format)")
      ->check(finite_number_at_least(0));
  command.add_option("--max-abs-error", flags.max_abs_error,
                      "Largest absolute error allowed; alone it replaces the ULP criterion, with --max-ulp both hold")
      ->check(finite_number_at_least(0));
  command
      .add_option("--atol", flags.atol,
                  "torch.testing.assert_close's criterion against the exact values: an entry passes when\n"
                  "|a - e| <= atol + rtol * |e| (e exact); the count beyond is printed beside the ULP figures.\n"
                  "Replaces the ULP budget and the float64-angle bound (with --max-ulp, an entry passes by either)")
      ->check(finite_number_at_least(0));
  command.add_option("--rtol", flags.rtol, "The relative part of --atol's criterion (default 0 when --atol is given)")
      ->check(finite_number_at_least(0));
  command.add_option("--dtype", flags.dtype, "Compare as this format (default: the narrowest holding every value)")
      ->check(CLI::IsMember({"float64", "float32", "float16", "bfloat16"}));
  command.add_option("--sample", flags.sample,
                      "Compare only N rows with the reference, chosen deterministically (the worst rows the fast\n"
                      "scan finds first); the verdict says it was sampled. Default: every entry")
      ->transform(whole_number_at_least(1));
  command.add_flag("--full", flags.full, "Compare every entry (the default; accepted for old scripts)");
  command.add_flag("--ulp-only", flags.ulp_only,
                    "Hold every entry to the ULP budget alone: no entry passes by the float64-angle bound (the\n"
                    "error an ordinary float64 computation of the angle p * w can have, near the zeros of sin)");
  command.add_flag("--json", flags.json, "Print one JSON object on stdout");
  command.add_option("--output-dir", flags.output_dir, "Also write the result to DIR: validation.json and .txt, and the HTML/Markdown/JSON/JUnit report of the checks on the file\n"
                      "(rotary caches: the comparison, the diagnosis and the rotary checks on the rows the files hold; a rotated output, and each call of --kernel --exec: the comparison, the diagnosis and the checks on rotated outputs)\n"
                      "(with --vocabulary/--ids: input_layer.json and .txt, and validation.json and .txt of the recovered encoding)");

  command.add_option(
      "--exec", flags.exec.command,
      "Check an external command instead of a file: {rows} {dim} {offset} {dtype} {output} are "
      "replaced, shell-quoted by pecheck (write them unquoted; '{output}' or \"{output}\" lose their "
      "quotes); it must write a .npy table to {output}. The template must hold {rows} {dim} "
      "{offset} {output} ({dtype} too with several --exec-dtype). --convention NAME names its convention (else it is detected "
      "from the first call, a small one), or for a rotary "
      "cache producer --rope PRESET or --config (then {dim} is the rotary width d and {output} gets a "
      "(2, rows, d) array, cos then sin)");
  command
      .add_option("--exec-protocol", flags.exec.protocol,
                  "--exec: one-shot runs the template once per table; lines starts the command once and sends it one "
                  "request line per table (ROWS DIM OFFSET DTYPE OUTPUT on its stdin; it answers 'ok' or "
                  "'error MESSAGE' on its stdout), so a framework loads once")
      ->check(CLI::IsMember({"one-shot", "lines"}))
      ->capture_default_str();
  command.add_option("--timeout", flags.exec.timeout_seconds, "--exec: seconds one call may take")
      ->check(finite_number_at_least(0, true))
      ->capture_default_str();
  command.add_option("--exec-dtype", flags.exec.dtypes, "--exec: formats the command can write (default float32)")
      ->check(CLI::IsMember({"float64", "float32", "float16", "bfloat16"}));
  command.add_option("--check", flags.exec.checks, "--exec: run only these check ids (see pecheck check --list)");
  command.add_option("--cases", flags.exec.cases, "--exec: generated cases per property")
      ->transform(whole_number_at_least(1))
      ->capture_default_str();
  command
      .add_option("--seed", flags.exec.seed, "--exec: seed for generated cases, decimal or 0x hex (RC_PARAMS overrides)")
      ->transform(seed_number())
      ->each([&flags](const std::string&) { flags.exec.seed_given = true; });
  command.add_flag("--quick", flags.exec.quick, "--exec: smaller conformance sweeps");
  command
      .add_option("--max-position", flags.exec.max_position,
                  "--exec: the model's length N: every position asked for is below N (default: a rotary\n"
                  "convention's max_position_embeddings; with --kernel, that times its scaling factor; 2^24\n"
                  "for an additive one, which names no length)")
      ->check(CLI::Range(std::int64_t{1}, max_exact_position));
  command
      .add_option("--dim", flags.exec.dim,
                  "--exec: the model's width D: no table wider than D is asked for (default: widths up to 4096;\n"
                  "a rotary producer is asked for its convention's rotary width)")
      ->check(CLI::Range(std::int64_t{1}, max_dim));
  command
      .add_option("--memory-limit", flags.exec.memory_limit_mib,
                  "--exec: MiB of address space each call of the command may use (RLIMIT_AS set in the\n"
                  "command's process; with --exec-protocol lines, the one process). A call that runs out of\n"
                  "it, or past --timeout, stops the run with exit 2 naming the call. Default: half the\n"
                  "machine's memory (or of ulimit -v)")
      ->check(finite_number_at_least(1));
  command.add_flag("--kernel", flags.kernel,
                   "--exec runs a RoPE kernel (with --rope or --config): pecheck writes {input} (IN.npy, (L, H, d) or "
                   "(B, L, H, d)) and {positions} (POS.npy, (L,) int64), the command writes the rotated {output} "
                   "(OUT.npy, IN's shape) in {dtype}; lines protocol: DTYPE INPUT POSITIONS OUTPUT per request");

  command.add_option("--sin", flags.sin, "Rotary caches: FILE is the cos table and this the sin table (.npy or .safetensors)");
  command.add_option("--config", flags.config,
                     "Rotary caches: the model's Hugging Face config.json (rope_theta, rope_scaling, head_dim, "
                     "partial_rotary_factor)");
  command.add_option("--layer-type", flags.layer_type,
                     "Rotary caches with --config: the layer type whose rule to check (full_attention, "
                     "sliding_attention, ...; default: every rule the config has, and the one the cache follows is "
                     "said)");
  command
      .add_option("--softmax-scale", flags.softmax_scale,
                  "Rotary caches with --config or --rope: the attention softmax scale your engine uses, held to the "
                  "one the config derives (d_qk^-1/2, times get_mscale(factor, mscale_all_dim)^2 for DeepSeek's YaRN)")
      ->check(finite_number_at_least(0, true));
  command.add_option("--rope", flags.rope, "Rotary caches: a rotary preset, or auto (detect from the cache)");
  command.add_option("--model", flags.model,
                     "Rotary caches: the computation model compared beside the exact encoding")
      ->capture_default_str();
  command.add_option("--layout", flags.layout, "Rotary caches: rotate-half, interleaved or complex (config.json does not say)");
  command.add_option("--sequence-length", flags.sequence_length,
                     "Rotary caches: dynamic NTK's current length and LongRoPE's choice of factors")
      ->transform(whole_number_at_least(0));

  command.add_option("--vocabulary", flags.vocabulary,
                     "With --ids: FILE is an input layer's output x = s E[id] + PE[pos] ((B, L, d) or (B*L, d) .npy),\n"
                     "VOCAB the (V, d) embedding table E. The scale s is measured from tokens at the same\n"
                     "position (their difference is s (E[a] - E[b]), whatever PE is) and named against sqrt(d):\n"
                     "missing, applied twice, divided, rounded to bfloat16/float16; then PE = x - s E[id] is\n"
                     "validated as a table. Needs at least two sequences whose ids differ at the same positions, or\n"
                     "--convention NAME: then s is fitted against that convention's encoding");
  command.add_option("--ids", flags.ids, "The (B, L) or (L,) integer token ids (.npy int32/int64), with --vocabulary");
  command.add_option("--positions", flags.positions,
                     "The positions of the tokens (.npy integers, as --ids or (L,)); default 0..L-1 in each sequence");
  command
      .add_option("--scale", flags.scale,
                  "With --vocabulary alone (no FILE, no --ids): the embedding scale s (default sqrt(d)). Prints the\n"
                  "report's input-layer statistics of the table s*E against --convention NAME over positions\n"
                  "0..P-1 (--context): energy ratio to the encoding, share in the encoding's 99% subspace, and the\n"
                  "shares of the first-layer logit variance at initialisation; observations, exit 0")
      ->check(finite_number_at_least(0, true));
  command
      .add_option("--context", flags.context,
                  "With --vocabulary alone: the context length P, the encoding's positions 0..P-1 the statistics\n"
                  "are measured against (default 512, the paper's base model; the subspace a token shares with\n"
                  "the encoding grows with P)")
      ->check(CLI::Range(std::int64_t{2}, std::int64_t{1} << 24));
}

}  // namespace pecheck::tools

// The -o OUTDIR check made before a run writes anything: the folder exists (created if needed) and
// a file can be created in it; otherwise the command line is unusable (exit 64: a usage error, not a bad deck).
#pragma once

#include <string>

namespace kirchhoff::io {

/// Creates `dir` (and its parents) if needed and probes that a file can be created in it.
/// Returns "" if usable, else the reason ("cannot create output folder X: ...").
std::string prepareOutputFolder(const std::string& dir);

}  // namespace kirchhoff::io

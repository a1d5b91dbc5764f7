// Output files are never written through symbolic links, docs/running.md "One run per output folder":
// a link in OUTDIR where kirchhoff writes is refused, files are created with O_NOFOLLOW.
#pragma once

#include <cstdio>
#include <string>

namespace kirchhoff::io {

/// "" if `path` is not a symbolic link (or does not exist), else "PATH is a symbolic link (to
/// TARGET): kirchhoff never writes through links in its output folder; remove it".
std::string linkProblem(const std::string& path);
/// Throws Error(`code`) with linkProblem(path) if `path` is a symbolic link.
void refuseLink(const std::string& path, int code);
/// The first link among the files and folders kirchhoff writes in the output folder `dir`
/// (invariants.h5*, snapshots*, summary.json*, flowfield*, sweep_summary.md*, checkpoints and
/// the files in it), as linkProblem() says it; "" if there is none.
std::string linkedOutput(const std::string& dir);
/// fopen(path, "w") that refuses a symbolic link (O_NOFOLLOW); nullptr with errno on failure.
std::FILE* createNoFollow(const std::string& path);

}  // namespace kirchhoff::io

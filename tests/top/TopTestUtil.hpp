// Helpers shared by the top tests: a generic (non-integrable) heavy top, random points of the
// collective space C^4 = R^8 (docs/heavytop.md, Ohsawa 2019 Sec. 2), the source folder of the decks.
#pragma once

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "models/top/CollectiveMap.hpp"
#include "models/top/HeavyTop.hpp"

namespace kirchhoff::top::test {

/// A heavy top with distinct moments of inertia and an off-axis centre of mass (|c| = 1).
inline HeavyTopParameters genericTop() {
  HeavyTopParameters p;
  p.inertia = Vec3(1.3, 2.1, 0.7);
  p.c = Vec3(0.3, -0.4, std::sqrt(0.75));
  p.mgl = 0.8;
  return p;
}

/// A point of R^8 with coordinates uniform in [-1.5, 1.5].
inline Vec8 randomZ(std::mt19937& g) {
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  Vec8 z;
  for (int i = 0; i < 8; ++i) z[i] = u(g);
  return z;
}

/// The repository's root ($KIRCHHOFF_SOURCE_DIR under ctest, else from this file's path).
inline std::string sourceDir() {
  if (const char* d = std::getenv("KIRCHHOFF_SOURCE_DIR")) return d;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().string();
}

}  // namespace kirchhoff::top::test

// Cost per trajectory snapshot (docs/output.md "Snapshots"): io::SnapshotWriter appends a
// fluidbody-like frame (a 64-gon body, its centre, 4 vortices, velocities) 10^5 times into one
// snapshots.h5 with its XDMF indexes; at 10^2, 10^3, 10^4 and 10^5 frames it flushes (as a run
// ends) and prints the mean cost per snapshot of a run of that many snapshots (writes and
// flushes so far, divided by the count) and its ratio to the first (flat = O(1) per snapshot).
//   bench_io [OUTDIR] [--snapshots N]        (default /tmp/kirchhoff_bench_io, N = 100000)
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "io/SnapshotWriter.hpp"

using namespace kirchhoff;

namespace {

Snapshot frame(double t) {
  Snapshot s;
  SnapshotMesh b;
  b.name = "bodies";
  b.topology = SnapshotMesh::Topology::Polygon;
  std::vector<double> id, v;
  for (int k = 0; k < 64; ++k) {
    const double a = 2 * M_PI * k / 64 + t;
    b.coordinates.insert(b.coordinates.end(), {std::cos(a), std::sin(a)});
    v.insert(v.end(), {-std::sin(a), std::cos(a)});
    id.push_back(0);
  }
  b.cellSizes = {64};
  b.cellNames = {"disk"};
  b.attributes.emplace_back("body", id);
  b.vectors.emplace_back("velocity", v);
  s.meshes.push_back(b);
  SnapshotMesh c;
  c.name = "centres";
  c.coordinates = {0.0, 0.0};
  c.attributes = {{"body", {0.0}}, {"theta", {t}}, {"omega", {1.0}}};
  c.vectors.emplace_back("velocity", std::vector<double>{0.0, 0.0});
  s.meshes.push_back(c);
  SnapshotMesh w;
  w.name = "vortices";
  std::vector<double> ids, K, u;
  for (int i = 0; i < 4; ++i) {
    w.coordinates.insert(w.coordinates.end(), {2.0 * std::cos(t + i), 2.0 * std::sin(t + i)});
    ids.push_back(i);
    K.push_back(1.0);
    u.insert(u.end(), {0.1, 0.2});
  }
  w.attributes = {{"id", ids}, {"circulation", K}};
  w.vectors.emplace_back("velocity", u);
  s.meshes.push_back(w);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp/kirchhoff_bench_io";
  long n = 100000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--snapshots") && i + 1 < argc) n = std::atol(argv[++i]);
    else dir = argv[i];
  }
  std::filesystem::create_directories(dir);
  io::SnapshotWriter w(dir + "/snapshots.h5", dir + "/snapshots", -1, {{"model", "fluidbody"}});
  using clock = std::chrono::steady_clock;
  auto cpu = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  // Wall time includes the disk (and other jobs on a shared machine); CPU time (user + system)
  // is what the writer itself spends.
  std::printf("snapshot cost (bodies 64 points, centres 1, vortices 4; file %s)\n", (dir + "/snapshots.h5").c_str());
  std::printf("%12s %14s %8s %14s %8s\n", "snapshots", "wall us/snap", "ratio", "cpu us/snap", "ratio");
  double wall = 0.0, cpuTotal = 0.0, first = 0.0, firstCpu = 0.0;
  long mark = 100;
  for (long k = 0; k < n; ++k) {
    const Snapshot s = frame(0.01 * k);
    const auto t0 = clock::now();
    const double c0 = cpu();
    w.write(k, 0.01 * k, s);
    if (k + 1 == mark) w.flush();  // the end of a run of `mark` snapshots
    cpuTotal += cpu() - c0;
    wall += std::chrono::duration<double>(clock::now() - t0).count();
    if (k + 1 == mark) {
      const double us = 1e6 * wall / static_cast<double>(mark), cus = 1e6 * cpuTotal / static_cast<double>(mark);
      if (first == 0.0) first = us, firstCpu = cus;
      std::printf("%12ld %14.1f %8.2f %14.1f %8.2f\n", mark, us, us / first, cus, cus / firstCpu);
      std::fflush(stdout);
      mark *= 10;
    }
  }
  return 0;
}

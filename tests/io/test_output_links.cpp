// Symbolic links in an output folder (docs/running.md "One run per output folder"): kirchhoff
// refuses them where it writes and never writes through them. Every planted link points at a
// scratch file of the test's own folder, whose contents must survive unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/Error.hpp"
#include "core/Mpi.hpp"
#include "io/Hdf5.hpp"
#include "io/NoFollow.hpp"
#include "io/OutdirLock.hpp"

using namespace kirchhoff;
using namespace kirchhoff::io;
namespace fs = std::filesystem;

namespace {

/// A fresh folder with a scratch file "victim" (contents "precious") and OUT/ inside.
std::string scene(const std::string& name) {
  const std::string d = fs::absolute("tmp_links_" + name + "_" + std::to_string(rankOf(MPI_COMM_WORLD))).string();
  fs::remove_all(d);
  fs::create_directories(d + "/OUT");
  std::ofstream(d + "/victim") << "precious";
  return d;
}

std::string fileContents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(OutputLinks, LinkProblemNamesTheLinkAndItsTarget) {
  const std::string d = scene("problem");
  fs::create_symlink(d + "/victim", d + "/OUT/summary.json");
  EXPECT_EQ(linkProblem(d + "/victim"), "");
  EXPECT_EQ(linkProblem(d + "/OUT/absent"), "");
  const std::string why = linkProblem(d + "/OUT/summary.json");
  EXPECT_NE(why.find("OUT/summary.json is a symbolic link (to " + d + "/victim)"), std::string::npos) << why;
  EXPECT_NE(why.find("never writes through links"), std::string::npos) << why;
}

TEST(OutputLinks, ScanFindsLinksAmongOutputNamesOnly) {
  const std::string d = scene("scan");
  fs::create_symlink(d + "/victim", d + "/OUT/deck.yaml");  // the user's own link: not ours to refuse
  EXPECT_EQ(linkedOutput(d + "/OUT"), "");
  for (const char* name : {"invariants.h5", "invariants.h5.ckpt", "snapshots.h5", "snapshots_bodies.xmf",
                           "summary.json.tmp", "sweep_summary.md", "checkpoints"}) {
    fs::create_symlink(d + "/victim", d + "/OUT/" + name);
    EXPECT_NE(linkedOutput(d + "/OUT").find(std::string("OUT/") + name + " is a symbolic link"), std::string::npos)
        << name;
    fs::remove(d + "/OUT/" + name);
  }
  fs::create_directories(d + "/OUT/checkpoints");
  fs::create_symlink(d + "/victim", d + "/OUT/checkpoints/checkpoint_0000000010.h5");
  EXPECT_NE(linkedOutput(d + "/OUT").find("checkpoint_0000000010.h5 is a symbolic link"), std::string::npos);
  EXPECT_EQ(fileContents(d + "/victim"), "precious");
}

TEST(OutputLinks, Hdf5OutputsAndPlainFilesRefuseLinks) {
  const std::string d = scene("hdf5");
  fs::create_symlink(d + "/victim", d + "/OUT/snapshots.h5");
  EXPECT_THROW(h5::Handle(h5::createOutput(d + "/OUT/snapshots.h5", false)), Error);
  EXPECT_THROW(h5::Handle(h5::openOutput(d + "/OUT/snapshots.h5", H5F_ACC_RDWR)), Error);
  fs::create_symlink(d + "/victim", d + "/OUT/snapshots_bodies.xmf");
  EXPECT_EQ(createNoFollow(d + "/OUT/snapshots_bodies.xmf"), nullptr);
  EXPECT_EQ(fileContents(d + "/victim"), "precious");
  EXPECT_TRUE(fs::is_symlink(d + "/OUT/snapshots.h5"));
  // A plain file of that name is replaced by a new one (a reader of the old file keeps it).
  std::ofstream(d + "/OUT/invariants.h5") << "old";
  { h5::Handle f(h5::createOutput(d + "/OUT/invariants.h5", true)); }
  EXPECT_GT(fs::file_size(d + "/OUT/invariants.h5"), 3u);
}

TEST(OutputLinks, LockFileLinkIsRefusedWithExit64) {
  const std::string d = scene("lock");
  fs::create_symlink(d + "/victim", d + "/OUT/.kirchhoff.lock");
  OutdirLock lock;
  std::string warning;
  try {
    lock.acquire(d + "/OUT", &warning);
    FAIL() << "a linked lock file was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exitCode(), kExitUsage);
    EXPECT_NE(std::string(e.what()).find(".kirchhoff.lock is a symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(lock.held());
  EXPECT_EQ(fileContents(d + "/victim"), "precious");
}

// The output-folder lock (docs/running.md "One run per output folder"): the holder's identity in
// the file, emptied on release; a live holder on another host (fresh heartbeat) refused with its
// name; a stale one (old heartbeat, or a dead pid on this host) taken over with a warning.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/Error.hpp"
#include "core/Mpi.hpp"
#include "io/OutdirLock.hpp"

using namespace kirchhoff;
using namespace kirchhoff::io;
namespace fs = std::filesystem;

namespace {

std::string dir(const std::string& name) {
  const std::string d = "tmp_lock_" + name + "_" + std::to_string(rankOf(MPI_COMM_WORLD));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeHolder(const std::string& d, const std::string& host, long pid, long long heartbeat) {
  std::ofstream(d + "/.kirchhoff.lock") << "host=" << host << "\npid=" << pid
                                        << "\njob=4242\nstarted=2026-01-01T00:00:00Z\nheartbeat="
                                        << heartbeat << " x\n";
}

}  // namespace

TEST(OutdirLock, HolderIsNamedInTheFileAndReleaseEmptiesIt) {
  const std::string d = dir("fresh");
  OutdirLock lock;
  std::string warning;
  lock.acquire(d, &warning);
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_TRUE(lock.held());
  const std::string text = contents(d + "/.kirchhoff.lock");
  EXPECT_NE(text.find("pid=" + std::to_string(::getpid()) + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("heartbeat="), std::string::npos) << text;
  lock.release();
  EXPECT_EQ(contents(d + "/.kirchhoff.lock"), "");
}

TEST(OutdirLock, FreshHeartbeatOfAnotherHostIsRefusedNamingIt) {
  const std::string d = dir("otherhost");
  writeHolder(d, "elsewhere.example", 17, static_cast<long long>(std::time(nullptr)));
  OutdirLock lock;
  try {
    lock.acquire(d, nullptr);
    FAIL() << "a live holder on another host was not refused";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another kirchhoff run (host elsewhere.example, pid 17, job 4242"),
              std::string::npos) << e.what();
  }
  EXPECT_FALSE(lock.held());
}

TEST(OutdirLock, OldHeartbeatOfAnotherHostIsTakenOver) {
  const std::string d = dir("stalehost");
  writeHolder(d, "elsewhere.example", 17, static_cast<long long>(std::time(nullptr)) - 3600);
  OutdirLock lock;
  std::string warning;
  lock.acquire(d, &warning);
  EXPECT_TRUE(lock.held());
  EXPECT_NE(warning.find("taking over the stale lock"), std::string::npos) << warning;
  EXPECT_NE(warning.find("host elsewhere.example, pid 17"), std::string::npos) << warning;
}

TEST(OutdirLock, DeadPidOnThisHostIsTakenOver) {
  const std::string d = dir("deadpid");
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);  // a pid that existed and is gone
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  writeHolder(d, host, child, static_cast<long long>(std::time(nullptr)));
  OutdirLock lock;
  std::string warning;
  lock.acquire(d, &warning);
  EXPECT_TRUE(lock.held());
  EXPECT_NE(warning.find("pid " + std::to_string(child)), std::string::npos) << warning;
}

TEST(OutdirLock, UnwritableFolderIsAUsageError) {
  OutdirLock lock;
  EXPECT_THROW(lock.acquire("/nonexistent-kirchhoff-folder/sub", nullptr), UsageError);
}

// The output-folder lock: an fcntl write lock on OUTDIR/.kirchhoff.lock (released by the kernel
// when the holder dies) plus the holder's identity and a heartbeat in the file (docs/running.md).
#include "io/OutdirLock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>
#include <thread>

#include "core/Error.hpp"
#include "io/NoFollow.hpp"

namespace kirchhoff::io {

namespace {

std::string hostName() {
  char b[256] = {};
  if (::gethostname(b, sizeof b - 1) != 0) return "unknown-host";
  return b;
}

std::string jobId() {
  for (const char* v : {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID"})
    if (const char* s = std::getenv(v); s && *s) return s;
  return "-";
}

std::string isoTime(std::time_t t) {
  char b[32];
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

std::string readAll(int fd) {
  std::string s;
  char b[512];
  off_t off = 0;
  for (;;) {
    const ssize_t n = ::pread(fd, b, sizeof b, off);
    if (n <= 0) break;
    s.append(b, static_cast<std::size_t>(n));
    off += n;
    if (s.size() > 4096) break;  // a lock file is a few lines; anything longer is not ours
  }
  return s;
}

LockHolder parse(const std::string& text) {
  LockHolder h;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string k = line.substr(0, eq), v = line.substr(eq + 1);
    if (k == "host") h.host = v;
    else if (k == "pid") h.pid = v;
    else if (k == "job") h.job = v;
    else if (k == "started") h.started = v;
    else if (k == "heartbeat") h.heartbeat = v;
  }
  return h;
}

/// Seconds since the holder's last heartbeat (a large number if unknown).
double heartbeatAge(const LockHolder& h) {
  const long long t = std::atoll(h.heartbeat.c_str());
  if (t <= 0) return 1e300;
  return static_cast<double>(std::time(nullptr) - t);
}

bool pidAlive(const std::string& pid) {
  const long p = std::atol(pid.c_str());
  if (p <= 0) return false;
  return ::kill(static_cast<pid_t>(p), 0) == 0 || errno == EPERM;
}

}  // namespace

std::string LockHolder::describe() const {
  return "host " + (host.empty() ? "?" : host) + ", pid " + (pid.empty() ? "?" : pid) + ", job " +
         (job.empty() ? "-" : job) + ", since " + (started.empty() ? "?" : started);
}

OutdirLock::~OutdirLock() { release(); }

void OutdirLock::acquire(const std::string& outdir, std::string* staleWarning) {
  release();
  std::lock_guard<std::mutex> g(mutex_);
  path_ = outdir + "/.kirchhoff.lock";
  // O_NOFOLLOW: a symbolic link planted as the lock file is refused, never written through.
  if (const std::string why = linkProblem(path_); !why.empty()) throw UsageError(why);
  const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0)
    throw UsageError("cannot write to the output folder " + outdir + " (lock file " + path_ +
                     "): " + std::strerror(errno));
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  const bool osLock = ::fcntl(fd, F_SETLK, &fl) == 0;
  const int lockErrno = errno;
  LockHolder old = parse(readAll(fd));
  const std::string me = hostName();
  if (!osLock && (lockErrno == EACCES || lockErrno == EAGAIN)) {
    // A holder writes its record just after taking the OS lock: give it a moment to be named.
    for (int k = 0; k < 50 && old.host.empty(); ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      old = parse(readAll(fd));
    }
    ::close(fd);
    throw UsageError(outdir + " is in use by another kirchhoff run (" + old.describe() +
                     "; lock file " + path_ + "): wait for it to end, or choose another -o OUTDIR");
  }
  // Here the OS lock is ours, or the file system has no working locks (ENOLCK, ENOSYS): then the
  // file's contents decide. A holder on another host with a fresh heartbeat is alive even if the
  // OS lock did not reach us (parallel file systems mounted without cluster-wide locks); on this
  // host a live pid without the lock can only mean locks do not work here.
  if (!old.host.empty()) {
    const bool fresh = heartbeatAge(old) < kStaleSeconds;
    // A requeued batch job keeps its job id: the old holder is this job's killed incarnation.
    const bool sameJob = old.job != "-" && !old.job.empty() && old.job == jobId();
    const bool alive = sameJob ? false
                       : old.host == me ? (!osLock && pidAlive(old.pid) &&
                                           std::atol(old.pid.c_str()) != static_cast<long>(::getpid()))
                                        : fresh;
    if (alive) {
      ::close(fd);
      throw UsageError(outdir + " is in use by another kirchhoff run (" + old.describe() +
                       ", heartbeat " + std::to_string(static_cast<long long>(heartbeatAge(old))) +
                       " s ago; lock file " + path_ + "): wait for it to end, or choose another -o OUTDIR");
    }
    if (staleWarning)
      *staleWarning = "taking over the stale lock " + path_ + " of a run that ended without "
                      "releasing it (" + old.describe() + ")";
  }
  if (!osLock && staleWarning)
    *staleWarning += std::string(staleWarning->empty() ? "" : "; ") + "the file system of " +
                     outdir + " has no working fcntl locks (" + std::strerror(lockErrno) +
                     "): relying on the lock file's heartbeat";
  fd_ = fd;
  const std::time_t now = std::time(nullptr);
  me_ = LockHolder{me, std::to_string(static_cast<long>(::getpid())), jobId(), isoTime(now), ""};
  writeContents();
}

void OutdirLock::writeContents() {
  if (fd_ < 0) return;
  const std::time_t now = std::time(nullptr);
  me_.heartbeat = std::to_string(static_cast<long long>(now)) + " " + isoTime(now);
  const std::string text = "host=" + me_.host + "\npid=" + me_.pid + "\njob=" + me_.job +
                           "\nstarted=" + me_.started + "\nheartbeat=" + me_.heartbeat + "\n";
  // The new record over the old one, then the tail cut: a reader never sees an empty file while the
  // folder is held (truncating first left a window in which a refused run named holder '?').
  if (::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()) ||
      ::ftruncate(fd_, static_cast<off_t>(text.size())) != 0)
    return;  // a full disk: the OS lock still holds; the heartbeat is advisory
  ::fdatasync(fd_);
}

void OutdirLock::heartbeat() {
  std::lock_guard<std::mutex> g(mutex_);
  writeContents();
}

void OutdirLock::keepAlive() {
  stopKeepAlive();
  quit_ = false;
  beat_ = std::thread([this] {
    std::unique_lock<std::mutex> lk(mutex_);
    while (!wake_.wait_for(lk, std::chrono::duration<double>(kHeartbeatSeconds), [this] { return quit_; }))
      writeContents();
  });
}

void OutdirLock::stopKeepAlive() {
  if (!beat_.joinable()) return;
  {
    std::lock_guard<std::mutex> g(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  beat_.join();
}

void OutdirLock::release() {
  stopKeepAlive();
  std::lock_guard<std::mutex> g(mutex_);
  if (fd_ < 0) return;
  if (::ftruncate(fd_, 0) == 0) ::fdatasync(fd_);  // an empty file: nobody holds the folder
  ::close(fd_);                                     // releases the fcntl lock
  fd_ = -1;
}

}  // namespace kirchhoff::io

// MPI-IO component choice before MPI_Init (docs/running.md, "MPI-IO and killed runs").
// Why: Open MPI 4.1's OMPIO opens a file through its sharedfp/sm component, which creates the
// named semaphore /dev/shm/sem.OMPIO_<file name> and takes it. A rank SIGKILLed inside that open
// (a batch system's kill, an OOM kill, a kill -9 during a checkpoint write) leaves the semaphore
// taken, and every later MPI_File_open of a file with that name on the node waits on it forever:
// the next run hangs at the checkpoint of that same step. ROMIO opens files without it.
#include "io/MpiIo.hpp"

#include <cstdlib>

namespace kirchhoff::io {

void chooseMpiIoComponent() {
  if (std::getenv("OMPI_MCA_io") != nullptr) return;  // the user's (or site's) explicit choice
  setenv("OMPI_MCA_io", "^ompio", 0);
}

}  // namespace kirchhoff::io

// MPI-IO component choice, made once before MPI_Init: Open MPI's OMPIO opens every file through
// sharedfp/sm, whose named semaphore outlives a rank killed inside MPI_File_open (see MpiIo.cpp).
#pragma once

namespace kirchhoff::io {

/// Sets OMPI_MCA_io=^ompio (Open MPI then uses ROMIO) unless the caller's environment already
/// chooses an io component. Harmless with other MPI libraries. Call before MPI_Init.
void chooseMpiIoComponent();

}  // namespace kirchhoff::io

// sumOverRanks (core/Mpi.hpp): an in-place sum over ranks in pieces, so counts past INT_MAX are summed
// whole. The pieces are made small here (1, 3, 7 values) so that every piece boundary is exercised.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "core/Mpi.hpp"

namespace kirchhoff {
namespace {

int size(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

TEST(SumOverRanks, DoublesInPiecesEqualTheWholeSum) {
  const int r = rankOf(MPI_COMM_WORLD), P = size(MPI_COMM_WORLD);
  for (std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{1} << 30}) {
    std::vector<double> x(10);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = (r + 1) * 1000.0 + static_cast<double>(k);
    sumOverRanks(MPI_COMM_WORLD, x.data(), x.size(), MPI_DOUBLE, piece);
    // sum over r of (r + 1) 1000 + k = 1000 P (P + 1) / 2 + P k
    for (std::size_t k = 0; k < x.size(); ++k)
      EXPECT_EQ(x[k], 1000.0 * P * (P + 1) / 2 + P * static_cast<double>(k)) << "piece " << piece << ", value " << k;
  }
}

TEST(SumOverRanks, IntegersAndAnEmptyArray) {
  const int P = size(MPI_COMM_WORLD);
  std::vector<int> m(5, 1);
  sumOverRanks(MPI_COMM_WORLD, m.data(), m.size(), MPI_INT, 2);
  for (int v : m) EXPECT_EQ(v, P);
  sumOverRanks(MPI_COMM_WORLD, static_cast<double*>(nullptr), 0);  // nothing to send, and no hang
}

}  // namespace
}  // namespace kirchhoff

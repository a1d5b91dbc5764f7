// The cluster-tree FMM of docs/fluidbody.md (FB-57)-(FB-60): cells by median halving (four children per
// cell), dual-tree traversal (Dehnen 2002), M2M up, M2L, L2L down and the transposed passes; one Allreduce of
// the cell coefficients per pass on several ranks.
#include "fluid/ClusterTree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {
using Complex = std::complex<double>;
const Complex kI(0.0, 1.0);
/// Smallest distance of a child centre from its cell centre, in cell radii: keeps the powers w^k of
/// (FB-57) (w_in = rho / u for M2M) below (1 / kClearance)^p.
constexpr double kClearance = 0.05;
}  // namespace

int multipoleOrder(double eta, double tol) {
  if (!(eta > 1.0)) throw ConfigurationError("multipole eta must be > 1, got " + std::to_string(eta));
  if (!(tol > 0.0 && tol < 1.0)) throw ConfigurationError("multipole tolerance must be in (0, 1), got " + std::to_string(tol));
  return std::max(4, static_cast<int>(std::ceil(std::log(tol) / std::log(1.0 / eta))) + 2);
}

ClusterTree::ClusterTree(MPI_Comm comm, int order, double eta) : comm_(comm), p_(order), eta_(eta), K_(order) {
  if (order < 1) throw ConfigurationError("multipole order must be >= 1, got " + std::to_string(order));
  if (!(eta > 1.0)) throw ConfigurationError("multipole eta must be > 1, got " + std::to_string(eta));
  MPI_Comm_size(comm, &ranks_);
}

void ClusterTree::build(const std::vector<Cluster>& leaves, const std::vector<char>& owned) {
  if (owned.size() != leaves.size())
    throw ConfigurationError("cluster tree: " + std::to_string(owned.size()) + " ownership flags for " +
                             std::to_string(leaves.size()) + " leaves");
  for (const Cluster& c : leaves)
    if (!(c.radius > 0.0) || !std::isfinite(c.radius) || !std::isfinite(std::abs(c.centre)))
      throw ConfigurationError("cluster tree: a leaf needs a finite centre and radius > 0");
  leaves_ = leaves;
  owned_ = owned;
  cells_.clear();
  near_.clear();
  pairs_.clear();
  const int n = static_cast<int>(leaves.size());
  leafCell_.assign(static_cast<std::size_t>(n), -1);
  if (n > 0) {
    std::vector<int> index(static_cast<std::size_t>(n));
    std::iota(index.begin(), index.end(), 0);
    cells_.reserve(static_cast<std::size_t>(2 * n));
    buildCell(index, 0, n, 0);
    interactSelf(0);
  }
  markActive(owned);
  makeLists();
}

int ClusterTree::halve(std::vector<int>& index, int begin, int end) const {
  // Median of the leaf centres along the longer side of their box (ties: the other coordinate, the index).
  double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
  for (int i = begin; i < end; ++i) {
    const Complex c = leaves_[static_cast<std::size_t>(index[i])].centre;
    x0 = std::min(x0, c.real()), x1 = std::max(x1, c.real());
    y0 = std::min(y0, c.imag()), y1 = std::max(y1, c.imag());
  }
  const bool alongX = x1 - x0 >= y1 - y0;
  auto key = [&](int i) {
    const Complex c = leaves_[static_cast<std::size_t>(i)].centre;
    return alongX ? std::make_tuple(c.real(), c.imag(), i) : std::make_tuple(c.imag(), c.real(), i);
  };
  const int mid = begin + (end - begin) / 2;
  std::nth_element(index.begin() + begin, index.begin() + mid, index.begin() + end,
                   [&](int a, int b) { return key(a) < key(b); });
  return mid;
}

std::vector<std::pair<int, int>> ClusterTree::quarter(std::vector<int>& index, int begin, int end) const {
  // Halve, then halve each half of two or more leaves: up to four children (quadrants on a grid).
  const int mid = halve(index, begin, end);
  std::vector<std::pair<int, int>> parts;
  for (const auto& [b, e] : {std::make_pair(begin, mid), std::make_pair(mid, end)}) {
    if (e - b < 2) {
      parts.emplace_back(b, e);
      continue;
    }
    const int m = halve(index, b, e);
    parts.emplace_back(b, m);
    parts.emplace_back(m, e);
  }
  return parts;
}

int ClusterTree::buildCell(std::vector<int>& index, int begin, int end, int depth) {
  const int id = static_cast<int>(cells_.size());
  cells_.emplace_back();
  cells_[id].depth = depth;
  if (end - begin == 1) {
    const int leaf = index[begin];
    cells_[id].centre = leaves_[static_cast<std::size_t>(leaf)].centre;
    cells_[id].radius = leaves_[static_cast<std::size_t>(leaf)].radius;
    cells_[id].leaf = leaf;
    leafCell_[static_cast<std::size_t>(leaf)] = id;
    return id;
  }
  for (const auto& [b, e] : quarter(index, begin, end)) {
    const int c = buildCell(index, b, e, depth + 1);
    cells_[c].parent = id;
    cells_[id].child[static_cast<std::size_t>(cells_[id].children++)] = c;
  }
  enclose(cells_[id]);
  return id;
}

void ClusterTree::enclose(Cell& cell) const {
  // Centre: the middle of the box of the children's disks; radius R_C = max (|c_child - c_C| + R_child), so the
  // cell's multipole converges outside R_C. A centre closer than kClearance R_C to a child's centre moves
  // to the best of 16 points around it.
  double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
  for (int k = 0; k < cell.children; ++k) {
    const Cell& c = cells_[static_cast<std::size_t>(cell.child[static_cast<std::size_t>(k)])];
    x0 = std::min(x0, c.centre.real() - c.radius), x1 = std::max(x1, c.centre.real() + c.radius);
    y0 = std::min(y0, c.centre.imag() - c.radius), y1 = std::max(y1, c.centre.imag() + c.radius);
  }
  auto radiusAbout = [&](Complex z) {
    double R = 0.0;
    for (int k = 0; k < cell.children; ++k) {
      const Cell& c = cells_[static_cast<std::size_t>(cell.child[static_cast<std::size_t>(k)])];
      R = std::max(R, std::abs(c.centre - z) + c.radius);
    }
    return R;
  };
  auto clearance = [&](Complex z) {
    double d = std::numeric_limits<double>::max();
    for (int k = 0; k < cell.children; ++k)
      d = std::min(d, std::abs(cells_[static_cast<std::size_t>(cell.child[static_cast<std::size_t>(k)])].centre - z));
    return d / radiusAbout(z);
  };
  Complex best(0.5 * (x0 + x1), 0.5 * (y0 + y1));
  const Complex start = best;
  const double R = radiusAbout(start);
  for (int ring = 1; ring <= 2 && clearance(best) < kClearance; ++ring)
    for (int j = 0; j < 8; ++j) {
      const Complex z = start + 2.0 * ring * kClearance * R * std::polar(1.0, 0.785398163397448 * j + 0.3);
      if (clearance(z) > clearance(best)) best = z;
    }
  cell.centre = best;
  cell.radius = radiusAbout(best);
}

void ClusterTree::interactSelf(int A) {
  const Cell& a = cells_[static_cast<std::size_t>(A)];
  for (int i = 0; i < a.children; ++i) interactSelf(a.child[static_cast<std::size_t>(i)]);
  for (int i = 0; i < a.children; ++i)
    for (int j = i + 1; j < a.children; ++j) interact(a.child[static_cast<std::size_t>(i)], a.child[static_cast<std::size_t>(j)]);
}

void ClusterTree::interact(int A, int B) {
  // (FB-58): separated cells -> M2L of the pair's order; two leaves -> near pair; else split the larger cell.
  const Cell& a = cells_[static_cast<std::size_t>(A)];
  const Cell& b = cells_[static_cast<std::size_t>(B)];
  const double d = std::abs(a.centre - b.centre), rho = (a.radius + b.radius) / d;
  if (d > eta_ * (a.radius + b.radius)) {
    const int q = std::min(p_, std::max(2, static_cast<int>(std::ceil(p_ * std::log(eta_) / -std::log(rho)))));
    pairs_.push_back({A, B, q});
    return;
  }
  if (a.leaf >= 0 && b.leaf >= 0) {
    near_.emplace_back(std::min(a.leaf, b.leaf), std::max(a.leaf, b.leaf));
    return;
  }
  if (a.leaf < 0 && (b.leaf >= 0 || a.radius >= b.radius)) {
    for (int i = 0; i < a.children; ++i) interact(a.child[static_cast<std::size_t>(i)], B);
  } else {
    for (int i = 0; i < b.children; ++i) interact(A, b.child[static_cast<std::size_t>(i)]);
  }
}

void ClusterTree::markActive(const std::vector<char>& owned) {
  // Cells are numbered parents first, so one backward sweep marks every ancestor of an owned leaf.
  active_.assign(cells_.size(), 0);
  for (std::size_t i = 0; i < owned.size(); ++i)
    if (owned[i]) active_[static_cast<std::size_t>(leafCell_[i])] = 1;
  for (std::size_t c = cells_.size(); c-- > 1;)
    if (active_[c]) active_[static_cast<std::size_t>(cells_[c].parent)] = 1;
}

Translation ClusterTree::m2lTranslation(int from, int to, int order) const {
  // (FB-57) M2L: d = c_to - c_from, w_in = R_from / d, w_out = R_to / d, log term log d.
  const Cell& s = cells_[static_cast<std::size_t>(from)];
  const Cell& t = cells_[static_cast<std::size_t>(to)];
  const Complex d = t.centre - s.centre;
  return Translation{from, to, order, s.radius / d, t.radius / d, std::log(d)};
}

void ClusterTree::makeLists() {
  // Directed M2L into the active cells (both directions of a pair), and the up / down edges of active cells.
  m2l_.clear();
  m2lT_.clear();
  for (const auto& [A, B, q] : pairs_) {
    if (active_[static_cast<std::size_t>(A)]) m2l_.push_back(m2lTranslation(B, A, q));
    if (active_[static_cast<std::size_t>(B)]) m2l_.push_back(m2lTranslation(A, B, q));
  }
  sortByOrder(m2l_);
  for (const Translation& t : m2l_) m2lT_.push_back(transposed(t));
  int depth = 0;
  for (const Cell& c : cells_) depth = std::max(depth, c.depth);
  up_.assign(static_cast<std::size_t>(depth) + 1, {});
  down_.assign(up_.size(), {});
  for (std::size_t X = 1; X < cells_.size(); ++X) {
    if (!active_[X]) continue;
    const Cell& c = cells_[X];
    const Cell& parent = cells_[static_cast<std::size_t>(c.parent)];
    // (FB-57) M2M child -> parent: u = (c_child - c_parent) / R_parent, w_in = rho / u, w_out = u.
    const Complex u = (c.centre - parent.centre) / parent.radius;
    const Translation t{static_cast<int>(X), c.parent, p_, (c.radius / parent.radius) / u, u, Complex(0.0, 0.0)};
    up_[static_cast<std::size_t>(c.depth)].push_back(t);
    down_[static_cast<std::size_t>(c.depth)].push_back(transposed(t));
  }
}

void ClusterTree::sumOverRanks(Eigen::MatrixXcd& cells) const {
  if (ranks_ > 1)
    MPI_Allreduce(MPI_IN_PLACE, reinterpret_cast<double*>(cells.data()), static_cast<int>(2 * cells.size()),
                  MPI_DOUBLE, MPI_SUM, comm_);
}

Eigen::MatrixXcd ClusterTree::localExpansions(const Eigen::MatrixXcd& a) const {
  // (FB-58): owned leaves -> M2M up -> sum over ranks -> M2L into active cells -> L2L down -> owned leaves.
  const Eigen::Index m = p_ + 1, nc = cellCount();
  Eigen::MatrixXcd M = Eigen::MatrixXcd::Zero(m, nc), L = Eigen::MatrixXcd::Zero(m, nc);
  Eigen::MatrixXcd out = Eigen::MatrixXcd::Zero(m, leafCount());
  for (int i = 0; i < leafCount(); ++i)
    if (owned_[static_cast<std::size_t>(i)]) M.col(leafCell_[static_cast<std::size_t>(i)]) = a.col(i);
  for (std::size_t d = up_.size(); d-- > 1;) translate(K_.m2m, false, up_[d], M, M);
  sumOverRanks(M);
  translate(K_.m2l, false, m2l_, M, L);
  for (std::size_t d = 1; d < down_.size(); ++d) translate(K_.l2l, false, down_[d], L, L);
  for (int i = 0; i < leafCount(); ++i)
    if (owned_[static_cast<std::size_t>(i)]) out.col(i) = L.col(leafCell_[static_cast<std::size_t>(i)]);
  return out;
}

Eigen::MatrixXcd ClusterTree::multipoleAdjoints(const Eigen::MatrixXcd& c) const {
  // The passes of localExpansions transposed, in reverse order: L2L^T up, M2L^T, sum over ranks, M2M^T down.
  const Eigen::Index m = p_ + 1, nc = cellCount();
  Eigen::MatrixXcd L = Eigen::MatrixXcd::Zero(m, nc), E = Eigen::MatrixXcd::Zero(m, nc);
  Eigen::MatrixXcd out = Eigen::MatrixXcd::Zero(m, leafCount());
  for (int i = 0; i < leafCount(); ++i)
    if (owned_[static_cast<std::size_t>(i)]) L.col(leafCell_[static_cast<std::size_t>(i)]) = c.col(i);
  for (std::size_t d = up_.size(); d-- > 1;) translate(K_.l2l, true, up_[d], L, L);
  translate(K_.m2l, true, m2lT_, L, E);
  sumOverRanks(E);
  for (std::size_t d = 1; d < down_.size(); ++d) translate(K_.m2m, true, down_[d], E, E);
  for (int i = 0; i < leafCount(); ++i)
    if (owned_[static_cast<std::size_t>(i)]) out.col(i) = E.col(leafCell_[static_cast<std::size_t>(i)]);
  return out;
}

Eigen::Matrix3Xd ClusterTree::farGradient(const Eigen::MatrixXcd& a, const Eigen::MatrixXcd& c) const {
  // (FB-59) target side: rotation Re sum i l c_l L_l, translation D = sum c_l (l+1) L_{l+1} / r;
  // (FB-60) source side: rotation Re sum i k a_k e_k, translation D = (-e_1 a_0 + sum_k e_{k+1} k a_k) / r;
  // dF/dy = (Re D, -Im D) (F is the real part of a function holomorphic in the complex centre).
  const Eigen::MatrixXcd L = localExpansions(a), e = multipoleAdjoints(c);
  Eigen::Matrix3Xd g = Eigen::Matrix3Xd::Zero(3, leafCount());
  for (int i = 0; i < leafCount(); ++i) {
    if (!owned_[static_cast<std::size_t>(i)]) continue;
    Complex rot(0.0, 0.0), D = -e(1, i) * a(0, i);
    for (int l = 1; l <= p_; ++l) rot += static_cast<double>(l) * (c(l, i) * L(l, i) + a(l, i) * e(l, i));
    for (int l = 0; l < p_; ++l) D += static_cast<double>(l + 1) * c(l, i) * L(l + 1, i);
    for (int k = 1; k < p_; ++k) D += static_cast<double>(k) * e(k + 1, i) * a(k, i);
    D /= leaves_[static_cast<std::size_t>(i)].radius;
    g(0, i) = (kI * rot).real();
    g(1, i) = D.real();
    g(2, i) = -D.imag();
  }
  return g;
}

long ClusterTree::m2lWork() const {
  long w = 0;
  for (const Translation& t : m2l_) w += static_cast<long>(t.order + 1) * (t.order + 1);
  return w;
}

long ClusterTree::storedDoubles() const {
  const long perTranslation = sizeof(Translation) / sizeof(double);
  long lists = static_cast<long>(m2l_.size() + m2lT_.size());
  for (std::size_t d = 0; d < up_.size(); ++d) lists += static_cast<long>(up_[d].size() + down_[d].size());
  return perTranslation * lists + static_cast<long>(cells_.size() * sizeof(Cell) / sizeof(double)) +
         static_cast<long>((leaves_.size() * sizeof(Cluster) + near_.size() * sizeof(near_[0]) +
                            pairs_.size() * sizeof(pairs_[0])) / sizeof(double)) +
         3L * (p_ + 1) * (p_ + 1);
}

}  // namespace kirchhoff::fluid

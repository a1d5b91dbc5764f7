// The cluster-tree FMM of docs/fluidbody.md (FB-57)-(FB-60): cells by median halving (four children per
// cell), dual-tree traversal (Dehnen 2002), M2M up, M2L, L2L down and the transposed passes; one Allreduce of
// the cell coefficients per pass on several ranks.
#include "fluid/fast/ClusterTree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "core/Mpi.hpp"

namespace kirchhoff::fluid {

namespace {
using Complex = std::complex<double>;
/// Smallest distance of a child centre from its cell centre, in cell radii: keeps the powers w^k of
/// (FB-57) (w_in = rho / u for M2M) below (1 / kClearance)^p.
constexpr double kClearance = 0.05;
}  // namespace

int multipoleOrder(double eta, double tol) {
  if (!(eta > 1.0)) throw ConfigurationError("multipole eta must be > 1, got " + std::to_string(eta));
  if (!(tol > 0.0 && tol < 1.0)) throw ConfigurationError("multipole tolerance must be in (0, 1), got " + std::to_string(tol));
  return std::max(4, static_cast<int>(std::ceil(std::log(tol) / std::log(1.0 / eta))) + 2);
}

namespace {
/// The order, once checked: the translation matrices K_ are sized by it in the initialiser list.
int checkedOrder(int order, double eta) {
  if (order < 1) throw ConfigurationError("multipole order must be >= 1, got " + std::to_string(order));
  if (!(eta > 1.0)) throw ConfigurationError("multipole eta must be > 1, got " + std::to_string(eta));
  return order;
}
}  // namespace

ClusterTree::ClusterTree(MPI_Comm comm, int order, double eta)
    : comm_(comm), p_(checkedOrder(order, eta)), eta_(eta), K_(p_) {
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
  centres_.clear();
  for (const Cluster& c : leaves) centres_.push_back(c.centre);
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
  depth_ = 0;
  for (const Cell& c : cells_) depth_ = std::max(depth_, c.depth);
  const std::vector<char> every(leaves.size(), 1);
  all_ = plan(every, every);
  capped_.clear();
}

const ClusterTree::Plan& ClusterTree::cappedPlan(int order) const {
  // (FB-93): M2M of order q gives the first q + 1 multipole coefficients exactly (K_lk = 0 for k > l), M2L of order q
  // truncates the multipoles as any pair of order q does, and L2L of order q then meets no coefficient above q.
  if (order >= p_) return all_;
  if (const auto it = capped_.find(order); it != capped_.end()) return it->second;
  Plan c = all_;
  auto cap = [order](std::vector<Translation>& list) {
    for (Translation& t : list) t.order = std::min(t.order, order);
    sortByOrder(list);
  };
  cap(c.m2l);
  c.work = 0;
  for (const Translation& t : c.m2l) c.work += static_cast<long>(t.order + 1) * (t.order + 1);
  for (auto& level : c.m2m) cap(level);
  for (auto& level : c.l2l) cap(level);
  c.order = order;
  return capped_.emplace(order, std::move(c)).first->second;
}

int halveAtMedian(const std::vector<Complex>& z, std::vector<int>& index, int begin, int end) {
  double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
  for (int i = begin; i < end; ++i) {
    const Complex c = z[static_cast<std::size_t>(index[i])];
    x0 = std::min(x0, c.real()), x1 = std::max(x1, c.real());
    y0 = std::min(y0, c.imag()), y1 = std::max(y1, c.imag());
  }
  const bool alongX = x1 - x0 >= y1 - y0;
  auto key = [&](int i) {
    const Complex c = z[static_cast<std::size_t>(i)];
    return alongX ? std::make_tuple(c.real(), c.imag(), i) : std::make_tuple(c.imag(), c.real(), i);
  };
  const int mid = begin + (end - begin) / 2;
  std::nth_element(index.begin() + begin, index.begin() + mid, index.begin() + end,
                   [&](int a, int b) { return key(a) < key(b); });
  return mid;
}

std::vector<std::pair<int, int>> ClusterTree::quarter(std::vector<int>& index, int begin, int end) const {
  // Halve, then halve each half of two or more leaves: up to four children (quadrants on a grid).
  const int mid = halveAtMedian(centres_, index, begin, end);
  std::vector<std::pair<int, int>> parts;
  for (const auto& [b, e] : {std::make_pair(begin, mid), std::make_pair(mid, end)}) {
    if (e - b < 2) {
      parts.emplace_back(b, e);
      continue;
    }
    const int m = halveAtMedian(centres_, index, b, e);
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

std::vector<char> ClusterTree::holding(const std::vector<char>& flags) const {
  // Cells are numbered parents first, so one backward sweep marks every ancestor of a flagged leaf.
  std::vector<char> h(cells_.size(), 0);
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (flags[i]) h[static_cast<std::size_t>(leafCell_[i])] = 1;
  for (std::size_t c = cells_.size(); c-- > 1;)
    if (h[c]) h[static_cast<std::size_t>(cells_[c].parent)] = 1;
  return h;
}

Translation ClusterTree::m2lTranslation(int from, int to, int order) const {
  // (FB-57) M2L: d = c_to - c_from, w_in = R_from / d, w_out = R_to / d, log term log d.
  const Cell& s = cells_[static_cast<std::size_t>(from)];
  const Cell& t = cells_[static_cast<std::size_t>(to)];
  const Complex d = t.centre - s.centre;
  return Translation{from, to, order, s.radius / d, t.radius / d, std::log(d)};
}

ClusterTree::Plan ClusterTree::plan(const std::vector<char>& sources, const std::vector<char>& targets) const {
  // (FB-58): M2M up from the owned sources, M2L from any source into the owned targets (both directions of a
  // traversal pair), L2L down to the owned targets.
  std::vector<char> ownedSources(sources.size()), ownedTargets(targets.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    ownedSources[i] = sources[i] && owned_[i];
    ownedTargets[i] = targets[i] && owned_[i];
  }
  const std::vector<char> up = holding(ownedSources), any = holding(sources), down = holding(ownedTargets);
  Plan plan;
  for (const auto& [A, B, q] : pairs_) {
    if (down[static_cast<std::size_t>(A)] && any[static_cast<std::size_t>(B)]) plan.m2l.push_back(m2lTranslation(B, A, q));
    if (down[static_cast<std::size_t>(B)] && any[static_cast<std::size_t>(A)]) plan.m2l.push_back(m2lTranslation(A, B, q));
  }
  sortByOrder(plan.m2l);
  for (const Translation& t : plan.m2l) plan.work += static_cast<long>(t.order + 1) * (t.order + 1);
  plan.order = p_;
  plan.m2m.assign(static_cast<std::size_t>(depth_) + 1, {});
  plan.l2l.assign(plan.m2m.size(), {});
  for (std::size_t X = 1; X < cells_.size(); ++X) {
    if (!up[X] && !down[X]) continue;
    const Cell& c = cells_[X];
    const Cell& parent = cells_[static_cast<std::size_t>(c.parent)];
    // (FB-57) M2M child -> parent: u = (c_child - c_parent) / R_parent, w_in = rho / u, w_out = u; L2L the reverse.
    const Complex u = (c.centre - parent.centre) / parent.radius;
    const Translation t{static_cast<int>(X), c.parent, p_, (c.radius / parent.radius) / u, u, Complex(0.0, 0.0)};
    if (up[X]) plan.m2m[static_cast<std::size_t>(c.depth)].push_back(t);
    if (down[X]) plan.l2l[static_cast<std::size_t>(c.depth)].push_back(transposed(t));
  }
  return plan;
}

void ClusterTree::sumOverRanks(Eigen::MatrixXcd& cells, int rows) const {
  if (ranks_ == 1) return;
  if (rows >= cells.rows()) {
    kirchhoff::sumOverRanks(comm_, reinterpret_cast<double*>(cells.data()), 2 * static_cast<std::size_t>(cells.size()));
    return;
  }
  // A capped pass (FB-93): only its rows travel.
  Eigen::MatrixXcd top = cells.topRows(rows);
  kirchhoff::sumOverRanks(comm_, reinterpret_cast<double*>(top.data()), 2 * static_cast<std::size_t>(top.size()));
  cells.topRows(rows) = top;
}

Eigen::MatrixXcd ClusterTree::ownedLeavesToCells(const Eigen::MatrixXcd& leaves) const {
  Eigen::MatrixXcd cells = Eigen::MatrixXcd::Zero(p_ + 1, cellCount());
  for (int i = 0; i < leafCount(); ++i)
    if (owned_[static_cast<std::size_t>(i)]) cells.col(leafCell_[static_cast<std::size_t>(i)]) = leaves.col(i);
  return cells;
}

Eigen::MatrixXcd ClusterTree::cellsToOwnedLeaves(const Eigen::MatrixXcd& cells) const {
  Eigen::MatrixXcd leaves = Eigen::MatrixXcd::Zero(p_ + 1, leafCount());
  for (int i = 0; i < leafCount(); ++i)
    if (owned_[static_cast<std::size_t>(i)]) leaves.col(i) = cells.col(leafCell_[static_cast<std::size_t>(i)]);
  return leaves;
}

Eigen::MatrixXcd ClusterTree::localExpansions(const Plan& plan, const Eigen::MatrixXcd& a) const {
  // (FB-58): owned sources -> M2M up -> sum over ranks -> M2L into the targets' cells -> L2L down -> owned targets.
  const Eigen::Index m = p_ + 1, nc = cellCount();
  Eigen::MatrixXcd M = ownedLeavesToCells(a), L = Eigen::MatrixXcd::Zero(m, nc);
  for (std::size_t d = plan.m2m.size(); d-- > 1;) translate(K_.m2m, false, plan.m2m[d], M, M);
  sumOverRanks(M, plan.order + 1);
  translate(K_.m2l, false, plan.m2l, M, L);
  for (std::size_t d = 1; d < plan.l2l.size(); ++d) translate(K_.l2l, false, plan.l2l[d], L, L);
  return cellsToOwnedLeaves(L);
}

Eigen::MatrixXcd ClusterTree::multipoleAdjoints(const Plan& plan, const Eigen::MatrixXcd& c) const {
  // The passes of localExpansions transposed, in reverse order: L2L^T up, M2L^T, sum over ranks, M2M^T down.
  const Eigen::Index m = p_ + 1, nc = cellCount();
  Eigen::MatrixXcd L = ownedLeavesToCells(c), E = Eigen::MatrixXcd::Zero(m, nc);
  for (std::size_t d = plan.l2l.size(); d-- > 1;) translate(K_.l2l, true, plan.l2l[d], L, L);
  translate(K_.m2l, true, plan.m2l, L, E);
  sumOverRanks(E, plan.order + 1);
  for (std::size_t d = 1; d < plan.m2m.size(); ++d) translate(K_.m2m, true, plan.m2m[d], E, E);
  return cellsToOwnedLeaves(E);
}

Eigen::Vector3d ClusterTree::targetGradient(const Eigen::VectorXcd& c, const Eigen::VectorXcd& L, double r) {
  // (FB-59): rotation Re sum i l c_l L_l; translation D = sum c_l (l+1) L_{l+1} / r, dF/dy = (Re D, -Im D)
  // (F is the real part of a function holomorphic in the complex centre).
  const Eigen::Index p = c.size() - 1;
  Complex rot(0.0, 0.0), D(0.0, 0.0);
  for (Eigen::Index l = 1; l <= p; ++l) rot += static_cast<double>(l) * c[l] * L[l];
  for (Eigen::Index l = 0; l < p; ++l) D += static_cast<double>(l + 1) * c[l] * L[l + 1];
  D /= r;
  return Eigen::Vector3d((kI * rot).real(), D.real(), -D.imag());
}

Eigen::Vector3d ClusterTree::sourceGradient(const Eigen::VectorXcd& a, const Eigen::VectorXcd& e, double r) {
  // (FB-60): rotation Re sum i k a_k e_k; translation D = (-e_1 a_0 + sum_k e_{k+1} k a_k) / r.
  const Eigen::Index p = a.size() - 1;
  Complex rot(0.0, 0.0), D = -e[1] * a[0];
  for (Eigen::Index k = 1; k <= p; ++k) rot += static_cast<double>(k) * a[k] * e[k];
  for (Eigen::Index k = 1; k < p; ++k) D += static_cast<double>(k) * e[k + 1] * a[k];
  D /= r;
  return Eigen::Vector3d((kI * rot).real(), D.real(), -D.imag());
}

Eigen::Matrix3Xd ClusterTree::farGradient(const Eigen::MatrixXcd& a, const Eigen::MatrixXcd& c) const {
  // One forward pass for the target sides, one transposed pass for the source sides.
  const Eigen::MatrixXcd L = localExpansions(a), e = multipoleAdjoints(c);
  Eigen::Matrix3Xd g = Eigen::Matrix3Xd::Zero(3, leafCount());
  for (int i = 0; i < leafCount(); ++i)
    if (owned_[static_cast<std::size_t>(i)]) {
      const double r = leaves_[static_cast<std::size_t>(i)].radius;
      g.col(i) = targetGradient(c.col(i), L.col(i), r) + sourceGradient(a.col(i), e.col(i), r);
    }
  return g;
}

long ClusterTree::storedDoubles() const {
  const long perTranslation = sizeof(Translation) / sizeof(double);
  long lists = static_cast<long>(all_.m2l.size());
  for (std::size_t d = 0; d < all_.m2m.size(); ++d) lists += static_cast<long>(all_.m2m[d].size() + all_.l2l[d].size());
  return perTranslation * lists + static_cast<long>(cells_.size() * sizeof(Cell) / sizeof(double)) +
         static_cast<long>((leaves_.size() * sizeof(Cluster) + near_.size() * sizeof(near_[0]) +
                            pairs_.size() * sizeof(pairs_[0])) / sizeof(double)) +
         3L * (p_ + 1) * (p_ + 1);
}

}  // namespace kirchhoff::fluid

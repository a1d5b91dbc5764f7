// Bodies discretized differently (docs/fluidbody.md (FB-64)): each body is one body of a point-source
// discretization (the base one for bodies far from all others, a graded one for a refined body); the
// inter-body blocks are the point sources of (FB-37) with the source body's near entries (FB-65).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluid/discretization/PointSourceDiscretization.hpp"

namespace kirchhoff::fluid {

class MixedDiscretization : public PointSourceDiscretization {
 public:
  /// Body j of this discretization is body parts[j].body of parts[j].disc.
  struct Part {
    std::shared_ptr<const PointSourceDiscretization> disc;
    int body = 0;
  };
  MixedDiscretization(std::string name, std::vector<Part> parts);

  std::string name() const override { return name_; }
  const Eigen::MatrixXd& selfNormal(int j) const override { return part(j).disc->selfNormal(part(j).body); }
  const Eigen::MatrixXd& selfPotential(int j) const override { return part(j).disc->selfPotential(part(j).body); }
  void pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count, double* psi,
                  Complex* dOmega, double* phi = nullptr) const override {
    part(Q).disc->pointField(part(Q).body, gQ, z, first, count, psi, dOmega, phi);
  }
  Eigen::MatrixXcd multipoleMoments(int j, int order) const override {
    return part(j).disc->multipoleMoments(part(j).body, order);
  }
  bool hasNearEntries(int Q) const override { return part(Q).disc->hasNearEntries(part(Q).body); }
  void nearEntries(int Q, const Complex& Z, std::vector<NearEntry>& out) const override {
    part(Q).disc->nearEntries(part(Q).body, Z, out);
  }
  const Part& part(int j) const { return parts_[static_cast<std::size_t>(j)]; }

 private:
  std::string name_;
  std::vector<Part> parts_;
};

}  // namespace kirchhoff::fluid

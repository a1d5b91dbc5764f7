// The registry of body-shape kinds (docs/fluidbody.md "Panel method", "High-order boundary integrals",
// "Graded Gauss-Legendre panels"): for each kind its parameters, its builders, smooth or piecewise.
#pragma once

#include <string>
#include <vector>

#include "fluid/geometry/PiecewiseCurve.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "fluid/geometry/SmoothCurve.hpp"

namespace kirchhoff::fluid {

/// The parameters of a shape (the setup code fills the ones its kind takes).
struct ShapeSpec {
  std::string kind;        ///< a ShapeKind's name
  double radius = 1.0;     ///< circle, star
  std::vector<double> cosCoeffs, sinCoeffs;  ///< star: r(s) = R (1 + sum a_k cos ks + b_k sin ks)
  double a = 1.0, b = 1.0; ///< ellipse semi-axes (a along body x)
  double length = 1.0;     ///< plate
  double thickness = 0.1;  ///< plate
  int edges = 64;          ///< circle, ellipse, star, plate (Nystrom: the node count)
  CurveSampling sampling = CurveSampling::Tangent;  ///< circle, ellipse
  std::vector<Vec2> vertices;  ///< polygon
  bool smooth = false;     ///< polygon: vertices sample a smooth curve
};

/// A real (or list) parameter of a kind: its name (the deck key), meaning, and place in ShapeSpec.
struct ShapeParameter {
  std::string name, meaning;
  double ShapeSpec::*value = nullptr;              ///< a positive real ...
  std::vector<double> ShapeSpec::*list = nullptr;  ///< ... or an optional list of reals
  std::string smallerThan;                         ///< another parameter it must stay below ("" none)
};

/// One kind of body shape.
struct ShapeKind {
  std::string name;
  /// A smooth analytic curve (Nystrom, curve()); otherwise piecewise smooth (Gauss panels, piecewise()).
  bool smooth = false;
  std::vector<ShapeParameter> parameters;
  bool edges = false;     ///< takes an edge (panel, node) count
  bool sampling = false;  ///< takes a CurveSampling
  bool vertices = false;  ///< takes a vertex list (and its `smooth` flag)
  /// The panel outline.
  Polygon (*outline)(const ShapeSpec&) = nullptr;
  /// Smooth kinds: the analytic curve.
  SmoothCurve (*curve)(const ShapeSpec&) = nullptr;
  /// Piecewise kinds: the curve of the outline `p` (the kind's own outline).
  PiecewiseCurve (*piecewise)(const ShapeSpec&, const Polygon& p) = nullptr;
};

/// Every kind, in the order the deck lists them.
const std::vector<ShapeKind>& shapeKinds();
/// The kind `name`; ConfigurationError naming the choices for an unknown one.
const ShapeKind& shapeKind(const std::string& name);
/// The kinds that are (smooth = true) or are not smooth analytic curves, comma separated.
std::string shapeKindNames(bool smooth);

}  // namespace kirchhoff::fluid

// The body-shape registry (ShapeKinds.hpp): circle, ellipse and star are smooth analytic curves
// (Nystrom, docs/fluidbody.md (FB-37)); plate and polygon piecewise smooth (Gauss panels, (FB-40)).
#include "fluid/geometry/ShapeKinds.hpp"

#include <utility>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {

/// A positive real parameter (optionally below another one).
ShapeParameter positive(std::string name, std::string meaning, double ShapeSpec::*value, std::string smallerThan = "") {
  ShapeParameter p;
  p.name = std::move(name), p.meaning = std::move(meaning), p.value = value, p.smallerThan = std::move(smallerThan);
  return p;
}

/// An optional list of reals.
ShapeParameter list(std::string name, std::string meaning, std::vector<double> ShapeSpec::*values) {
  ShapeParameter p;
  p.name = std::move(name), p.meaning = std::move(meaning), p.list = values;
  return p;
}

}  // namespace

const std::vector<ShapeKind>& shapeKinds() {
  static const std::vector<ShapeKind> kinds = [] {
    ShapeKind circleKind;
    circleKind.name = "circle";
    circleKind.smooth = true;
    circleKind.parameters = {positive("radius", "radius R", &ShapeSpec::radius)};
    circleKind.edges = circleKind.sampling = true;
    circleKind.outline = [](const ShapeSpec& s) { return circle(s.radius, s.edges, s.sampling); };
    circleKind.curve = [](const ShapeSpec& s) { return circleCurve(s.radius); };

    ShapeKind ellipseKind;
    ellipseKind.name = "ellipse";
    ellipseKind.smooth = true;
    ellipseKind.parameters = {positive("a", "semi-axis along the body x axis", &ShapeSpec::a),
                              positive("b", "semi-axis along the body y axis", &ShapeSpec::b)};
    ellipseKind.edges = ellipseKind.sampling = true;
    ellipseKind.outline = [](const ShapeSpec& s) { return ellipse(s.a, s.b, s.edges, s.sampling); };
    ellipseKind.curve = [](const ShapeSpec& s) { return ellipseCurve(s.a, s.b); };

    ShapeKind starKind;
    starKind.name = "star";
    starKind.smooth = true;
    starKind.parameters = {
        positive("radius", "mean radius R of r(s) = R (1 + sum a_k cos ks + b_k sin ks)", &ShapeSpec::radius),
        list("cos", "a_1, a_2, ...: cosine coefficients of r(s) / R", &ShapeSpec::cosCoeffs),
        list("sin", "b_1, b_2, ...: sine coefficients of r(s) / R", &ShapeSpec::sinCoeffs)};
    starKind.edges = true;
    starKind.curve = [](const ShapeSpec& s) { return starCurve(s.radius, s.cosCoeffs, s.sinCoeffs); };
    starKind.outline = [](const ShapeSpec& s) {
      // The polygon through the nodes, in its own centroid frame (the panel body frame).
      return makePolygon(curveOutline(starCurve(s.radius, s.cosCoeffs, s.sinCoeffs), s.edges).vertices, "star", true);
    };

    ShapeKind plateKind;
    plateKind.name = "plate";
    plateKind.parameters = {positive("length", "total length along the body x axis", &ShapeSpec::length),
                            positive("thickness", "thickness (a stadium: straight sides, round caps)",
                                     &ShapeSpec::thickness, "length")};
    plateKind.edges = true;
    plateKind.outline = [](const ShapeSpec& s) { return plate(s.length, s.thickness, s.edges); };
    plateKind.piecewise = [](const ShapeSpec& s, const Polygon&) { return stadiumCurve(s.length, s.thickness); };

    ShapeKind polygonKind;
    polygonKind.name = "polygon";
    polygonKind.vertices = true;
    polygonKind.outline = [](const ShapeSpec& s) { return polygon(s.vertices, s.smooth); };
    polygonKind.piecewise = [](const ShapeSpec&, const Polygon& p) { return polygonCurve(p); };

    return std::vector<ShapeKind>{circleKind, ellipseKind, starKind, plateKind, polygonKind};
  }();
  return kinds;
}

const ShapeKind& shapeKind(const std::string& name) {
  std::string choices;
  for (const auto& k : shapeKinds()) {
    if (k.name == name) return k;
    choices += (choices.empty() ? "" : ", ") + k.name;
  }
  throw ConfigurationError("body shape '" + name + "' is unknown (choices: " + choices + ")");
}

std::string shapeKindNames(bool smooth) {
  std::string s;
  for (const auto& k : shapeKinds())
    if (k.smooth == smooth) s += (s.empty() ? "" : ", ") + k.name;
  return s;
}

}  // namespace kirchhoff::fluid

// The invariant log's columns as each model declares them, once (name, units, kind, description,
// which configurations have them), and the row of values a model returns beside them. docs/output.md
// "The invariant log" is generated from these tables (docs/generate_output.sh).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/Quantity.hpp"

namespace kirchhoff {

enum class Kind { Conserved, Diagnostic, Solver, Coordinate };
/// "conserved", "diagnostic", "solver", "coordinate": the `kind` attribute of the dataset.
const char* kindName(Kind k);

/// One column a model's log can have.
struct Column {
  std::string name, units;
  Kind kind;
  std::string description;  ///< the dataset's `description` attribute
  bool integer = false;     ///< counts, stored as int64
  std::string only;         ///< docs: the configurations that have the column ("" all)
  std::string conserved;    ///< docs: when a column of kind `kind` is conserved instead ("" never)

  Column(std::string name_, std::string units_, Kind kind_, std::string description_)
      : name(std::move(name_)), units(std::move(units_)), kind(kind_), description(std::move(description_)) {}
  /// An integer count (iterations, evaluations).
  Column count() const;
  /// Logged only by the configurations `which` ("with bodies", "with reference.enabled").
  Column onlyWith(std::string which) const;
  /// Conserved in the configurations `which` ("without bodies"), of kind `kind` otherwise: the
  /// model passes the kind to LogRow::add.
  Column conservedWhen(std::string which) const;
  /// The dataset attributes with the kind `k`.
  Quantity quantity(Kind k) const { return Quantity{name, units, description, kindName(k), integer}; }
};

/// One row of the invariant log as a model returns it: each value beside its declared column, in
/// the order the model adds them (the same columns at every step of a run).
class LogRow {
 public:
  /// `declared`: the model's table, which outlives the row (a static).
  explicit LogRow(const std::vector<Column>& declared) : declared_(&declared) {}
  /// Appends the value of the declared column `name`; an undeclared name is a model bug (throws).
  LogRow& add(const std::string& name, double value);
  /// The same with the kind this configuration gives a column declared conservedWhen.
  LogRow& add(const std::string& name, double value, Kind kind);

  std::size_t size() const { return entries_.size(); }
  std::vector<std::string> names() const;
  std::vector<double> values() const;
  /// Each column's dataset attributes, the kinds resolved for this configuration.
  std::vector<Quantity> quantities() const;
  /// The time coordinate: a declared `time` column (the SI models: seconds), else dimensionless.
  Quantity time() const;

 private:
  struct Entry {
    const Column* column;
    Kind kind;
    double value;
  };
  const Column& declared(const std::string& name) const;
  const std::vector<Column>* declared_;
  std::vector<Entry> entries_;
};

/// The Markdown table of `columns` for docs/output.md (column, kind, units, meaning).
std::string columnTable(const std::vector<Column>& columns);

}  // namespace kirchhoff
